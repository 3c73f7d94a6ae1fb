import { Button, Group, LoadingOverlay, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CrudRecord, crudKeys } from '../../../kit/crud';
import { USER_TYPES } from '../screens/users';
import { usersApi } from './api';

/**
 * 平台配置: a user's platform type and extension (`platform-detail?id=`, saved with
 * `update-platform` userId, userType, userExt).
 */
export function PlatformDialog({ row, onClose }: { row: CrudRecord | null; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const id = row ? String(row.id) : null;
  const detail = useQuery({
    queryKey: ['crud', '/blade-user', 'platform', id],
    queryFn: () => usersApi.platformDetail(id as string),
    enabled: id !== null,
    gcTime: 0,
  });
  const [userType, setUserType] = useState<string | null>('1');
  const [userExt, setUserExt] = useState('');
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!detail.data) return;
    setUserType(String(detail.data.userType));
    setUserExt(detail.data.userExt);
  }, [detail.data]);
  const save = async () => {
    if (!id || !userType) return;
    setSaving(true);
    try {
      await usersApi.updatePlatform(id, Number(userType), userExt.trim());
      // The list shows the platform.
      void client.invalidateQueries({ queryKey: crudKeys.all('/blade-user') });
      notifications.show({ color: 'teal', message: t('system.user.platform.done') });
      onClose();
    } catch {
      /* the client showed the server's message */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      opened={row !== null}
      onClose={onClose}
      title={t('system.user.platform.title')}
      size="lg"
      centered
      data-testid="user-platform-dialog"
    >
      <Stack pos="relative">
        <LoadingOverlay visible={detail.isPending} />
        <TextInput label={t('system.user.account')} value={detail.data?.account ?? ''} readOnly variant="filled" />
        <Select
          label={t('system.user.userType')}
          withAsterisk
          data={USER_TYPES.map((o) => ({ value: String(o.value), label: t(o.label as never) }))}
          value={userType}
          onChange={setUserType}
          allowDeselect={false}
          data-testid="user-platform-type"
        />
        <Textarea
          label={t('system.user.platform.userExt')}
          description={t('system.user.platform.userExtHint')}
          autosize
          minRows={3}
          maxLength={2000}
          value={userExt}
          onChange={(e) => setUserExt(e.currentTarget.value)}
          data-testid="user-platform-ext"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('system.user.cancel')}
          </Button>
          <Button onClick={save} loading={saving} disabled={detail.isPending} data-testid="user-platform-save">
            {t('system.user.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
