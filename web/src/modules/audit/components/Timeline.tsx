import { Button, Code, Collapse, Group, Loader, Stack, Table, Text, Timeline } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AuditEvent, auditApi } from '../api';
import { ChangesTable } from './ChangesTable';

/** One event's data and what it changed against the state before it (asked when opened). */
function EventDetails({ streamId, kind, event }: { streamId: string; kind: string; event: AuditEvent }) {
  const { t } = useTranslation();
  const diff = useQuery({
    queryKey: ['audit', streamId, 'diff', event.version - 1, event.version],
    queryFn: async () => {
      const [changes, before, after] = await Promise.all([
        auditApi.diff(streamId, event.version - 1, event.version),
        auditApi.state(streamId, { version: event.version - 1 }),
        auditApi.state(streamId, { version: event.version }),
      ]);
      return { changes: changes.changes, before: before.state, after: after.state };
    },
  });
  return (
    <Stack gap="xs" mt="xs" data-testid="audit-event-details">
      <Text size="xs" fw={600}>
        {t('audit.stream.changes')}
      </Text>
      {diff.data ? (
        <ChangesTable kind={kind} changes={diff.data.changes} before={diff.data.before} after={diff.data.after} />
      ) : (
        <Loader size="xs" />
      )}
      <Text size="xs" fw={600}>
        {t('audit.stream.data')}
      </Text>
      <Code block style={{ maxHeight: 240, overflow: 'auto', fontSize: 11 }} data-testid="audit-event-data">
        {JSON.stringify(event.data, null, 2)}
      </Code>
    </Stack>
  );
}

/**
 * A stream's every event, oldest first: who, when, what, from which client and address where
 * known, the comment; each opens to its data and its field diff, and can be the replay's step.
 */
export function StreamTimeline({
  streamId,
  kind,
  events,
  current,
  onPick,
}: {
  streamId: string;
  /** The stream's record kind: its fields are named as its context names them. */
  kind: string;
  events: AuditEvent[];
  current: number;
  onPick: (version: number) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<Record<number, boolean>>({});
  const unknown = t('audit.stream.unknown');
  return (
    <Timeline active={current - 1} bulletSize={20} lineWidth={2} data-testid="audit-timeline">
      {events.map((e) => {
        const comment = (e.data as { comment?: unknown } | null)?.comment;
        return (
          <Timeline.Item
            key={e.version}
            data-testid="audit-event"
            data-version={e.version}
            data-type={e.type}
            data-current={e.version === current ? 'true' : undefined}
            title={
              <Group gap={6}>
                <Text size="sm" fw={e.version === current ? 700 : 600}>
                  {t(`audit.events.${e.type}` as never, { defaultValue: e.type })}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('audit.stream.version', { version: e.version })}
                </Text>
              </Group>
            }
          >
            <Table fz="xs" withRowBorders={false} verticalSpacing={0} horizontalSpacing={4}>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Td c="dimmed" w={64}>
                    {t('audit.stream.who')}
                  </Table.Td>
                  <Table.Td data-testid="audit-event-actor">{e.actorName ?? e.actorId ?? unknown}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td c="dimmed">{t('audit.stream.when')}</Table.Td>
                  <Table.Td>{e.time ?? unknown}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td c="dimmed">{t('audit.stream.address')}</Table.Td>
                  <Table.Td>{e.ip ?? unknown}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td c="dimmed">{t('audit.stream.client')}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{e.userAgent ?? unknown}</Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
            {typeof comment === 'string' && comment && (
              <Text size="sm" mt={4} data-testid="audit-event-comment">
                {t('audit.stream.comment', { comment })}
              </Text>
            )}
            <Group gap={4} mt={4}>
              <Button
                size="compact-xs"
                variant="subtle"
                onClick={() => setOpen((o) => ({ ...o, [e.version]: !o[e.version] }))}
                data-testid="audit-event-expand"
              >
                {open[e.version] ? t('audit.stream.collapse') : t('audit.stream.expand')}
              </Button>
              <Button
                size="compact-xs"
                variant="subtle"
                onClick={() => onPick(e.version)}
                data-testid="audit-event-pick"
              >
                {t('audit.stream.showHere')}
              </Button>
            </Group>
            <Collapse expanded={Boolean(open[e.version])}>
              {open[e.version] && <EventDetails streamId={streamId} kind={kind} event={e} />}
            </Collapse>
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}
