import { Checkbox, Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One column of a list as a phone's card shows it: its label and the cell it draws. */
export interface CardColumn<R> {
  key: string;
  label: string;
  render: (row: R) => ReactNode;
}

/**
 * A phone's rows (any record list under 48em): a card each — the first column (the title, a
 * link) with the status beside it, the other columns as "label value" lines, the row's actions
 * under them: nothing scrolls out of sight sideways. Same test ids as a table's rows.
 */
export function RowCards<R extends { id: string }>({
  records,
  columns,
  status,
  actions,
  select,
  empty,
  rowTestId = 'list-row',
}: {
  records: readonly R[];
  /** The first is the card's heading. */
  columns: readonly CardColumn<R>[];
  status?: (row: R) => ReactNode;
  actions?: (row: R) => ReactNode;
  select?: { has: (id: string) => boolean; toggle: (id: string) => void; label: (row: R) => string };
  /** The text of an empty list; false while it loads (or when the caller shows its own). */
  empty: string | false;
  /** The cards' test id (a table's rows may name theirs otherwise). */
  rowTestId?: string;
}) {
  if (records.length === 0)
    return empty ? (
      <Text c="dimmed" ta="center" py="lg" data-testid="list-empty">
        {empty}
      </Text>
    ) : null;
  const [first, ...others] = columns;
  return (
    <Stack gap="xs" data-testid="list-cards">
      {records.map((row) => (
        <Paper key={row.id} withBorder p="sm" radius="md" data-testid={rowTestId} data-id={row.id}>
          <Group gap="xs" wrap="nowrap" align="flex-start" justify="space-between">
            <Group gap="xs" wrap="nowrap" align="flex-start" style={{ minWidth: 0, flex: 1 }}>
              {select && (
                <Checkbox
                  aria-label={select.label(row)}
                  checked={select.has(row.id)}
                  onChange={() => select.toggle(row.id)}
                  data-testid="list-select"
                />
              )}
              <div style={{ minWidth: 0 }}>{first?.render(row)}</div>
            </Group>
            {status && <div data-testid="list-row-status">{status(row)}</div>}
          </Group>
          <Stack gap={2} mt={6}>
            {others.map((c) => (
              <Group key={c.key} gap={6} wrap="nowrap" align="baseline">
                <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                  {c.label}
                </Text>
                <div style={{ minWidth: 0, fontSize: 'var(--mantine-font-size-sm)' }}>{c.render(row)}</div>
              </Group>
            ))}
          </Stack>
          {actions && (
            <Group gap={4} mt={6} justify="flex-end" data-testid="list-row-actions">
              {actions(row)}
            </Group>
          )}
        </Paper>
      ))}
    </Stack>
  );
}
