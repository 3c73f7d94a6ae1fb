import {
  Alert,
  Button,
  Checkbox,
  Group,
  LoadingOverlay,
  NumberInput,
  Pagination,
  Select,
  type SelectProps,
  Table,
  Text,
  TextInput,
  type TextInputProps,
} from '@mantine/core';
import { IconRefresh, IconSearch } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { type ReactNode, useMemo, useState } from 'react';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { BasicContainer } from '../../../../components/BasicContainer/BasicContainer';
import type { PageQuery } from '../../api';
import { useClasses } from '../../hooks/useClasses';
import { useLoad } from '../../hooks/useLoad';
import { useWeekLabels } from '../../hooks/useWeekLabels';
import type { ListFilters, Page, RecordHeader } from '../../model/types';
import { localYmd, recentSemesters } from '../../model/weekDates';
import { RowCards } from '../../../../kit/records/components/RowCards';
import { PageTitle } from '../PageTitle/PageTitle';
import { StatusBadge } from '../StatusBadge/StatusBadge';
import classes from './RecordList.module.css';

/** Spec §9: page sizes 10, 30, 50, 100, 200; default 10. */
export const PAGE_SIZES = [10, 30, 50, 100, 200];

export type FilterName =
  | 'theme'
  | 'title'
  | 'classId'
  | 'status'
  | 'semester'
  | 'weekNo'
  | 'authorName'
  | 'domain'
  | 'activityType';

export interface Column<R> {
  key: string;
  label: string;
  render: (row: R) => ReactNode;
  width?: number | string;
}

/** The columns any record list may show from the record's header: class, status, author, last change. */
export function headerColumns<R extends RecordHeader>(t: TFunction) {
  return {
    class: { key: 'class', label: t('week.fields.classId'), render: (row) => row.className },
    status: { key: 'status', label: t('week.fields.status'), render: (row) => <StatusBadge status={row.status} /> },
    author: { key: 'author', label: t('week.fields.author'), render: (row) => row.authorName },
    updateTime: {
      key: 'updateTime',
      label: t('week.fields.updateTime'),
      render: (row) => (
        <Text size="xs" c="dimmed">
          {row.updateTime}
        </Text>
      ),
    },
  } satisfies Record<string, Column<R>>;
}

interface RecordListProps<R extends RecordHeader> {
  /** The page's heading (the menu's name). */
  title: string;
  intro?: string;
  fetch: (query: PageQuery, filters: ListFilters) => Promise<Page<R>>;
  filters: FilterName[];
  columns: Column<R>[];
  /** Actions of a row (the reload refreshes the list after one). */
  actions?: (row: R, reload: () => Promise<void>) => ReactNode;
  /** Buttons above the list. */
  toolbar?: ReactNode;
  /** Multi-select: the selected ids → buttons acting on them. */
  bulk?: (ids: string[], clear: () => void) => ReactNode;
  /** Classes offered in the class filter. */
  classSource?: 'mine' | 'scope';
  /** Changes when the list should load again (e.g. the page was shown again). */
  refreshKey?: unknown;
  /** Filters the page was opened with (a dashboard figure's link, `?status=draft`): applied when they change. */
  preset?: { status?: string | null };
  'data-testid'?: string;
}

type FormState = { [K in FilterName]?: string };

function toFilters(form: FormState): ListFilters {
  const filters: ListFilters = {};
  if (form.theme) filters.theme = form.theme;
  if (form.title) filters.theme = form.title; // plans: the title is searched as `theme`
  if (form.classId) filters.classId = form.classId;
  if (form.status) filters.status = form.status as ListFilters['status'];
  if (form.semester) filters.semester = form.semester;
  if (form.weekNo) filters.weekNo = Number(form.weekNo);
  if (form.authorName) filters.authorName = form.authorName;
  if (form.domain) filters.domain = Number(form.domain);
  if (form.activityType) filters.activityType = Number(form.activityType);
  return filters;
}

/** A searchable, paged list of records (lesson-plan lists). */
export function RecordList<R extends RecordHeader>({
  title,
  intro,
  fetch,
  filters,
  columns,
  actions,
  toolbar,
  bulk,
  classSource = 'scope',
  refreshKey,
  preset,
  ...rest
}: RecordListProps<R>) {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  const narrow = useMediaQuery('(max-width: 48em)');
  const statusColumn = columns.find((c) => c.key === 'status');
  const { classes: classOptions } = useClasses(classSource);
  const presetStatus = preset?.status ?? '';
  const [form, setForm] = useState<FormState>(presetStatus ? { status: presetStatus } : {});
  const [applied, setApplied] = useState<ListFilters>(() => toFilters(presetStatus ? { status: presetStatus } : {}));
  const [query, setQuery] = useState<PageQuery>({ current: 1, size: 10 });
  const [seenPreset, setSeenPreset] = useState(presetStatus);
  if (presetStatus !== seenPreset) {
    // Opened again with other filters (a kept-alive page): they replace the form's.
    setSeenPreset(presetStatus);
    const next: FormState = presetStatus ? { status: presetStatus } : {};
    setForm(next);
    setApplied(toFilters(next));
    setQuery((q) => ({ ...q, current: 1 }));
  }
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const { data, loading, error, reload } = useLoad(() => fetch(query, applied), [query, applied, refreshKey]);
  const semesters = useMemo(() => recentSemesters(localYmd(), 6), []);

  const records = data?.records ?? [];
  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / query.size));
  const set = (name: FilterName, value: string | null) => setForm((f) => ({ ...f, [name]: value ?? '' }));
  const search = () => {
    setApplied(toFilters(form));
    setQuery((q) => ({ ...q, current: 1 }));
    setSelected(new Set());
  };
  const reset = () => {
    setForm({});
    setApplied({});
    setQuery((q) => ({ ...q, current: 1 }));
    setSelected(new Set());
  };
  const allOnPage = records.length > 0 && records.every((r) => selected.has(r.id));
  /** Selects the rows, or unselects them. */
  const mark = (ids: string[], on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  /** A text filter: Enter searches as the button does. */
  const text = (name: FilterName, props: TextInputProps & { 'data-testid': string }) => (
    <TextInput
      key={name}
      {...props}
      value={form[name] ?? ''}
      onChange={(e) => set(name, e.currentTarget.value)}
      onKeyDown={(e) => e.key === 'Enter' && search()}
    />
  );
  const choice = (name: FilterName, props: SelectProps & { 'data-testid'?: string }) => (
    <Select key={name} {...props} value={form[name] || null} onChange={(v) => set(name, v)} clearable />
  );
  /** The codes 1…count of a labelled list (domains, activity types). */
  const codes = (count: number, label: (code: number) => string) =>
    Array.from({ length: count }, (_, i) => ({ value: String(i + 1), label: label(i + 1) }));
  const statuses = ['draft', 'trial', 'success', 'returned'] as const;

  const filterInputs: Record<FilterName, () => ReactNode> = {
    theme: () => text('theme', { placeholder: t('week.list.themePlaceholder'), w: 160, 'data-testid': 'filter-theme' }),
    title: () => text('title', { placeholder: t('week.list.titlePlaceholder'), w: 180, 'data-testid': 'filter-title' }),
    authorName: () =>
      text('authorName', { placeholder: t('week.list.authorPlaceholder'), w: 130, 'data-testid': 'filter-author' }),
    classId: () =>
      choice('classId', {
        placeholder: t('week.list.allClasses'),
        data: classOptions.map((c) => ({ value: c.id, label: c.name })),
        searchable: true,
        w: 150,
        'data-testid': 'filter-class',
      }),
    status: () =>
      choice('status', {
        placeholder: t('week.list.allStatuses'),
        data: statuses.map((s) => ({ value: s, label: labels.status(s) })),
        w: 130,
        'data-testid': 'filter-status',
      }),
    semester: () =>
      choice('semester', {
        placeholder: t('week.list.allSemesters'),
        data: semesters.map((s) => ({ value: s, label: labels.semester(s) })),
        w: 200,
        'data-testid': 'filter-semester',
      }),
    domain: () => choice('domain', { placeholder: t('week.list.allDomains'), data: codes(5, labels.domain), w: 120 }),
    activityType: () =>
      choice('activityType', { placeholder: t('week.list.allTypes'), data: codes(4, labels.activityType), w: 130 }),
    weekNo: () => (
      <NumberInput
        key="weekNo"
        placeholder={t('week.list.weekNoPlaceholder')}
        min={1}
        max={30}
        value={form.weekNo ?? ''}
        onChange={(v) => set('weekNo', v === '' ? '' : String(v))}
        w={100}
        data-testid="filter-weekNo"
      />
    ),
  };

  return (
    <BasicContainer data-testid={rest['data-testid'] ?? 'record-list'}>
      <Group justify="space-between" mb="xs" wrap="nowrap" align="flex-start">
        <PageTitle title={title} intro={intro} />
        <Group gap="xs" wrap="nowrap">
          {bulk?.([...selected], () => setSelected(new Set()))}
          {toolbar}
        </Group>
      </Group>
      <Group gap="xs" my="md" className={classes.filters}>
        {filters.map((name) => filterInputs[name]())}
        <Button leftSection={<IconSearch size={16} />} onClick={search} data-testid="list-search">
          {t('week.list.search')}
        </Button>
        <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={reset}>
          {t('week.list.reset')}
        </Button>
      </Group>
      {error && !data ? (
        <Alert color="red">{t('week.list.failed')}</Alert>
      ) : (
        <div className={classes.tableWrap}>
          <LoadingOverlay visible={loading} overlayProps={{ blur: 1 }} loaderProps={{ size: 'sm' }} />
          {narrow ? (
            <RowCards<R>
              records={records}
              columns={columns.filter((c) => c.key !== 'status')}
              status={statusColumn?.render}
              actions={actions && ((row) => actions(row, reload))}
              select={
                bulk && {
                  has: (id) => selected.has(id),
                  toggle: (id) => mark([id], !selected.has(id)),
                  label: () => t('week.list.selectRow'),
                }
              }
              empty={!loading && t('week.list.empty')}
            />
          ) : (
            <Table striped highlightOnHover verticalSpacing="sm" className={classes.table} data-testid="list-table">
              <Table.Thead>
                <Table.Tr>
                  {bulk && (
                    <Table.Th w={40}>
                      <Checkbox
                        aria-label={t('week.list.selectAll')}
                        checked={allOnPage}
                        indeterminate={!allOnPage && records.some((r) => selected.has(r.id))}
                        onChange={() =>
                          mark(
                            records.map((r) => r.id),
                            !allOnPage,
                          )
                        }
                      />
                    </Table.Th>
                  )}
                  {columns.map((c) => (
                    <Table.Th key={c.key} w={c.width}>
                      {c.label}
                    </Table.Th>
                  ))}
                  {actions && <Table.Th ta="right">{t('week.list.actions')}</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {records.length === 0 && !loading ? (
                  <Table.Tr>
                    <Table.Td colSpan={columns.length + (actions ? 1 : 0) + (bulk ? 1 : 0)}>
                      <Text c="dimmed" ta="center" py="lg" data-testid="list-empty">
                        {t('week.list.empty')}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  records.map((row) => (
                    <Table.Tr key={row.id} data-testid="list-row" data-id={row.id}>
                      {bulk && (
                        <Table.Td>
                          <Checkbox
                            aria-label={t('week.list.selectRow')}
                            checked={selected.has(row.id)}
                            onChange={() => mark([row.id], !selected.has(row.id))}
                            data-testid="list-select"
                          />
                        </Table.Td>
                      )}
                      {columns.map((c) => (
                        <Table.Td key={c.key}>{c.render(row)}</Table.Td>
                      ))}
                      {actions && (
                        <Table.Td>
                          <Group gap={4} justify="flex-end" wrap="nowrap">
                            {actions(row, reload)}
                          </Group>
                        </Table.Td>
                      )}
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          )}
        </div>
      )}
      <Group justify="space-between" mt="md">
        <Text size="sm" c="dimmed" data-testid="list-total">
          {t('week.list.total', { total })}
        </Text>
        <Group gap="sm">
          <Select
            data={PAGE_SIZES.map((s) => ({ value: String(s), label: t('week.list.pageSize', { size: s }) }))}
            value={String(query.size)}
            onChange={(v) => v && setQuery({ current: 1, size: Number(v) })}
            allowDeselect={false}
            w={120}
            size="xs"
            data-testid="list-page-size"
          />
          <Pagination
            total={pages}
            value={query.current}
            onChange={(current) => setQuery((q) => ({ ...q, current }))}
            size="sm"
          />
        </Group>
      </Group>
    </BasicContainer>
  );
}
