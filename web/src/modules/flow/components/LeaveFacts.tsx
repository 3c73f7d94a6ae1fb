import { Badge, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ProcessLeave } from '../api';

const STATUS_COLOUR: Record<string, string> = {
  running: 'blue',
  approved: 'green',
  refused: 'red',
  terminated: 'gray',
};

function Fact({ label, value, testId }: { label: string; value: React.ReactNode; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}

/** A leave request's facts: applicant, times, days, approver, reason, state. */
export function LeaveFacts({ leave }: { leave: ProcessLeave }) {
  const { t } = useTranslation();
  return (
    <Paper p="md" withBorder data-testid="leave-facts">
      <Stack gap="sm">
        <Title order={5}>
          {t('flow.leave.detailTitle')}{' '}
          {leave.status && (
            <Badge
              color={STATUS_COLOUR[leave.status] ?? 'gray'}
              variant="light"
              data-testid="leave-status"
              data-status={leave.status}
            >
              {leave.status === 'approved'
                ? t('flow.complete.approved')
                : leave.status === 'refused'
                  ? t('flow.complete.refused')
                  : leave.status === 'terminated'
                    ? t('flow.follow.finished')
                    : t('flow.work.unfinished')}
            </Badge>
          )}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          <Fact label={t('flow.leave.applicant')} value={leave.createUserName ?? ''} testId="leave-applicant" />
          <Fact label={t('flow.leave.applyTime')} value={leave.applyTime ?? ''} />
          <Fact label={t('flow.leave.taskUser')} value={leave.taskUserName ?? leave.taskUser} />
          <Fact label={t('flow.leave.startTime')} value={leave.startTime} />
          <Fact label={t('flow.leave.endTime')} value={leave.endTime} />
          <Fact
            label={t('flow.leave.days')}
            value={leave.days != null ? t('flow.leave.daysValue', { days: leave.days }) : ''}
            testId="leave-days"
          />
        </SimpleGrid>
        <Fact label={t('flow.leave.reason')} value={leave.reason} testId="leave-reason" />
      </Stack>
    </Paper>
  );
}
