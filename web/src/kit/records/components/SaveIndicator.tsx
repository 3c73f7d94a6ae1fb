import { Group, Loader, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCloudUp, IconPencil } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/date';
import type { SaveStatus } from '../model/autosave';

/**
 * "已保存 HH:mm:ss / 保存中… / 保存失败：原因" beside an editor's actions. `texts`: the keys'
 * prefix (`records.save`; the week's editors keep their wording, `week.save`).
 */
export function SaveIndicator({
  status,
  missingLabel,
  texts = 'records.save',
}: {
  status: SaveStatus;
  missingLabel?: (field: string) => string;
  texts?: 'records.save' | 'week.save';
}) {
  const { t } = useTranslation();
  const k = (name: string, values?: Record<string, unknown>) => String(t(`${texts}.${name}` as never, values as never));
  let icon = <IconCircleCheck size={16} />;
  let color = 'dimmed';
  let text: string;
  switch (status.kind) {
    case 'idle':
      text = k('idle');
      break;
    case 'pending':
      icon = <IconPencil size={16} />;
      text = k('pending');
      break;
    case 'saving':
      icon = <Loader size={14} />;
      text = k('saving');
      break;
    case 'saved':
      color = 'teal';
      text = k('saved', { time: formatDate(status.at, 'HH:mm:ss') });
      break;
    case 'incomplete':
      icon = <IconCloudUp size={16} />;
      text = k('incomplete', {
        fields: status.missing
          .map((f) => (missingLabel ? missingLabel(f) : f))
          .join(t('records.save.joiner', { defaultValue: '、' })),
      });
      break;
    case 'error':
    case 'conflict': {
      icon = <IconAlertTriangle size={16} />;
      color = 'red';
      const firstField = Object.values(status.failure.fields)[0];
      text = k('failed', { reason: firstField || status.failure.message });
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
