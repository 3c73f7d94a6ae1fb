import { Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type Icon, IconBuildingCommunity, IconId, IconLock, IconUser } from '@tabler/icons-react';
import { type ChangeEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../lib/http';
import { md5 } from '../../../../lib/md5';
import { registerGuest } from '../../api/account';
import { type RegistrationValues, validateRegistration } from '../../registration';
import type { GuestSession } from '../../session';

/** The fields after the tenant's, in screen order: texts `auth.register.<field>` and `<field>Placeholder`. */
const FIELDS = [
  { field: 'name', FieldIcon: IconId, secret: false },
  { field: 'account', FieldIcon: IconUser, secret: false },
  { field: 'password', FieldIcon: IconLock, secret: true },
  { field: 'password2', FieldIcon: IconLock, secret: true },
] as const;

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
  const bind = (field: keyof RegistrationValues, FieldIcon: Icon) => ({
    leftSection: <FieldIcon size={16} />,
    value: values[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setValues((prev) => ({ ...prev, [field]: value }));
    },
  });

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
            {...bind('tenantId', IconBuildingCommunity)}
            data-testid="register-tenant"
          />
        )}
        {FIELDS.map(({ field, FieldIcon, secret }) => {
          const props = {
            label: t(`auth.register.${field}`),
            placeholder: t(`auth.register.${field}Placeholder`),
            ...bind(field, FieldIcon),
            'data-testid': `register-${field}`,
          };
          return secret ? <PasswordInput key={field} {...props} /> : <TextInput key={field} {...props} />;
        })}
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
