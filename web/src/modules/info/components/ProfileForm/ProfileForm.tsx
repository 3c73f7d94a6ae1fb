import { Button, Group, LoadingOverlay, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDeviceFloppy, IconMail, IconPhone } from '@tabler/icons-react';
import { type ChangeEvent, type FocusEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updateSessionUser } from '../../../auth';
import { fetchOwnUser, type ProfileUpdate, updateProfile } from '../../api/user';
import { validateEmail, validatePhone } from '../../validation';
import { AvatarUpload } from '../AvatarUpload/AvatarUpload';

type Errors = Partial<Record<keyof ProfileUpdate, string>>;

/** 个人信息 tab (spec §2): avatar, name, real name, phone, email. */
export function ProfileForm() {
  const { t } = useTranslation();
  const [values, setValues] = useState<ProfileUpdate>({ avatar: '', name: '', realName: '', phone: '', email: '' });
  const [account, setAccount] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [loading, setLoading] = useState(true);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let alive = true;
    fetchOwnUser()
      .then((response) => {
        const u = response.data;
        if (!alive || !u) return;
        setAccount(u.account);
        setValues({
          avatar: u.avatar ?? '',
          name: u.name ?? '',
          realName: u.realName ?? '',
          phone: u.phone ?? '',
          email: u.email ?? '',
        });
      })
      .catch(() => undefined)
      .finally(() => alive && setLoading(false));
    return () => {
      alive = false;
    };
  }, []);

  const set = (field: keyof ProfileUpdate, value: string) => {
    setValues((prev) => ({ ...prev, [field]: value }));
    setErrors((prev) => ({ ...prev, [field]: undefined }));
  };

  const check = (field: 'phone' | 'email', value = values[field]) => {
    const problem = field === 'phone' ? validatePhone(value) : validateEmail(value);
    setErrors((prev) => ({ ...prev, [field]: problem ? t(problem) : undefined }));
    return problem === null;
  };

  /** An input's value and its typing. */
  const bind = (field: keyof ProfileUpdate) => ({
    value: values[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(field, event.currentTarget.value),
  });
  /** …and its check when it is left, with the check's message. */
  const bindChecked = (field: 'phone' | 'email') => ({
    ...bind(field),
    onBlur: (event: FocusEvent<HTMLInputElement>) => check(field, event.currentTarget.value),
    error: errors[field],
  });

  const save = async () => {
    const phoneOk = check('phone');
    const emailOk = check('email');
    if (!phoneOk || !emailOk) return;
    setSaving(true);
    try {
      const body = {
        ...values,
        name: values.name.trim(),
        realName: values.realName.trim(),
        phone: values.phone.trim(),
        email: values.email.trim(),
      };
      await updateProfile(body);
      updateSessionUser({ avatar: body.avatar, nickName: body.name || account, realName: body.realName });
      notifications.show({ color: 'leaf', message: t('common.updated') });
    } catch {
      /* the client showed the server's message */
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      style={{ position: 'relative' }}
      data-testid="profile-form"
    >
      <LoadingOverlay visible={loading} />
      <Stack gap="md" maw={640}>
        <AvatarUpload value={values.avatar} name={values.name || account} onChange={(link) => set('avatar', link)} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput label={t('info.profile.name')} {...bind('name')} maxLength={64} data-testid="profile-name" />
          <TextInput
            label={t('info.profile.realName')}
            {...bind('realName')}
            maxLength={64}
            data-testid="profile-real-name"
          />
          <TextInput
            label={t('info.profile.phone')}
            withAsterisk
            leftSection={<IconPhone size={16} />}
            inputMode="tel"
            {...bindChecked('phone')}
            data-testid="profile-phone"
          />
          <TextInput
            label={t('info.profile.email')}
            leftSection={<IconMail size={16} />}
            type="email"
            {...bindChecked('email')}
            data-testid="profile-email"
          />
        </SimpleGrid>
        <Group>
          <Button
            type="submit"
            loading={saving}
            leftSection={<IconDeviceFloppy size={16} />}
            data-testid="profile-save"
          >
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
