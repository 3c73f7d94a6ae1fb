import { Badge, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FieldChange } from '../api';
import { diffRows } from '../model/replay';
import { Value } from './Value';

const OP_COLORS = { added: 'teal', removed: 'red', changed: 'orange' } as const;

/** Field-level changes side by side: the field, its value in the first version, in the second. */
export function ChangesTable({
  changes,
  before,
  after,
  labels,
}: {
  changes: FieldChange[];
  before: unknown;
  after: unknown;
  labels?: [string, string];
}) {
  const { t } = useTranslation();
  const rows = diffRows(changes, before, after);
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
                {r.op}
              </Badge>
              {r.path}
            </Table.Td>
            <Table.Td>
              <Value value={r.from} />
            </Table.Td>
            <Table.Td>
              <Value value={r.to} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
