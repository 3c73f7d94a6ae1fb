import { Badge, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { richPlainText } from '../../../kit/crud/richText';
import type { ReaderNotice } from '../api';
import { bellListClasses } from '../../../components/HeaderBell/HeaderBell';
import classes from './NoticeList.module.css';

/** Notices as rows a reader clicks to open: unread ones marked, each with its release time and first words. */
export function NoticeList({
  notices,
  empty,
  onOpen,
  testId,
}: {
  notices: ReaderNotice[];
  empty: string;
  onOpen: (n: ReaderNotice) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  if (!notices.length)
    return (
      <Stack align="center" gap={6} py="lg" data-testid={`${testId}-empty`}>
        <IconSpeakerphone size={32} stroke={1.4} color="var(--mantine-color-dimmed)" />
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      </Stack>
    );
  return (
    <Stack gap={2} data-testid={testId}>
      {notices.map((n) => (
        <UnstyledButton key={n.id} className={bellListClasses.row} onClick={() => onOpen(n)} data-testid="notice-item">
          <Group gap={6} wrap="nowrap" justify="space-between">
            <Text size="sm" fw={n.read ? 400 : 600} truncate className={classes.title} data-testid="notice-item-title">
              {n.title}
            </Text>
            {!n.read && (
              <Badge size="xs" color="red" variant="light" tt="none" style={{ flexShrink: 0 }}>
                {t('notice.reader.unread')}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed" truncate>
            {[n.categoryName, n.releaseTime].filter(Boolean).join(' · ')}
            {richPlainText(n.content) ? ` — ${richPlainText(n.content)}` : ''}
          </Text>
        </UnstyledButton>
      ))}
    </Stack>
  );
}
