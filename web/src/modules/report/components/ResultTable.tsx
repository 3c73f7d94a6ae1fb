import { ScrollArea, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ReportColumn, Row } from '../api';

/** A report's rows under its columns' titles. */
export function ResultTable({ columns, rows }: { columns: ReportColumn[]; rows: Row[] }) {
  const { t } = useTranslation();
  if (!rows.length)
    return (
      <Text c="dimmed" size="sm" data-testid="report-empty">
        {t('report.run.noRows')}
      </Text>
    );
  return (
    <ScrollArea>
      <Table striped withTableBorder data-testid="report-table">
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.key}>{c.label}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a report's rows have no key of their own
            <Table.Tr key={i}>
              {columns.map((c) => (
                <Table.Td key={c.key}>{r[c.key] === null || r[c.key] === undefined ? '' : String(r[c.key])}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
