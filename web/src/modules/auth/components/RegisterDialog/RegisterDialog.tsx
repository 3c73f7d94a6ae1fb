import { Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBuildingCommunity, IconId, IconLock, IconUser } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../lib/http';
import { md5 } from '../../../../lib/md5';
import { registerGuest } from '../../api/account';
import { type RegistrationValues, validateRegistration } from '../../registration';
import type { GuestSession } from '../../session';

interface RegisterDialogProps {
  guest: GuestSession;
  /** The tenant field is shown only when the domain does not tell the tenant (spec §2). */
  showTenant: boolean;
  /** Submitted: the caller shows the alert and logs out. */
  onRegistered(message: string): void;
  /** Closed without registering. */
  onCancel(): void;
}

/**
 * 账号注册 (spec §2): a social-login user with no local account asks for one. Checked in
 * the spec's order (§5), each failure a warning and no call; the server's msg or 提交失败
 * on refusal; a network failure only stops the loading state (§8).
 */
export function RegisterDialog({ guest, showTenant, onRegistered, onCancel }: RegisterDialogProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<RegistrationValues>({
    tenantId: guest.tenantId,
    name: guest.userName,
    account: guest.userName,
    password: '',
    password2: '',
  });
  const [loading, setLoading] = useState(false);
  const set = (field: keyof RegistrationValues) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value;
    setValues((prev) => ({ ...prev, [field]: value }));
  };

  const submit = async () => {
    const problem = validateRegistration(values);
    if (problem) {
      notifications.show({ color: 'yellow', title: t('common.warning'), message: t(problem) });
      return;
    }
    setLoading(true);
    try {
      const response = await registerGuest({
        tenantId: values.tenantId.trim(),
        name: values.name.trim(),
        account: values.account.trim(),
        // The account signs in later through the password form, which sends md5 (user mode).
        password: md5(values.password),
        oauthId: guest.oauthId,
      });
      onRegistered(typeof response.msg === 'string' && response.msg ? response.msg : t('auth.register.submitted'));
    } catch (error) {
      if (error instanceof ApiError && !error.silent) {
        notifications.show({ color: 'red', message: error.message || t('auth.register.failed') });
      } else if (error instanceof ApiError) {
        notifications.show({ color: 'red', message: t('auth.register.failed') });
      }
      // A transport failure only stops the loading state (spec §8).
    } finally {
      setLoading(false);
    }
  };

  return (
    <Modal
      opened
      onClose={onCancel}
      title={t('auth.register.title')}
      centered
      size="md"
      closeOnClickOutside={false}
      data-testid="register-dialog"
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('auth.register.intro')}
        </Text>
        {showTenant && (
          <TextInput
            label={t('auth.register.tenant')}
            placeholder={t('auth.login.tenant.placeholder')}
            leftSection={<IconBuildingCommunity size={16} />}
            value={values.tenantId}
            onChange={set('tenantId')}
            data-testid="register-tenant"
          />
        )}
        <TextInput
          label={t('auth.register.name')}
          placeholder={t('auth.register.namePlaceholder')}
          leftSection={<IconId size={16} />}
          value={values.name}
          onChange={set('name')}
          data-testid="register-name"
        />
        <TextInput
          label={t('auth.register.account')}
          placeholder={t('auth.register.accountPlaceholder')}
          leftSection={<IconUser size={16} />}
          value={values.account}
          onChange={set('account')}
          data-testid="register-account"
        />
        <PasswordInput
          label={t('auth.register.password')}
          placeholder={t('auth.register.passwordPlaceholder')}
          leftSection={<IconLock size={16} />}
          value={values.password}
          onChange={set('password')}
          data-testid="register-password"
        />
        <PasswordInput
          label={t('auth.register.password2')}
          placeholder={t('auth.register.password2Placeholder')}
          leftSection={<IconLock size={16} />}
          value={values.password2}
          onChange={set('password2')}
          data-testid="register-password2"
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button loading={loading} onClick={() => void submit()} data-testid="register-submit">
            {t('auth.register.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
