import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { logout } from '../../../../app/sessionActions';

/** Spec §4: after two hours without a click, ask the user to save their work and sign in again. */
export function InactivityNotice() {
  const { t } = useTranslation();
  return (
    <div data-testid="inactivity-message">
      <Text size="sm">{t('auth.inactivity.text')}</Text>
      <Group justify="flex-end" mt="xs">
        <Button
          size="xs"
          variant="light"
          color="red"
          onClick={() => {
            notifications.hide('inactivity');
            void logout();
          }}
        >
          {t('auth.inactivity.relogin')}
        </Button>
      </Group>
    </div>
  );
}
