import { ActionIcon, Group } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { CrudDialog } from './CrudDialog';
import { OptionCell } from './CrudField';
import { CrudToolbar } from './CrudToolbar';
import { type CrudDefinition, type CrudRecord, tableColumns } from './define';
import { formUnder, hasChildren, treeParams } from './relations';
import { actionsWidth, type RowHandlers, RowButtons, rowButtonCount } from './RowButtons';
import { SecretDialog } from './SecretDialog';
import { useCrudTree } from './useCrud';
import { useKitText } from './useKitText';
import { useRowCommands } from './useRowCommands';

/** How far a level's first cell is indented, per level. */
const INDENT = 24;

/**
 * A tree read one level at a time (`lazy-tree?parentCode=`): a row the server says has
 * children expands (mantine-datatable's row expansion) into the next level, fetched then.
 */
export function CrudTree({ def }: { def: CrudDefinition }) {
  const commands = useRowCommands(def);
  const handlers: RowHandlers = {
    ...commands.handlers,
    onAddUnder: (row) => commands.setDialog({ mode: 'add', id: null, initial: formUnder(def, row) }),
  };
  const [refresh, setRefresh] = useState(0);
  return (
    <>
      <CrudToolbar
        def={def}
        onAdd={() => commands.setDialog({ mode: 'add', id: null, initial: formUnder(def, null) })}
        onRefresh={() => setRefresh((n) => n + 1)}
      />
      <div data-testid="crud-table" data-tree="lazy">
        <TreeLevel key={refresh} def={def} parent={null} depth={0} handlers={handlers} />
      </div>
      <CrudDialog
        def={def}
        state={commands.dialog}
        onClose={() => commands.setDialog(null)}
        onSaved={commands.onSaved}
      />
      <SecretDialog revealed={commands.revealed} onClose={commands.closeRevealed} />
    </>
  );
}

interface LevelProps {
  def: CrudDefinition;
  parent: CrudRecord | null;
  depth: number;
  handlers: RowHandlers;
}

function TreeLevel({ def, parent, depth, handlers }: LevelProps) {
  const { tr } = useKitText();
  const level = useCrudTree(def, treeParams(def, parent));
  const [expanded, setExpanded] = useState<string[]>([]);
  const rowKey = def.rowKey ?? 'id';
  const shown = tableColumns(def);
  const buttons = rowButtonCount(def, true);

  const columns: DataTableColumn<CrudRecord>[] = shown.map((column, index) => ({
    accessor: column.prop,
    title: tr(column.label),
    width: index === 0 ? undefined : column.width,
    ellipsis: true,
    render:
      index === 0
        ? (row) => {
            const open = expanded.includes(String(row[rowKey]));
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
                <span>{String(row[column.prop] ?? '')}</span>
              </Group>
            );
          }
        : column.options || column.dict
          ? (row) => <OptionCell column={column} value={row[column.prop]} />
          : undefined,
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
      minHeight={!nested && (level.data?.length ?? 0) === 0 ? 180 : undefined}
      idAccessor={(row) => String(row[rowKey])}
      columns={columns}
      records={level.data ?? []}
      fetching={level.isFetching && !level.data}
      noRecordsText={tr('crud.table.empty')}
      customRowAttributes={(row) => ({
        'data-testid': `crud-row-${String(row[rowKey])}`,
        'data-depth': String(depth),
        ...(hasChildren(row) ? { 'data-expanded': String(expanded.includes(String(row[rowKey]))) } : {}),
      })}
      rowExpansion={{
        allowMultiple: true,
        expandable: ({ record }) => hasChildren(record),
        expanded: { recordIds: expanded, onRecordIdsChange: (ids: unknown[]) => setExpanded(ids.map(String)) },
        content: ({ record }) => <TreeLevel def={def} parent={record} depth={depth + 1} handlers={handlers} />,
      }}
    />
  );
}
