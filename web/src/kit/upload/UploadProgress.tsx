import { ActionIcon, Button, Group, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { byteText, type UploadProgress as Progressing } from '../../lib/upload';

/**
 * An upload under way: the bar over the whole file, the bytes sent, the part (in parts), a
 * note when it resumed an earlier upload, and a cancel button (none while the server joins
 * the parts). `compact`: one line for a toolbar.
 */
export function UploadProgress({
  progress,
  onCancel,
  compact = false,
  testId = 'upload-progress',
}: {
  progress: Progressing;
  onCancel: () => void;
  compact?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  const percent = Math.floor(progress.share * 100);
  const composing = progress.phase === 'composing';
  const label = composing ? t('upload.composing') : t('upload.sending', { percent });
  if (compact)
    return (
      <Group gap={6} wrap="nowrap" data-testid={testId} data-percent={percent}>
        <Progress value={percent} w={120} animated />
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {composing ? label : `${percent}%`}
        </Text>
        {!composing && (
          <Tooltip label={t('upload.cancel')}>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="sm"
              onClick={onCancel}
              aria-label={t('upload.cancel')}
              data-testid={`${testId}-cancel`}
            >
              <IconX size={14} />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
    );
  return (
    <Stack gap={4} data-testid={testId} data-percent={percent}>
      <Progress value={percent} animated size="lg" />
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm">{label}</Text>
        <Text size="xs" c="dimmed">
          {t('upload.sizes', { sent: byteText(progress.sent), total: byteText(progress.total) })}
          {progress.parts && ` · ${t('upload.parts', { done: progress.parts.done, count: progress.parts.count })}`}
        </Text>
      </Group>
      {progress.parts && progress.parts.resumed > 0 && (
        <Text size="xs" c="teal" data-testid={`${testId}-resumed`}>
          {t('upload.resumed', { resumed: progress.parts.resumed })}
        </Text>
      )}
      {!composing && (
        <Group justify="flex-end">
          <Button
            variant="subtle"
            color="red"
            size="xs"
            leftSection={<IconX size={14} />}
            onClick={onCancel}
            data-testid={`${testId}-cancel`}
          >
            {t('upload.cancel')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
