import { Alert, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconExternalLink, IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../../lib/http';

interface QueueDepth {
  mode: 'bullmq' | 'memory';
  /** The board's address where there is one and the caller may open it. */
  board: string | null;
  queues: Array<{ name: string; waiting: number; active: number; delayed: number; failed: number }>;
}

const COLUMNS = ['waiting', 'active', 'delayed', 'failed'] as const;

/**
 * 任务队列 (menu `monitor_queues`, `/monitor/log/queues`): each job queue's depth and, in server
 * mode, the queue board (bull-board) in a new tab for the platform administrator; the browser
 * opens it with the web app's access cookie.
 */
export function QueuesPage() {
  const { t } = useTranslation();
  const depth = useQuery({ queryKey: ['queue-depth'], queryFn: () => http.get<QueueDepth>('/admin/queue-depth') });
  const d = depth.data?.data;
  // Keyed by the queue's name with its dots as dashes (`records.export` → `records-export`): keys hold no dots.
  const names = t('log.queues.names', { returnObjects: true }) as Record<string, string>;
  // A phone shows a card per queue (its name, then its four counts), not a table to scroll sideways.
  const narrow = useMediaQuery('(max-width: 48em)');
  const nameOf = (q: QueueDepth['queues'][number]) => (
    <>
      <Text size="sm">{names[q.name.replaceAll('.', '-')] ?? q.name}</Text>
      <Text size="xs" c="dimmed" ff="monospace">
        {q.name}
      </Text>
    </>
  );
  const failing = (q: QueueDepth['queues'][number], c: (typeof COLUMNS)[number]) =>
    c === 'failed' && q[c] > 0 ? 'red' : undefined;
  return (
    <Stack gap="md" data-testid="queues-page">
      <Group justify="space-between" wrap="wrap">
        <Title order={4}>{t('log.queues.title')}</Title>
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            onClick={() => depth.refetch()}
            loading={depth.isFetching}
            data-testid="queues-refresh"
          >
            {t('log.queues.refresh')}
          </Button>
          {d?.board ? (
            <Button
              component="a"
              href={d.board}
              target="_blank"
              rel="noopener"
              leftSection={<IconExternalLink size={16} />}
              data-testid="queues-open-board"
            >
              {t('log.queues.openBoard')}
            </Button>
          ) : null}
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        {t('log.queues.intro')}
      </Text>
      {d?.mode === 'memory' ? (
        <Alert variant="light" data-testid="queues-embedded">
          {t('log.queues.embedded')}
        </Alert>
      ) : null}
      {d?.mode === 'bullmq' ? (
        <Text size="sm" c="dimmed">
          {d.board ? t('log.queues.boardHint') : t('log.queues.noBoard')}
        </Text>
      ) : null}
      {d && narrow ? (
        <Stack gap="xs" data-testid="queues-cards">
          {d.queues.map((q) => (
            <Paper key={q.name} withBorder p="sm" data-testid={`queue-${q.name}`}>
              {nameOf(q)}
              <SimpleGrid cols={4} spacing={4} mt="xs">
                {COLUMNS.map((c) => (
                  <div key={c}>
                    <Text size="xs" c="dimmed">
                      {t(`log.queues.${c}`)}
                    </Text>
                    <Text size="sm" fw={500} c={failing(q, c)}>
                      {q[c]}
                    </Text>
                  </div>
                ))}
              </SimpleGrid>
            </Paper>
          ))}
        </Stack>
      ) : d ? (
        <Table.ScrollContainer minWidth={420}>
          <Table striped withTableBorder data-testid="queues-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('log.queues.queue')}</Table.Th>
                {COLUMNS.map((c) => (
                  <Table.Th key={c} ta="right">
                    {t(`log.queues.${c}`)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {d.queues.map((q) => (
                <Table.Tr key={q.name} data-testid={`queue-${q.name}`}>
                  <Table.Td>{nameOf(q)}</Table.Td>
                  {COLUMNS.map((c) => (
                    <Table.Td key={c} ta="right" c={failing(q, c)}>
                      {q[c]}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </Stack>
  );
}
