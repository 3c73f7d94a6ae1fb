import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconEdit, IconEye, IconTrash } from '@tabler/icons-react';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import { type ReactNode, useMemo, useState } from 'react';
import { Can, usePermission } from '../../permissions/Can';
import {
  type CrudDefinition,
  type CrudRecord,
  optionOf,
  PAGE_SIZES,
  type Paging,
  sortRecords,
  tableColumns,
} from './define';
import { useKitText } from './useKitText';

interface CrudTableProps {
  def: CrudDefinition;
  records: CrudRecord[];
  total: number;
  paging: Paging;
  onPaging: (paging: Paging) => void;
  fetching: boolean;
  selected: CrudRecord[];
  onSelected: (rows: CrudRecord[]) => void;
  onOpen: (mode: 'edit' | 'view', row: CrudRecord) => void;
  onDelete: (row: CrudRecord) => void;
}

/** The rows of a page: the definition's columns, row buttons, selection for batch delete, paging. */
export function CrudTable(props: CrudTableProps) {
  const { def, records, total, paging, onPaging, fetching, selected, onSelected, onOpen, onDelete } = props;
  const { tr, option, language } = useKitText();
  const { buttons } = def;
  const rowKey = def.rowKey ?? 'id';
  const [sort, setSort] = useState<DataTableSortStatus<CrudRecord> | undefined>(undefined);
  const mayDelete = usePermission({ code: buttons.delete ?? '' }) && Boolean(buttons.delete);
  const rowButtons = [buttons.view, buttons.edit, buttons.delete].filter(Boolean).length;

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
    render: column.options || column.dict ? (row) => option(optionOf(column.options, row[column.prop])) : undefined,
  }));
  if (rowButtons > 0) {
    columns.push({
      accessor: '__actions',
      title: tr('crud.actions.title'),
      textAlign: 'center',
      width: 44 * rowButtons + 24,
      render: (row) => (
        <Group gap={4} justify="center" wrap="nowrap">
          {buttons.view && (
            <Can code={buttons.view}>
              <RowButton label={tr('crud.actions.view')} testId="crud-row-view" onClick={() => onOpen('view', row)}>
                <IconEye size={16} />
              </RowButton>
            </Can>
          )}
          {buttons.edit && (
            <Can code={buttons.edit}>
              <RowButton label={tr('crud.actions.edit')} testId="crud-row-edit" onClick={() => onOpen('edit', row)}>
                <IconEdit size={16} />
              </RowButton>
            </Can>
          )}
          {buttons.delete && (
            <Can code={buttons.delete}>
              <RowButton
                label={tr('crud.actions.delete')}
                testId="crud-row-delete"
                color="red"
                onClick={() => onDelete(row)}
              >
                <IconTrash size={16} />
              </RowButton>
            </Can>
          )}
        </Group>
      ),
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
        noRecordsText={tr('crud.table.empty')}
        sortStatus={sort ?? { columnAccessor: '', direction: 'asc' }}
        onSortStatusChange={setSort}
        {...(mayDelete ? { selectedRecords: selected, onSelectedRecordsChange: onSelected } : {})}
        totalRecords={total}
        page={paging.current}
        onPageChange={(current) => onPaging({ ...paging, current })}
        recordsPerPage={paging.size}
        recordsPerPageOptions={[...PAGE_SIZES]}
        onRecordsPerPageChange={(size) => onPaging({ current: 1, size })}
        recordsPerPageLabel={tr('crud.table.pageSize')}
        paginationText={({ from: first, to, totalRecords }) =>
          tr('crud.table.range', { from: totalRecords === 0 ? 0 : first, to, total: totalRecords })
        }
        customRowAttributes={(row) => ({ 'data-testid': `crud-row-${String(row[rowKey])}` })}
      />
      {selected.length > 0 && (
        <Text size="sm" c="dimmed" mt="xs" data-testid="crud-selected">
          {tr('crud.table.selected', { count: selected.length })}
        </Text>
      )}
    </div>
  );
}

function RowButton(props: { label: string; testId: string; color?: string; onClick: () => void; children: ReactNode }) {
  return (
    <Tooltip label={props.label} withArrow openDelay={300}>
      <ActionIcon
        variant="subtle"
        color={props.color}
        aria-label={props.label}
        data-testid={props.testId}
        onClick={props.onClick}
      >
        {props.children}
      </ActionIcon>
    </Tooltip>
  );
}
