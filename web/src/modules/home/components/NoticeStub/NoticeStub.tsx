import { Stack, Text } from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The notices placeholder (spec §2: a notice stub with no content). */
export function NoticeStub() {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap={6} py="lg" data-testid="notice-stub">
      <IconSpeakerphone size={32} stroke={1.4} color="var(--mantine-color-dimmed)" />
      <Text size="sm" c="dimmed">
        {t('home.notices.empty')}
      </Text>
    </Stack>
  );
}
