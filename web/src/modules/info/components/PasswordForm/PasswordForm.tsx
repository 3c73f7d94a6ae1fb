import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updatePassword } from '../../api/user';
import { type PasswordProblems, type PasswordValues, validatePasswords } from '../../validation';

const EMPTY: PasswordValues = { oldPassword: '', newPassword: '', newPassword1: '' };

/** 修改密码 tab (spec §2): old password, new password twice. */
export function PasswordForm() {
  const { t } = useTranslation();
  const [values, setValues] = useState<PasswordValues>(EMPTY);
  const [errors, setErrors] = useState<PasswordProblems>({});
  const [saving, setSaving] = useState(false);

  const set = (field: keyof PasswordValues) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value;
    setValues((prev) => ({ ...prev, [field]: value }));
    setErrors((prev) => ({ ...prev, [field]: undefined }));
  };

  const save = async () => {
    const problems = validatePasswords(values);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setSaving(true);
    try {
      await updatePassword(values);
      setValues(EMPTY);
      notifications.show({ color: 'leaf', message: t('info.password.changed') });
    } catch {
      /* the client showed the server's message (e.g. 原密码不正确) */
    } finally {
      setSaving(false);
    }
  };

  const error = (field: keyof PasswordValues) => {
    const key = errors[field];
    return key ? t(key) : undefined;
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      data-testid="password-form"
    >
      <Stack gap="md" maw={420}>
        <PasswordInput
          label={t('info.password.old')}
          withAsterisk
          autoComplete="current-password"
          value={values.oldPassword}
          onChange={set('oldPassword')}
          error={error('oldPassword')}
          data-testid="password-old"
        />
        <PasswordInput
          label={t('info.password.new')}
          withAsterisk
          autoComplete="new-password"
          value={values.newPassword}
          onChange={set('newPassword')}
          error={error('newPassword')}
          data-testid="password-new"
        />
        <PasswordInput
          label={t('info.password.confirm')}
          withAsterisk
          autoComplete="new-password"
          value={values.newPassword1}
          onChange={set('newPassword1')}
          error={error('newPassword1')}
          data-testid="password-confirm"
        />
        <Group>
          <Button type="submit" loading={saving} leftSection={<IconKey size={16} />} data-testid="password-save">
            {t('info.password.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
