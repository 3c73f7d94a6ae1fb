import {
  Alert,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { FLOW_KEY, flowApi, useFlowMutation } from '../api';
import { leaveDays, leaveProblems, serverTime } from '../leave';
import { flowPageOf } from '../paths';

/** `/work/process/leave/form`: a leave request — from, to, reason, the first approver — started as a process. */
export function LeaveFormPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [draft, setDraft] = useState({ startTime: '', endTime: '', reason: '', taskUser: '' });
  const [shown, setShown] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const approvers = useQuery({ queryKey: [...FLOW_KEY, 'approvers'], queryFn: flowApi.approvers });
  const start = useFlowMutation(() =>
    flowApi.startLeave({
      startTime: serverTime(draft.startTime),
      endTime: serverTime(draft.endTime),
      reason: draft.reason.trim(),
      taskUser: draft.taskUser,
    }),
  );
  const problems = leaveProblems(draft);
  const problem = (field: keyof typeof problems) =>
    shown && problems[field] ? t(`flow.leave.${problems[field]}`) : undefined;
  const days = leaveDays(serverTime(draft.startTime), serverTime(draft.endTime));
  const put = (field: keyof typeof draft) => (value: string) => setDraft((d) => ({ ...d, [field]: value }));

  const submit = async () => {
    setShown(true);
    setError(null);
    if (Object.keys(problems).length > 0) return;
    try {
      const answer = await start.mutateAsync(undefined);
      notifications.show({ color: 'green', message: t('flow.leave.submitted') });
      const started = typeof answer === 'object' && answer ? answer : null;
      navigate(
        started?.processInstanceId
          ? flowPageOf('leave', 'detail', { processInstanceId: started.processInstanceId, businessId: started.id })
          : '/work/send/index',
      );
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <Paper p="lg" withBorder maw={880} data-testid="leave-form">
      <Stack gap="md">
        <Title order={4}>{t('flow.leave.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('flow.leave.note')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            type="datetime-local"
            label={t('flow.leave.startTime')}
            value={draft.startTime}
            onChange={(e) => put('startTime')(e.currentTarget.value)}
            error={problem('startTime')}
            withAsterisk
            data-testid="leave-start"
          />
          <TextInput
            type="datetime-local"
            label={t('flow.leave.endTime')}
            value={draft.endTime}
            onChange={(e) => put('endTime')(e.currentTarget.value)}
            error={problem('endTime')}
            withAsterisk
            data-testid="leave-end"
          />
        </SimpleGrid>
        <Text size="sm" data-testid="leave-form-days">
          {t('flow.leave.days')}: {days && days > 0 ? t('flow.leave.daysValue', { days }) : '—'}
        </Text>
        <Select
          label={t('flow.leave.taskUser')}
          description={t('flow.leave.taskUserHint')}
          data={(approvers.data ?? []).map((a) => ({
            value: a.id,
            label: a.roleName ? `${a.name}（${a.roleName}）` : a.name,
          }))}
          value={draft.taskUser || null}
          onChange={(v) => put('taskUser')(v ?? '')}
          searchable
          error={problem('taskUser')}
          withAsterisk
          comboboxProps={{ withinPortal: true }}
          data-testid="leave-taskUser"
        />
        <Textarea
          label={t('flow.leave.reason')}
          value={draft.reason}
          onChange={(e) => put('reason')(e.currentTarget.value)}
          error={problem('reason')}
          autosize
          minRows={3}
          withAsterisk
          data-testid="leave-reason-input"
        />
        {error && (
          <Alert color="red" data-testid="leave-error">
            {error}
          </Alert>
        )}
        <Group>
          <Button onClick={submit} loading={start.isPending} data-testid="leave-submit">
            {t('flow.leave.submit')}
          </Button>
          <Button variant="default" onClick={() => navigate(-1)}>
            {t('flow.common.back')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
