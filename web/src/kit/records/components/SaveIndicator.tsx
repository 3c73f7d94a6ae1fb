import { Group, Loader, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCloudUp, IconPencil } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/date';
import type { SaveStatus } from '../model/autosave';

/** "已保存 HH:mm:ss / 保存中… / 保存失败：原因" beside an editor's actions. */
export function SaveIndicator({
  status,
  missingLabel,
}: {
  status: SaveStatus;
  missingLabel?: (field: string) => string;
}) {
  const { t } = useTranslation();
  let icon = <IconCircleCheck size={16} />;
  let color = 'dimmed';
  let text: string;
  switch (status.kind) {
    case 'idle':
      text = t('records.save.idle');
      break;
    case 'pending':
      icon = <IconPencil size={16} />;
      text = t('records.save.pending');
      break;
    case 'saving':
      icon = <Loader size={14} />;
      text = t('records.save.saving');
      break;
    case 'saved':
      color = 'teal';
      text = t('records.save.saved', { time: formatDate(status.at, 'HH:mm:ss') });
      break;
    case 'incomplete':
      icon = <IconCloudUp size={16} />;
      text = t('records.save.incomplete', {
        fields: status.missing.map((f) => (missingLabel ? missingLabel(f) : f)).join(t('records.save.joiner')),
      });
      break;
    case 'error':
    case 'conflict': {
      icon = <IconAlertTriangle size={16} />;
      color = 'red';
      const firstField = Object.values(status.failure.fields)[0];
      text = t('records.save.failed', { reason: firstField || status.failure.message });
      break;
    }
  }
  return (
    <Tooltip label={text} disabled={text.length < 40} multiline maw={360}>
      <Group gap={6} wrap="nowrap" c={color} data-testid="save-status" data-kind={status.kind} miw={0}>
        {icon}
        <Text size="sm" c={color} truncate maw={420}>
          {text}
        </Text>
      </Group>
    </Tooltip>
  );
}
