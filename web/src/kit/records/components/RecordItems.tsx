import { ActionIcon, Button, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { isEditableStatus } from '@sprout/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getStore } from '../../../lib/storage';
import { usePermission } from '../../../permissions/Can';
import { type FamilyRecord, type FamilyRow, familyApi } from '../api';
import { emptyContent, type RecordFamily, toContent, validateValues } from '../define';
import { FieldInput } from './FieldInput';

type Editing = { id?: string; version?: number; values: Record<string, unknown> };

/**
 * The records living in a parent record (its family's `items`: a half-day visit's segments), as
 * a table under it. While the parent is written (a draft, or returned) its authors add, change
 * and delete them in a dialog of the item family's form; the server checks the same.
 */
export function RecordItems({ family, parent }: { family: RecordFamily; parent: FamilyRecord }) {
  const { t } = useTranslation();
  const def = family.items;
  const itemFamily = def?.family as RecordFamily;
  const api = useMemo(() => familyApi(itemFamily), [itemFamily]);
  const client = useQueryClient();
  const key = ['record-items', itemFamily?.kind, parent.id];
  const items = useQuery({ queryKey: key, queryFn: () => api.items(parent.id), enabled: Boolean(def) });
  const [editing, setEditing] = useState<Editing | null>(null);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const canAdd = usePermission({ code: itemFamily?.button('add') ?? '' });
  const me = getStore<{ userId?: string }>('user-info')?.userId ?? '';
  const wrote = parent.authorId === me || parent.coAuthorIds.includes(me);
  const editable = !def?.readOnly && canAdd && wrote && isEditableStatus(parent.status);
  if (!def) return null;

  const sortField = def.sortField;
  const rows = [...(items.data ?? [])].sort(
    (a, b) => Number(a.summary?.[sortField ?? ''] ?? 0) - Number(b.summary?.[sortField ?? ''] ?? 0),
  );
  const fields = itemFamily.form.flatMap((s) => s.fields).filter((f) => f.name !== def.parentField);
  const refresh = () => client.invalidateQueries({ queryKey: key });
  const open = (row?: FamilyRow) =>
    setEditing(
      row
        ? { id: row.id, version: row.version, values: { ...emptyContent(itemFamily), ...row.summary } }
        : { values: { ...emptyContent(itemFamily), ...(sortField ? { [sortField]: String(rows.length) } : {}) } },
    );
  const save = async () => {
    if (!editing) return;
    const found = validateValues(itemFamily, editing.values);
    setProblems(
      Object.fromEntries(
        Object.entries(found).map(([name, p]) => [
          name,
          String(t(p.key as never, { ...p.values, label: t(String(p.values?.label) as never) })),
        ]),
      ),
    );
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const content = { ...toContent(itemFamily, editing.values), [def.parentField]: parent.id };
      if (sortField) content[sortField] = Number(editing.values[sortField] ?? 0) || 0;
      await api.save(content, editing.id, editing.version);
      notifications.show({ color: 'teal', message: t('records.items.saved') });
      setEditing(null);
      await refresh();
    } catch {
      /* the client showed the message; the dialog stays */
    } finally {
      setBusy(false);
    }
  };
  const remove = (row: FamilyRow) =>
    modals.openConfirmModal({
      title: t('records.items.remove'),
      children: <Text size="sm">{t('records.items.removeConfirm')}</Text>,
      labels: { confirm: t('common.confirm'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        try {
          await api.remove([row.id]);
          notifications.show({ color: 'teal', message: t('records.items.removed') });
          await refresh();
        } catch {
          /* shown */
        }
      },
    });
  const label = (name: string) => String(t((itemFamily.fields.get(name)?.label ?? `records.fields.${name}`) as never));

  return (
    <Stack gap="sm" mt="lg" data-testid="record-items">
      <Group justify="space-between">
        <Title order={5}>{t(def.title as never)}</Title>
        {editable && (
          <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => open()} data-testid="item-add">
            {t('records.items.add')}
          </Button>
        )}
      </Group>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('records.items.empty')}
        </Text>
      ) : (
        <Table withTableBorder withColumnBorders>
          <Table.Thead>
            <Table.Tr>
              {def.columns.map((c) => (
                <Table.Th key={c}>{label(c)}</Table.Th>
              ))}
              {editable && <Table.Th w={90} />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.id} data-testid="item-row">
                {def.columns.map((c) => (
                  <Table.Td key={c} style={{ whiteSpace: 'pre-wrap' }}>
                    {String(row.summary?.[c] ?? (row as unknown as Record<string, unknown>)[c] ?? '')}
                  </Table.Td>
                ))}
                {editable && (
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <ActionIcon
                        variant="subtle"
                        aria-label={String(t('records.items.edit'))}
                        onClick={() => open(row)}
                      >
                        <IconPencil size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={String(t('records.items.remove'))}
                        onClick={() => remove(row)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={t(def.title as never)} size="lg">
        {editing && (
          <Stack>
            {fields.map((field) => (
              <FieldInput
                key={field.name}
                family={itemFamily}
                field={field}
                values={editing.values}
                error={problems[field.name]}
                onChange={(name, value) => setEditing({ ...editing, values: { ...editing.values, [name]: value } })}
              />
            ))}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setEditing(null)}>
                {t('records.items.cancel')}
              </Button>
              <Button loading={busy} onClick={() => void save()} data-testid="item-save">
                {t('records.items.save')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
