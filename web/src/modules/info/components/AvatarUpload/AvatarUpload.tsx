import { Avatar, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../lib/http';
import { uploadFile } from '../../api/user';
import { checkAvatar } from '../../validation';
import classes from './AvatarUpload.module.css';

interface AvatarUploadProps {
  value: string;
  name: string;
  onChange(link: string): void;
}

/** Avatar picture (spec §2): jpg/png, at most 500 kb, sent to the upload endpoint; its `data.link` becomes the avatar. */
export function AvatarUpload({ value, name, onChange }: AvatarUploadProps) {
  const { t } = useTranslation();
  const [uploading, setUploading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const pick = async (file: File | null) => {
    if (!file) return;
    const found = checkAvatar(file);
    if (found) {
      setProblem(t(found));
      notifications.show({ color: 'red', message: t(found) });
      return;
    }
    setProblem(null);
    setUploading(true);
    try {
      onChange(await uploadFile(file));
      notifications.show({ color: 'leaf', message: t('info.avatar.uploaded') });
    } catch (error) {
      // The client already showed the server's message for an API failure.
      if (!(error instanceof ApiError)) setProblem(t('info.avatar.failed'));
    } finally {
      setUploading(false);
    }
  };

  return (
    <Group gap="lg" align="center" className={classes.root}>
      <Avatar src={value || null} size={88} radius={88} color="brand" className={classes.avatar}>
        {name.slice(0, 1).toUpperCase()}
      </Avatar>
      <Stack gap={6}>
        <FileButton onChange={(file) => void pick(file)} accept="image/png,image/jpeg">
          {(props) => (
            <Button
              {...props}
              variant="light"
              leftSection={<IconUpload size={16} />}
              loading={uploading}
              data-testid="avatar-upload"
            >
              {t('info.avatar.choose')}
            </Button>
          )}
        </FileButton>
        <Text size="xs" c="dimmed">
          {t('info.avatar.hint')}
        </Text>
        {problem && (
          <Text size="xs" c="red" data-testid="avatar-error">
            {problem}
          </Text>
        )}
      </Stack>
    </Group>
  );
}
