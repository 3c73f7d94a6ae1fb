import { Button, Center, Group, Loader, Pagination, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconRefresh, IconSearch } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RowCards } from '../../../kit/records/components/RowCards';
import { type Page, useFlowPage } from '../api';

export interface FlowColumn<T> {
  key: string;
  label: string;
  render: (row: T) => ReactNode;
  width?: number;
}

interface Props<T> {
  name: string;
  load: (params: Record<string, string | number | undefined>) => Promise<Page<T>>;
  columns: FlowColumn<T>[];
  rowKey: (row: T) => string;
  /** The row's buttons. */
  actions?: (row: T) => ReactNode;
  /** Buttons above the table. */
  toolbar?: ReactNode;
  /** Text searches: list parameter → label. */
  search?: { param: string; label: string }[];
  /** The column a phone's card shows beside its heading (default: the one keyed `status` or `state`). */
  statusKey?: string;
  /** What an empty list tells the user (what appears here, what to do first); default 暂无数据. */
  empty?: string;
  testId: string;
}

const SIZE = 10;

/**
 * A workflow list: its searches, a page of rows with their buttons, the pager (Saber's `current`/`size`).
 * On a phone (under 48em) the rows are the records kit's cards: the first column as the heading,
 * the status beside it, the other columns by label, the buttons under them (same row test id).
 */
export function FlowTable<T>({
  name,
  load,
  columns,
  rowKey,
  actions,
  toolbar,
  search = [],
  statusKey,
  empty,
  testId,
}: Props<T>) {
  const { t } = useTranslation();
  const narrow = useMediaQuery('(max-width: 48em)');
  const [current, setCurrent] = useState(1);
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [filters, setFilters] = useState<Record<string, string>>({});
  const params = { current, size: SIZE, ...filters };
  const query = useFlowPage(name, params, load);
  const rows = query.data?.records ?? [];
  const total = query.data?.total ?? 0;
  const statusColumn = columns.find((c) => (statusKey ? c.key === statusKey : c.key === 'status' || c.key === 'state'));
  const cardColumns = columns.filter((c) => c !== statusColumn);

  return (
    <Paper p="md" withBorder data-testid={testId}>
      <Stack gap="sm">
        {search.length > 0 && (
          <Group gap="xs" align="end">
            {search.map((s) => (
              <TextInput
                key={s.param}
                label={s.label}
                size="sm"
                value={draft[s.param] ?? ''}
                onChange={(e) => setDraft({ ...draft, [s.param]: e.currentTarget.value })}
              />
            ))}
            <Button
              size="sm"
              leftSection={<IconSearch size={14} />}
              onClick={() => {
                setCurrent(1);
                setFilters(Object.fromEntries(Object.entries(draft).filter(([, v]) => v.trim() !== '')));
              }}
            >
              {t('flow.common.search')}
            </Button>
            <Button
              size="sm"
              variant="default"
              onClick={() => {
                setDraft({});
                setFilters({});
                setCurrent(1);
              }}
            >
              {t('flow.common.reset')}
            </Button>
          </Group>
        )}
        <Group justify="space-between">
          <Group gap="xs">{toolbar}</Group>
          <Button
            size="xs"
            variant="subtle"
            leftSection={<IconRefresh size={14} />}
            onClick={() => query.refetch()}
            aria-label={t('flow.common.refresh')}
          >
            {t('flow.common.refresh')}
          </Button>
        </Group>
        {narrow ? (
          <RowCards<{ id: string; row: T }>
            records={rows.map((row) => ({ id: rowKey(row), row }))}
            columns={cardColumns.map((c) => ({ key: c.key, label: c.label, render: (r) => c.render(r.row) }))}
            status={statusColumn ? (r) => statusColumn.render(r.row) : undefined}
            actions={actions ? (r) => actions(r.row) : undefined}
            empty={false}
            rowTestId={`${testId}-row`}
          />
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table striped highlightOnHover withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  {columns.map((c) => (
                    <Table.Th key={c.key} style={c.width ? { width: c.width } : undefined}>
                      {c.label}
                    </Table.Th>
                  ))}
                  {actions && <Table.Th>{t('flow.common.actions')}</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={rowKey(row)} data-testid={`${testId}-row`}>
                    {columns.map((c) => (
                      <Table.Td key={c.key}>{c.render(row)}</Table.Td>
                    ))}
                    {actions && (
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          {actions(row)}
                        </Group>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {query.isPending && (
          <Center>
            <Loader size="sm" />
          </Center>
        )}
        {!query.isPending && rows.length === 0 && (
          <Text c="dimmed" ta="center" size="sm" data-testid={`${testId}-empty`}>
            {empty ?? t('flow.common.empty')}
          </Text>
        )}
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('flow.common.total', { total })}
          </Text>
          {total > SIZE && (
            <Pagination size="sm" total={Math.ceil(total / SIZE)} value={current} onChange={setCurrent} />
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
