import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Menu,
  Pagination,
  Select,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconEye, IconFileZip, IconPencil, IconPlus, IconRefresh, IconSearch, IconTrash } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { isEditableStatus } from '@sprout/contracts';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { BasicContainer } from '../../../components/BasicContainer/BasicContainer';
import { usePermission } from '../../../permissions/Can';
import { type FamilyRow, familyApi, familyZipApi, type ListFilters } from '../api';
import { type ColumnDef, detailsHref, type ListOp, listTabs, type RecordFamily } from '../define';
import { useClassOptions, useFieldOptions } from '../lookups';
import { RowCards } from './RowCards';
import { ExportProgressModal } from './ExportProgressModal';
import { PhotoThumb } from './PhotoField';
import { StatusBadge } from './StatusBadge';

/** Spec §9: page sizes 10, 30, 50, 100, 200; default 10. */
export const PAGE_SIZES = [10, 30, 50, 100, 200];

/** A value a column shows of a row: a header field, or `summary.<name>`. */
export function cellValue(row: FamilyRow, field: string): unknown {
  if (field.startsWith('summary.')) return row.summary?.[field.slice('summary.'.length)];
  return (row as unknown as Record<string, unknown>)[field];
}

/**
 * A family's menu page: its lists (mine / to review / approved / excellent / favourites, the
 * ones it has paths for, or `tabs`) as tabs, each searchable and paged, rows opening the
 * family's detail route; "new" opens the editor (one choice per type when the type picks the page).
 */
export function RecordFamilyList({
  family,
  tabs,
  title,
}: {
  family: RecordFamily;
  tabs?: readonly ListOp[];
  title: string;
}) {
  const { t } = useTranslation();
  const ops = listTabs(family, tabs);
  const [tab, setTab] = useState<ListOp>(ops[0] ?? 'mine');
  const mayAdd = usePermission({ code: family.button('add') });
  return (
    <BasicContainer data-testid="record-family-list" data-kind={family.kind}>
      <Group justify="space-between" mb="xs">
        <Title order={3}>{title}</Title>
        {mayAdd && ops.includes('mine') && <NewButton family={family} />}
      </Group>
      <Tabs value={tab} onChange={(v) => v && setTab(v as ListOp)} keepMounted={false}>
        {ops.length > 1 && (
          <Tabs.List mb="sm">
            {ops.map((op) => (
              <Tabs.Tab key={op} value={op} data-testid={`tab-${op}`}>
                {t(`records.tabs.${op}` as never)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        )}
        {ops.map((op) => (
          <Tabs.Panel key={op} value={op}>
            <FamilyTable family={family} op={op} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </BasicContainer>
  );
}

/** "New": straight to the editor, or a menu of the types when each type has its page. */
function NewButton({ family }: { family: RecordFamily }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const name = String(t(family.name as never));
  const typeField = family.routeBy ? family.fields.get(family.routeBy.field) : undefined;
  const types = useFieldOptions(typeField ?? { name: '', kind: 'text', label: '' });
  if (!family.routeBy || !typeField)
    return (
      <Button leftSection={<IconPlus size={16} />} onClick={() => navigate(family.route)} data-testid="list-add">
        {t('records.list.add', { name })}
      </Button>
    );
  const by = family.routeBy;
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <Button leftSection={<IconPlus size={16} />} data-testid="list-add">
          {t('records.list.add', { name })}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {types.map((type) => (
          <Menu.Item
            key={type.value}
            onClick={() => navigate(by.routes[type.value] ?? `${family.route}?${by.field}=${type.value}`)}
            data-testid={`list-add-${type.value}`}
          >
            {type.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

function FamilyTable({ family, op }: { family: RecordFamily; op: ListOp }) {
  const { t } = useTranslation();
  const api = useMemo(() => familyApi(family), [family]);
  const classes = useClassOptions('scope');
  const [form, setForm] = useState<ListFilters>({});
  const [applied, setApplied] = useState<ListFilters>({});
  const [query, setQuery] = useState({ current: 1, size: 10 });
  const narrow = useMediaQuery('(max-width: 48em)');
  const mayEdit = usePermission({ code: family.button('edit') });
  const mayDelete = usePermission({ code: family.button('delete') });
  const zip = useMemo(() => familyZipApi(family), [family]);
  const mayExport = usePermission({ code: family.button('export') }) && zip !== null;
  const [selected, setSelected] = useState<string[]>([]);
  const [exporting, setExporting] = useState<string[] | null>(null);
  const list = useQuery({
    queryKey: ['record-list', family.kind, op, query, applied],
    queryFn: () => api.list(op, query, applied, { notify: false }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const rows = list.data?.records ?? [];
  const total = list.data?.total ?? 0;
  const pageIds = rows.map((row) => row.id);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.includes(id));
  const toggle = (id: string) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));
  const search = () => {
    setApplied(form);
    setQuery((q) => ({ ...q, current: 1 }));
  };
  const set = (name: keyof ListFilters, value: string | null) => setForm((f) => ({ ...f, [name]: value ?? '' }));
  const text = (name: 'keyword' | 'nickName', placeholder: string) => (
    <TextInput
      key={name}
      placeholder={placeholder}
      value={form[name] ?? ''}
      onChange={(e) => set(name, e.currentTarget.value)}
      onKeyDown={(e) => e.key === 'Enter' && search()}
      w={170}
      data-testid={`filter-${name}`}
    />
  );
  const filters: Record<string, () => ReactNode> = {
    keyword: () => text('keyword', t('records.list.titlePlaceholder')),
    nickName: () => text('nickName', t('records.list.nickNamePlaceholder')),
    classId: () => (
      <Select
        key="classId"
        placeholder={t('records.list.allClasses')}
        data={classes}
        value={form.classId || null}
        onChange={(v) => set('classId', v)}
        clearable
        searchable
        w={150}
        data-testid="filter-class"
      />
    ),
    status: () => (
      <Select
        key="status"
        placeholder={t('records.list.allStatuses')}
        data={['draft', 'trial', 'success', 'returned'].map((s) => ({
          value: s,
          label: t(`records.status.${s}` as never),
        }))}
        value={form.status || null}
        onChange={(v) => set('status', v)}
        clearable
        w={130}
        data-testid="filter-status"
      />
    ),
  };
  const remove = (row: FamilyRow) =>
    modals.openConfirmModal({
      title: t('records.list.delete'),
      children: <Text size="sm">{t('records.list.deleteConfirm', { title: row.title })}</Text>,
      labels: { confirm: t('common.confirm'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        void api
          .remove([row.id])
          .then(() => {
            notifications.show({ color: 'teal', message: t('records.list.deleted') });
            return list.refetch();
          })
          .catch(() => undefined),
    });
  const linkColumn = family.columns.find((c) => !c.photo);
  const href = (row: FamilyRow, edit = false) => detailsHref(family, { id: row.id, edit, content: row.summary });
  const rowActions = (row: FamilyRow) => (
    <Group gap={2} justify="flex-end" wrap="nowrap">
      <Tooltip label={t('records.list.view')}>
        <ActionIcon variant="subtle" component={Link} to={href(row)} aria-label={t('records.list.view')}>
          <IconEye size={16} />
        </ActionIcon>
      </Tooltip>
      {op === 'mine' && mayEdit && isEditableStatus(row.status) && (
        <Tooltip label={t('records.list.edit')}>
          <ActionIcon
            variant="subtle"
            component={Link}
            to={href(row, true)}
            aria-label={t('records.list.edit')}
            data-testid="list-edit"
          >
            <IconPencil size={16} />
          </ActionIcon>
        </Tooltip>
      )}
      {op === 'mine' && mayDelete && api.has('remove') && isEditableStatus(row.status) && (
        <Tooltip label={t('records.list.delete')}>
          <ActionIcon
            variant="subtle"
            color="red"
            onClick={() => remove(row)}
            aria-label={t('records.list.delete')}
            data-testid="list-delete"
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
  const titleLink = (row: FamilyRow) => (
    <Anchor component={Link} to={href(row)} fw={600} data-testid="list-open">
      {String(cellValue(row, linkColumn?.field ?? 'title') ?? '') || t('records.list.untitled')}
    </Anchor>
  );
  // A phone shows cards: the link column first, then the others by label.
  const cardColumns = [...(linkColumn ? [linkColumn] : []), ...family.columns.filter((c) => c !== linkColumn)].map(
    (c) => ({
      key: c.field,
      label: t(c.label as never),
      render: (row: FamilyRow) => (c === linkColumn ? titleLink(row) : <Cell family={family} column={c} row={row} />),
    }),
  );

  return (
    <>
      <Group gap="xs" mb="md">
        {family.filters.map((f) => filters[f]?.())}
        <Button leftSection={<IconSearch size={16} />} onClick={search} data-testid="list-search">
          {t('records.list.search')}
        </Button>
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} />}
          onClick={() => {
            setForm({});
            setApplied({});
            setQuery((q) => ({ ...q, current: 1 }));
          }}
        >
          {t('records.list.reset')}
        </Button>
        {mayExport && (
          <Button
            variant="light"
            leftSection={<IconFileZip size={16} />}
            disabled={selected.length === 0}
            onClick={() => setExporting([...selected])}
            data-testid="list-export-zip"
          >
            {selected.length > 0
              ? t('records.list.exportZipCount', { count: selected.length })
              : t('records.list.exportZip')}
          </Button>
        )}
      </Group>
      {list.isError && !list.data ? (
        <Alert color="red">{t('records.list.failed')}</Alert>
      ) : narrow ? (
        <RowCards<FamilyRow>
          records={rows}
          columns={cardColumns}
          status={(row) => <StatusBadge status={row.status} excellent={row.excellent} size="sm" />}
          actions={rowActions}
          select={
            mayExport
              ? {
                  has: (id) => selected.includes(id),
                  toggle,
                  label: (row) => t('records.list.selectRow', { title: row.title }),
                }
              : undefined
          }
          empty={!list.isFetching && t('records.list.empty')}
        />
      ) : (
        <Table striped highlightOnHover verticalSpacing="sm" data-testid="list-table">
          <Table.Thead>
            <Table.Tr>
              {mayExport && (
                <Table.Th w={40}>
                  <Checkbox
                    aria-label={t('records.list.selectAll')}
                    checked={allOnPage}
                    indeterminate={!allOnPage && pageIds.some((id) => selected.includes(id))}
                    onChange={() =>
                      setSelected((s) =>
                        allOnPage ? s.filter((id) => !pageIds.includes(id)) : [...new Set([...s, ...pageIds])],
                      )
                    }
                    data-testid="list-select-all"
                  />
                </Table.Th>
              )}
              {family.columns.map((c) => (
                <Table.Th key={c.field} w={c.width}>
                  {t(c.label as never)}
                </Table.Th>
              ))}
              <Table.Th w={110}>{t('records.fields.status')}</Table.Th>
              <Table.Th ta="right" w={120}>
                {t('records.list.actions')}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 && !list.isFetching ? (
              <Table.Tr>
                <Table.Td colSpan={family.columns.length + (mayExport ? 3 : 2)}>
                  <Text c="dimmed" ta="center" py="lg" data-testid="list-empty">
                    {t('records.list.empty')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              rows.map((row) => (
                <Table.Tr key={row.id} data-testid="list-row" data-id={row.id}>
                  {mayExport && (
                    <Table.Td>
                      <Checkbox
                        aria-label={t('records.list.selectRow', { title: row.title })}
                        checked={selected.includes(row.id)}
                        onChange={() => toggle(row.id)}
                        data-testid="list-select"
                      />
                    </Table.Td>
                  )}
                  {family.columns.map((c) => (
                    <Table.Td key={c.field}>
                      {c === linkColumn ? titleLink(row) : <Cell family={family} column={c} row={row} />}
                    </Table.Td>
                  ))}
                  <Table.Td>
                    <StatusBadge status={row.status} excellent={row.excellent} size="sm" />
                  </Table.Td>
                  <Table.Td>{rowActions(row)}</Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      )}
      <Group justify="space-between" mt="md">
        <Text size="sm" c="dimmed" data-testid="list-total">
          {t('records.list.total', { total })}
        </Text>
        <Group gap="sm">
          <Select
            data={PAGE_SIZES.map((s) => ({ value: String(s), label: t('records.list.pageSize', { size: s }) }))}
            value={String(query.size)}
            onChange={(v) => v && setQuery({ current: 1, size: Number(v) })}
            allowDeselect={false}
            w={120}
            size="xs"
          />
          <Pagination
            total={Math.max(1, Math.ceil(total / query.size))}
            value={query.current}
            onChange={(current) => setQuery((q) => ({ ...q, current }))}
            size="sm"
          />
        </Group>
      </Group>
      {zip && <ExportProgressModal ids={exporting} onClose={() => setExporting(null)} api={zip} />}
    </>
  );
}

function Cell({ family, column, row }: { family: RecordFamily; column: ColumnDef; row: FamilyRow }) {
  const field = column.optionsOf ? family.fields.get(column.optionsOf) : undefined;
  const options = useFieldOptions(field ?? { name: '', kind: 'text', label: '' });
  const value = cellValue(row, column.field);
  if (column.photo) {
    const first = Array.isArray(value) ? value.find((v) => typeof v === 'string' && v) : undefined;
    return first ? (
      <div data-testid="list-photo">
        <PhotoThumb id={String(first)} w={56} h={42} />
      </div>
    ) : (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  }
  const text = Array.isArray(value) ? value.join('、') : String(value ?? '');
  const shown = field ? (options.find((o) => o.value === text)?.label ?? text) : text;
  return (
    <Text size="sm" c={shown ? undefined : 'dimmed'}>
      {shown || '—'}
    </Text>
  );
}
