import { Text } from '@mantine/core';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import { useMemo, useState } from 'react';
import { usePermission } from '../../permissions/Can';
import { type CrudDefinition, type CrudRecord, PAGE_SIZES, type Paging, sortRecords, tableColumns } from './define';
import { selectionActions } from './actions';
import { isSealedRow } from './relations';
import { actionsWidth, type RowHandlers, RowButtons, rowButtonCount } from './RowButtons';
import { useKitText } from './useKitText';
import { cellRender } from './CrudField';

interface CrudTableProps {
  def: CrudDefinition;
  records: CrudRecord[];
  total: number;
  paging: Paging;
  onPaging: (paging: Paging) => void;
  fetching: boolean;
  selected: CrudRecord[];
  onSelected: (rows: CrudRecord[]) => void;
  handlers: RowHandlers;
  /** A parent table: clicking a row chooses it (its children show beside or below). */
  chosen?: CrudRecord | null;
  onChoose?: (row: CrudRecord) => void;
  /** Half the screen wide (beside another table): the paging bar stacks its parts. */
  narrow?: boolean;
  /** Rows may be selected (for the screen's own toolbar buttons), not only for batch delete. */
  selectable?: boolean;
}

/** The rows of a page: the definition's columns, row buttons, selection for batch delete, paging. */
export function CrudTable(props: CrudTableProps) {
  const {
    def,
    records,
    total,
    paging,
    onPaging,
    fetching,
    selected,
    onSelected,
    handlers,
    chosen,
    onChoose,
    narrow,
    selectable,
  } = props;
  const { tr, language } = useKitText();
  const { buttons } = def;
  const rowKey = def.rowKey ?? 'id';
  const [sort, setSort] = useState<DataTableSortStatus<CrudRecord> | undefined>(undefined);
  // Rows are selected for a batch delete, a batch or form action, or the screen's own toolbar buttons.
  const mayDelete = usePermission({ code: buttons.delete ?? '' }) && Boolean(buttons.delete);
  const maySelect =
    mayDelete || selectable === true || selectionActions(def).length > 0 || (def.actions ?? []).some((a) => a.batch);
  const rowButtons = rowButtonCount(def, false, handlers.extraCount ?? 0);
  const chosenKey = chosen ? String(chosen[rowKey]) : null;

  const rows = useMemo(
    () => (sort ? sortRecords(records, String(sort.columnAccessor), sort.direction, language) : records),
    [records, sort, language],
  );

  const columns: DataTableColumn<CrudRecord>[] = tableColumns(def).map((column) => ({
    accessor: column.prop,
    title: tr(column.label),
    sortable: column.sortable,
    width: column.width,
    ellipsis: true,
    render: cellRender(column),
  }));
  if (rowButtons > 0) {
    columns.push({
      accessor: '__actions',
      title: tr('crud.actions.title'),
      textAlign: 'center',
      width: actionsWidth(rowButtons),
      render: (row) => <RowButtons def={def} row={row} handlers={handlers} />,
    });
  }

  return (
    <div data-testid="crud-table">
      <DataTable<CrudRecord>
        withTableBorder
        borderRadius="sm"
        striped
        highlightOnHover
        verticalAlign="center"
        minHeight={records.length === 0 ? 180 : undefined}
        idAccessor={(row) => String(row[rowKey])}
        columns={columns}
        records={rows}
        fetching={fetching}
        loadingText={tr('crud.table.loading')}
        noRecordsText={tr(def.empty ?? 'crud.table.empty')}
        sortStatus={sort ?? { columnAccessor: '', direction: 'asc' }}
        onSortStatusChange={setSort}
        {...(maySelect
          ? {
              selectedRecords: selected,
              onSelectedRecordsChange: onSelected,
              isRecordSelectable: (row: CrudRecord) => !isSealedRow(def, row),
            }
          : {})}
        {...(onChoose ? { onRowClick: ({ record }: { record: CrudRecord }) => onChoose(record) } : {})}
        rowStyle={(row) =>
          chosenKey !== null && String(row[rowKey]) === chosenKey
            ? {
                backgroundColor: 'var(--mantine-primary-color-light)',
                boxShadow: 'inset 3px 0 0 var(--mantine-primary-color-filled)',
              }
            : undefined
        }
        style={onChoose ? { cursor: 'pointer' } : undefined}
        totalRecords={total}
        page={paging.current}
        onPageChange={(current) => onPaging({ ...paging, current })}
        recordsPerPage={paging.size}
        recordsPerPageOptions={[...PAGE_SIZES]}
        onRecordsPerPageChange={(size) => onPaging({ current: 1, size })}
        recordsPerPageLabel={tr('crud.table.pageSize')}
        {...(narrow ? { paginationWrapBreakpoint: 100_000 } : {})}
        paginationText={({ from: first, to, totalRecords }) =>
          tr('crud.table.range', { from: totalRecords === 0 ? 0 : first, to, total: totalRecords })
        }
        customRowAttributes={(row) => ({
          'data-testid': `crud-row-${String(row[rowKey])}`,
          ...(chosenKey !== null ? { 'data-chosen': String(String(row[rowKey]) === chosenKey) } : {}),
          ...(isSealedRow(def, row) ? { 'data-sealed': 'true' } : {}),
        })}
      />
      {selected.length > 0 && (
        <Text size="sm" c="dimmed" mt="xs" data-testid="crud-selected">
          {tr('crud.table.selected', { count: selected.length })}
        </Text>
      )}
    </div>
  );
}
