import { ActionIcon, Group, Text } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useMemo, useState } from 'react';
import { usePermission } from '../../permissions/Can';
import { CrudDialog } from './CrudDialog';
import { OptionCell } from './CrudField';
import { CrudSearchBar } from './CrudSearchBar';
import { CrudToolbar } from './CrudToolbar';
import { type CrudDefinition, type CrudRecord, type FormValues, searchColumns, tableColumns } from './define';
import { flattenTree, formUnder, isSealedRow, searchParams, type TreeRow } from './relations';
import { actionsWidth, type RowHandlers, RowButtons, rowButtonCount } from './RowButtons';
import { type SelectionAction, useSelectionActions } from './SelectionActions';
import { useCrudTree } from './useCrud';
import { useKitText } from './useKitText';
import { useRowCommands } from './useRowCommands';

const INDENT = 24;

/**
 * A tree its call answers whole (`tree.whole`, e.g. `role/list`): one table, every level shown
 * until folded, the search bar's fields sent with the call, rows selectable for batch delete
 * and the screen's selection actions, and a row's add button adding a row under it.
 */
export function CrudWholeTree({
  def,
  selectionActions,
}: {
  def: CrudDefinition;
  selectionActions?: readonly SelectionAction[];
}) {
  const { tr } = useKitText();
  const rowKey = def.rowKey ?? 'id';
  const [search, setSearch] = useState<FormValues>({});
  const [selected, setSelected] = useState<CrudRecord[]>([]);
  const [folded, setFolded] = useState<string[]>([]);
  const params = useMemo(() => searchParams(def, search), [def, search]);
  const list = useCrudTree(def, params);
  const commands = useRowCommands(def, () => setSelected([]));
  const selection = useSelectionActions(selectionActions, selected);
  const mayDelete = usePermission({ code: def.buttons.delete ?? '' }) && Boolean(def.buttons.delete);
  const maySelect = mayDelete || selection.selectable;
  const rows = useMemo(() => flattenTree(list.data ?? [], new Set(folded), rowKey), [list.data, folded, rowKey]);
  const handlers: RowHandlers = {
    ...commands.handlers,
    onAddUnder: (row) => commands.setDialog({ mode: 'add', id: null, initial: formUnder(def, row) }),
  };
  const toggle = (id: string) => setFolded((f) => (f.includes(id) ? f.filter((x) => x !== id) : [...f, id]));

  const columns: DataTableColumn<TreeRow>[] = tableColumns(def).map((column, index) => ({
    accessor: column.prop,
    title: tr(column.label),
    width: index === 0 ? undefined : column.width,
    ellipsis: true,
    render:
      index === 0
        ? (row) => {
            const id = String(row[rowKey]);
            const open = !folded.includes(id);
            return (
              <Group gap={4} wrap="nowrap" pl={row.__depth * INDENT}>
                {row.__hasChildren ? (
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    color="gray"
                    aria-label={tr(open ? 'crud.tree.collapse' : 'crud.tree.expand')}
                    data-testid="crud-tree-toggle"
                    onClick={(e) => {
                      e.stopPropagation();
                      toggle(id);
                    }}
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
  const buttons = rowButtonCount(def, true);
  if (buttons > 0)
    columns.push({
      accessor: '__actions',
      title: tr('crud.actions.title'),
      textAlign: 'center',
      width: actionsWidth(buttons),
      render: (row) => <RowButtons def={def} row={row} handlers={handlers} />,
    });

  return (
    <>
      <CrudSearchBar
        columns={searchColumns(def)}
        onSearch={(values) => {
          setSearch(values);
          setSelected([]);
        }}
      />
      <CrudToolbar
        def={def}
        onAdd={() => commands.setDialog({ mode: 'add', id: null, initial: formUnder(def, null) })}
        onBatchDelete={() => commands.confirmRemove(selected, 'crud.confirm.deleteSelected')}
        onRefresh={() => void list.refetch()}
        extra={selection.buttons}
      />
      <div data-testid="crud-table" data-tree="whole">
        <DataTable<TreeRow>
          withTableBorder
          borderRadius="sm"
          highlightOnHover
          verticalAlign="center"
          minHeight={rows.length === 0 ? 180 : undefined}
          idAccessor={(row) => String(row[rowKey])}
          columns={columns}
          records={rows}
          fetching={list.isFetching && !list.data}
          noRecordsText={tr('crud.table.empty')}
          selectedRecords={maySelect ? (selected as TreeRow[]) : undefined}
          onSelectedRecordsChange={maySelect ? (next: TreeRow[]) => setSelected(next) : undefined}
          isRecordSelectable={(row: TreeRow) => !isSealedRow(def, row)}
          customRowAttributes={(row) => ({
            'data-testid': `crud-row-${String(row[rowKey])}`,
            'data-depth': String(row.__depth),
          })}
        />
        {selected.length > 0 && (
          <Text size="sm" c="dimmed" mt="xs" data-testid="crud-selected">
            {tr('crud.table.selected', { count: selected.length })}
          </Text>
        )}
      </div>
      <CrudDialog
        def={def}
        state={commands.dialog}
        onClose={() => commands.setDialog(null)}
        onSaved={commands.onSaved}
      />
      {selection.dialog}
    </>
  );
}
