import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updatePassword } from '../../api/user';
import { type PasswordProblems, type PasswordValues, validatePasswords } from '../../validation';

const EMPTY: PasswordValues = { oldPassword: '', newPassword: '', newPassword1: '' };

const FIELDS = [
  { field: 'oldPassword', label: 'info.password.old', autoComplete: 'current-password', testId: 'password-old' },
  { field: 'newPassword', label: 'info.password.new', autoComplete: 'new-password', testId: 'password-new' },
  { field: 'newPassword1', label: 'info.password.confirm', autoComplete: 'new-password', testId: 'password-confirm' },
] as const;

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
        {FIELDS.map(({ field, label, autoComplete, testId }) => (
          <PasswordInput
            key={field}
            label={t(label)}
            withAsterisk
            autoComplete={autoComplete}
            value={values[field]}
            onChange={set(field)}
            error={error(field)}
            data-testid={testId}
          />
        ))}
        <Group>
          <Button type="submit" loading={saving} leftSection={<IconKey size={16} />} data-testid="password-save">
            {t('info.password.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
