import { ActionIcon, Group } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { usePermission } from '../../permissions/Can';
import { ActionDialog } from './ActionDialog';
import { CrudDialog } from './CrudDialog';
import { cellRender } from './CrudField';
import { cellText } from './fields';
import { CrudSearchBar } from './CrudSearchBar';
import { CrudToolbar } from './CrudToolbar';
import { type CrudDefinition, type CrudRecord, type FormValues, searchColumns, tableColumns } from './define';
import { formUnder, hasChildren, searchParams, treeParams } from './relations';
import { actionsWidth, type RowHandlers, RowButtons, rowButtonCount } from './RowButtons';
import { SecretDialog } from './SecretDialog';
import { useCrudTree } from './useCrud';
import { useKitText } from './useKitText';
import { useRowCommands } from './useRowCommands';

/** How far a level's first cell is indented, per level. */
const INDENT = 24;

/** Rows chosen across the tree's levels (a batch delete), each level holding its own. */
interface Selection {
  selected: CrudRecord[];
  onChange: (rows: CrudRecord[]) => void;
}

/**
 * A tree read one level at a time (`lazy-tree?parentCode=`): a row the server says has
 * children expands (mantine-datatable's row expansion) into the next level, fetched then.
 * With search fields and `tree.search`, a search shows the whole filtered tree unfolded.
 */
export function CrudTree({ def }: { def: CrudDefinition }) {
  const [selected, setSelected] = useState<CrudRecord[]>([]);
  const commands = useRowCommands(def, () => setSelected([]));
  const handlers: RowHandlers = {
    ...commands.handlers,
    onAddUnder: (row) => commands.setDialog({ mode: 'add', id: null, initial: formUnder(def, row) }),
  };
  const [refresh, setRefresh] = useState(0);
  const [search, setSearch] = useState<Record<string, string | number>>({});
  const mayDelete = usePermission({ code: def.buttons.delete ?? '' }) && Boolean(def.buttons.delete);
  const searching = Boolean(def.tree?.search) && Object.keys(search).length > 0;
  const onSearch = (values: FormValues) => {
    setSearch(searchParams(def, values));
    setSelected([]);
  };
  const selection = mayDelete ? { selected, onChange: setSelected } : undefined;
  return (
    <>
      {def.tree?.search && <CrudSearchBar columns={searchColumns(def)} onSearch={onSearch} />}
      <CrudToolbar
        def={def}
        onAdd={() => commands.setDialog({ mode: 'add', id: null, initial: formUnder(def, null) })}
        onBatchDelete={mayDelete ? () => commands.confirmRemove(selected, 'crud.confirm.deleteSelected') : undefined}
        onRefresh={() => setRefresh((n) => n + 1)}
        onFormAction={(action) => commands.openAction(action, selected)}
      />
      <div data-testid="crud-table" data-tree={searching ? 'searched' : 'lazy'}>
        {searching ? (
          <SearchedTree key={refresh} def={def} search={search} handlers={handlers} selection={selection} />
        ) : (
          <TreeLevel key={refresh} def={def} parent={null} depth={0} handlers={handlers} selection={selection} />
        )}
      </div>
      <CrudDialog
        def={def}
        state={commands.dialog}
        onClose={() => commands.setDialog(null)}
        onSaved={commands.onSaved}
      />
      <ActionDialog def={def} state={commands.actionDialog} onClose={commands.closeAction} />
      <SecretDialog revealed={commands.revealed} onClose={commands.closeRevealed} />
    </>
  );
}

interface LevelProps {
  def: CrudDefinition;
  parent: CrudRecord | null;
  depth: number;
  handlers: RowHandlers;
  selection?: Selection;
  /** The level's rows as given (a searched tree's `children`); else read from the server. */
  rows?: CrudRecord[];
}

/** The whole tree the search fields filter (`tree.search`), every level unfolded. */
function SearchedTree({
  def,
  search,
  ...rest
}: Omit<LevelProps, 'parent' | 'depth' | 'rows'> & { search: Record<string, string | number> }) {
  const all = useCrudTree(def, search, def.tree?.search);
  return <TreeLevel def={def} parent={null} depth={0} rows={all.data ?? []} {...rest} />;
}

const childrenOf = (row: CrudRecord) => (Array.isArray(row.children) ? (row.children as CrudRecord[]) : undefined);

function TreeLevel({ def, parent, depth, handlers, selection, rows }: LevelProps) {
  const { tr, language } = useKitText();
  const level = useCrudTree(def, treeParams(def, parent), undefined, rows === undefined);
  const rowKey = def.rowKey ?? 'id';
  const records = rows ?? level.data ?? [];
  // A searched tree opens unfolded; a lazy one folded.
  const [expanded, setExpanded] = useState<string[]>(() =>
    rows ? rows.filter((r) => childrenOf(r)?.length).map((r) => String(r[rowKey])) : [],
  );
  const shown = tableColumns(def);
  const buttons = rowButtonCount(def, true);
  const keyOf = (row: CrudRecord) => String(row[rowKey]);
  const here = new Set(records.map(keyOf));

  const columns: DataTableColumn<CrudRecord>[] = shown.map((column, index) => ({
    accessor: column.prop,
    title: tr(column.label),
    width: index === 0 ? undefined : column.width,
    ellipsis: true,
    render:
      index === 0
        ? (row) => {
            const open = expanded.includes(keyOf(row));
            return (
              <Group gap={4} wrap="nowrap" pl={depth * INDENT}>
                {hasChildren(row) ? (
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    color="gray"
                    aria-label={tr(open ? 'crud.tree.collapse' : 'crud.tree.expand')}
                    data-testid="crud-tree-toggle"
                  >
                    <IconChevronRight
                      size={14}
                      style={{ transform: open ? 'rotate(90deg)' : undefined, transition: 'transform 150ms' }}
                    />
                  </ActionIcon>
                ) : (
                  <span style={{ width: 22, display: 'inline-block' }} />
                )}
                <span>{cellText(column, row, language)}</span>
              </Group>
            );
          }
        : cellRender(column),
  }));
  if (buttons > 0)
    columns.push({
      accessor: '__actions',
      title: tr('crud.actions.title'),
      textAlign: 'center',
      width: actionsWidth(buttons),
      render: (row) => <RowButtons def={def} row={row} handlers={handlers} />,
    });

  const nested = depth > 0;
  return (
    <DataTable<CrudRecord>
      withTableBorder={!nested}
      borderRadius={nested ? undefined : 'sm'}
      noHeader={nested}
      highlightOnHover
      verticalAlign="center"
      minHeight={!nested && records.length === 0 ? 180 : undefined}
      idAccessor={keyOf}
      columns={columns}
      records={records}
      fetching={rows === undefined && level.isFetching && !level.data}
      noRecordsText={tr('crud.table.empty')}
      {...(selection
        ? {
            selectedRecords: selection.selected.filter((r) => here.has(keyOf(r))),
            onSelectedRecordsChange: (picked: CrudRecord[]) =>
              selection.onChange([...selection.selected.filter((r) => !here.has(keyOf(r))), ...picked]),
          }
        : {})}
      customRowAttributes={(row) => ({
        'data-testid': `crud-row-${keyOf(row)}`,
        'data-depth': String(depth),
        ...(hasChildren(row) ? { 'data-expanded': String(expanded.includes(keyOf(row))) } : {}),
      })}
      rowExpansion={{
        allowMultiple: true,
        expandable: ({ record }) => hasChildren(record),
        expanded: { recordIds: expanded, onRecordIdsChange: (ids: unknown[]) => setExpanded(ids.map(String)) },
        content: ({ record }) => (
          <TreeLevel
            def={def}
            parent={record}
            depth={depth + 1}
            handlers={handlers}
            selection={selection}
            rows={rows ? (childrenOf(record) ?? []) : undefined}
          />
        ),
      }}
    />
  );
}
