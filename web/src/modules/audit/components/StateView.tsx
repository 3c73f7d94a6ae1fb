import { Alert, Badge, Center, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { BasicContainer } from '../../../components/BasicContainer/BasicContainer';
import { WeekSheet } from '../../week';
import type { AuditRow } from '../api';
import { Value } from './Value';

interface RecordState {
  exists?: boolean;
  status?: string;
  authorName?: string;
  semester?: string | null;
  content?: unknown;
  reviewerName?: string | null;
  reviewComment?: string | null;
  reviewTime?: string | null;
}

const COLORS: Record<string, string> = {
  draft: 'gray',
  trial: 'orange',
  success: 'teal',
  returned: 'red',
  deleted: 'dark',
};

/** Top-level fields of a state that is not a teaching record, one row each. */
function Fields({ state }: { state: unknown }) {
  const { t } = useTranslation();
  const entries = state && typeof state === 'object' ? Object.entries(state as Record<string, unknown>) : [];
  return (
    <Table withTableBorder withColumnBorders data-testid="audit-state-fields">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={180}>{t('audit.stream.state')}</Table.Th>
          <Table.Th>{t('audit.stream.value')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Td>{k}</Table.Td>
            <Table.Td>
              <Value value={v} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * A stream's state as of a version, read only: a week in the layout of its own details page
 * (its printed plan), another record as its fields; its status and review above.
 */
export function StateView({ streamType, state, facts }: { streamType: string; state: unknown; facts?: AuditRow }) {
  const { t } = useTranslation();
  const s = (state ?? {}) as RecordState;
  const isRecord = typeof s.status === 'string' && 'content' in s;
  if (isRecord && (s.exists === false || s.content === null))
    return <Alert color="gray">{t('audit.stream.asOfNone')}</Alert>;
  return (
    <Stack gap="md" data-testid="audit-state" data-status={s.status ?? ''}>
      {isRecord && (
        <BasicContainer>
          <Group gap="sm">
            <Badge
              color={COLORS[s.status ?? ''] ?? 'gray'}
              variant="light"
              tt="none"
              size="lg"
              data-testid="audit-state-status"
            >
              {t(`audit.status.${s.status}` as never, { defaultValue: s.status })}
            </Badge>
            {s.reviewerName && (
              <Text size="sm" c="dimmed">
                {s.reviewerName} · {s.reviewTime}
              </Text>
            )}
          </Group>
          {s.reviewComment && (
            <Text size="sm" mt="xs" data-testid="audit-state-comment">
              {t('audit.stream.comment', { comment: s.reviewComment })}
            </Text>
          )}
        </BasicContainer>
      )}
      {isRecord && streamType === 'week' ? (
        <Suspense
          fallback={
            <Center mih={200}>
              <Loader />
            </Center>
          }
        >
          <WeekSheet
            week={{ className: facts?.className ?? '', semester: s.semester, authorName: s.authorName ?? '' }}
            content={s.content}
          />
        </Suspense>
      ) : (
        <BasicContainer>
          <Fields state={isRecord ? { ...(s.content as object) } : state} />
        </BasicContainer>
      )}
    </Stack>
  );
}
