import { Badge, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { describePath } from '../../../kit/records/model/history';
import { loadRecordLabels } from '../../../kit/records/registry';
import type { FieldChange } from '../api';
import { diffRows } from '../model/replay';
import { Value } from './Value';

const OP_COLORS = { added: 'teal', removed: 'red', changed: 'orange' } as const;

/**
 * A kind's field names in the interface language, as its own context names them (the record's
 * form labels, a week's weekdays); null while they load or for a kind no context names.
 */
function useFieldNames(kind: string | undefined) {
  const { t, i18n } = useTranslation();
  const namer = useQuery({
    queryKey: ['record-labels', kind],
    queryFn: () => (kind ? loadRecordLabels(kind) : null),
    staleTime: Number.POSITIVE_INFINITY,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the names follow the language
  return useMemo(() => {
    const make = namer.data;
    if (!make) return null;
    const labels = make((key, options) => String(t(key as never, options as never)));
    // The record's own fields (status, reviewer, times) by the console's names; its content's by its form's.
    return (path: string) =>
      path.startsWith('content.') || !i18n.exists(`audit.stream.stateFields.${path}`)
        ? describePath(path, labels)
        : String(t(`audit.stream.stateFields.${path}` as never));
  }, [namer.data, t, i18n.resolvedLanguage]);
}

/** Field-level changes side by side: the field (named as its form names it), its value in the first version, in the second. */
export function ChangesTable({
  kind,
  changes,
  before,
  after,
  labels,
}: {
  kind?: string;
  changes: FieldChange[];
  before: unknown;
  after: unknown;
  labels?: [string, string];
}) {
  const { t } = useTranslation();
  const name = useFieldNames(kind);
  const rows = diffRows(changes, before, after);
  // A status by its name in the interface language, as the state above shows it.
  const shown = (path: string, value: unknown) =>
    path === 'status' && typeof value === 'string'
      ? t(`audit.status.${value}` as never, { defaultValue: value })
      : value;
  if (rows.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid="audit-no-changes">
        {t('audit.stream.noChanges')}
      </Text>
    );
  return (
    <Table withTableBorder withColumnBorders fz="sm" data-testid="audit-changes" style={{ tableLayout: 'fixed' }}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="28%">{t('audit.stream.field')}</Table.Th>
          <Table.Th>{labels?.[0] ?? t('audit.stream.from')}</Table.Th>
          <Table.Th>{labels?.[1] ?? t('audit.stream.to')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.path} data-testid="audit-change" data-path={r.path}>
            <Table.Td style={{ wordBreak: 'break-all' }}>
              <Badge size="xs" color={OP_COLORS[r.op]} variant="light" mr={4}>
                {t(`audit.stream.ops.${r.op}`)}
              </Badge>
              {name ? (
                <span title={r.path} data-testid="audit-change-field">
                  {name(r.path)}
                </span>
              ) : (
                r.path
              )}
            </Table.Td>
            <Table.Td>
              <Value value={shown(r.path, r.from)} />
            </Table.Td>
            <Table.Td>
              <Value value={shown(r.path, r.to)} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
