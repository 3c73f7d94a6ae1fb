import { Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { flowApi, useFlowMutation } from '../api';

/** A task's decision: approve (`flag: ok`) or refuse with a comment (a refusal needs one). */
export function CompleteForm({
  taskId,
  processInstanceId,
  onDone,
}: {
  taskId: string;
  processInstanceId: string;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const complete = useFlowMutation((flag: 'ok' | 'refuse') =>
    flowApi.complete({ taskId, processInstanceId, flag, comment: comment.trim() }),
  );
  const run = async (flag: 'ok' | 'refuse') => {
    setError(null);
    if (flag === 'refuse' && comment.trim() === '') {
      setError(t('flow.complete.commentRequired'));
      return;
    }
    try {
      await complete.mutateAsync(flag);
      notifications.show({
        color: 'green',
        message: flag === 'ok' ? t('flow.complete.approved') : t('flow.complete.refused'),
      });
      onDone();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <Paper p="md" withBorder data-testid="complete-form">
      <Stack gap="sm">
        <Title order={5}>{t('flow.complete.title')}</Title>
        <Textarea
          label={t('flow.complete.comment')}
          value={comment}
          onChange={(e) => setComment(e.currentTarget.value)}
          autosize
          minRows={3}
          data-testid="complete-comment"
        />
        {error && (
          <Text c="red" size="sm" data-testid="complete-error">
            {error}
          </Text>
        )}
        <Group>
          <Button
            color="green"
            leftSection={<IconCheck size={16} />}
            loading={complete.isPending}
            onClick={() => run('ok')}
            data-testid="complete-approve"
          >
            {t('flow.complete.approve')}
          </Button>
          <Button
            color="red"
            variant="light"
            leftSection={<IconX size={16} />}
            loading={complete.isPending}
            onClick={() => run('refuse')}
            data-testid="complete-refuse"
          >
            {t('flow.complete.refuse')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
