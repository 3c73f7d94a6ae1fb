import { Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { PATHS } from '../../../../app/paths';
import { lockScreen } from '../../../auth';
import { useLockPassword } from '../../hooks/useLockPassword';
import { HeaderIcon } from '../TopBar/HeaderIcon';

/** Lock (spec §2, §4, §5): asks for a lock password (required), then locks and shows /lock. */
export function LockButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const lock = useLockPassword();

  const close = () => {
    setOpened(false);
    lock.clear();
  };

  const submit = () => {
    if (!lock.given()) return;
    lockScreen(lock.password);
    close();
    navigate(PATHS.lock, { replace: true });
  };

  return (
    <>
      <HeaderIcon label={t('layout.lock.label')} onClick={() => setOpened(true)} data-testid="lock-open">
        <IconLock size={20} />
      </HeaderIcon>
      <Modal opened={opened} onClose={close} title={t('layout.lock.title')} centered size="sm">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t('layout.lock.intro')}
            </Text>
            <PasswordInput
              label={t('layout.lock.password')}
              placeholder={t('layout.lock.passwordPlaceholder')}
              withAsterisk
              data-autofocus
              {...lock.input}
              data-testid="lock-password"
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" leftSection={<IconLock size={16} />} data-testid="lock-submit">
                {t('layout.lock.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
