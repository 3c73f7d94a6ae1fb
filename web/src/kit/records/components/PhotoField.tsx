import { ActionIcon, Anchor, Group, Image, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconPhoto, IconPhotoPlus, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fileNameOf } from '../../../lib/http';
import { useTranslation } from 'react-i18next';
import classes from './records.module.css';
import { UploadListField } from './UploadListField';

/** Pictures a record may hold (issue 18: jpg/png/webp/heic up to 10 MB; the server reads the content again). */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'];
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;

/** Why a picture is refused before it is sent (a records key), or null. */
export function photoProblem(file: { name: string; type: string; size: number }): string | null {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  const typeOk = PHOTO_TYPES.includes(file.type) || ['jpg', 'jpeg', 'png', 'webp', 'heic', 'heif'].includes(ext);
  if (!typeOk) return 'records.photos.wrongType';
  if (file.size > PHOTO_MAX_BYTES) return 'records.photos.tooBig';
  return null;
}

/** An attachment's picture through the API (the `<img>` sends the session cookie). */
export const photoUrl = (id: string, thumb = true) =>
  `/api/blade-resource/attach/download/${encodeURIComponent(id)}${thumb ? '?thumb=1' : ''}`;

/**
 * The name a stored file is downloaded under (its first byte asked for: the answer's
 * `Content-Disposition`), or null.
 */
async function storedName(id: string): Promise<string | null> {
  const response = await fetch(photoUrl(id, false), { headers: { Range: 'bytes=0-0' }, credentials: 'same-origin' });
  void response.body?.cancel();
  return response.ok ? fileNameOf(response.headers.get('content-disposition')) : null;
}

/**
 * One picture's thumbnail opening the original; a picture the browser cannot show and the
 * server made no thumbnail of (a phone's HEIC photo) is a neutral placeholder with its name
 * that downloads it.
 */
export function PhotoThumb({ id, w = 112, h = 84 }: { id: string; w?: number; h?: number }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  const name = useQuery({
    queryKey: ['attach-name', id],
    queryFn: () => storedName(id),
    enabled: failed,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  if (!failed)
    return (
      <Anchor href={photoUrl(id, false)} target="_blank" rel="noreferrer" title={t('records.photos.open')}>
        <Image
          src={photoUrl(id)}
          w={w}
          h={h}
          fit="cover"
          radius="sm"
          alt=""
          onError={() => setFailed(true)}
          data-testid="photo-thumb"
        />
      </Anchor>
    );
  const label = name.data || t('records.photos.photo');
  const small = w < 80;
  return (
    <Anchor
      href={photoUrl(id, false)}
      download={name.data || true}
      title={t('records.photos.download', { name: label })}
      underline="never"
      data-testid="photo-placeholder"
    >
      <Stack
        w={w}
        h={h}
        gap={2}
        align="center"
        justify="center"
        bg="var(--mantine-color-gray-1)"
        c="dimmed"
        style={{ borderRadius: 'var(--mantine-radius-sm)', overflow: 'hidden' }}
      >
        <IconPhoto size={small ? 18 : 28} stroke={1.5} />
        {!small && (
          <Text size="xs" c="dimmed" lineClamp={2} ta="center" px={4} style={{ wordBreak: 'break-all' }}>
            {label}
          </Text>
        )}
      </Stack>
    </Anchor>
  );
}

/** The thumbnails of a record's pictures, each opening the original. */
export function PhotoStrip({ ids, onRemove }: { ids: readonly string[]; onRemove?: (id: string) => void }) {
  const { t } = useTranslation();
  return (
    <Group gap="sm" data-testid="photo-strip">
      {ids.map((id) => (
        <Paper key={id} withBorder radius="sm" p={2} className={classes.photo} data-testid="photo" data-id={id}>
          <PhotoThumb id={id} />
          {onRemove && (
            <Tooltip label={t('records.photos.remove')}>
              <ActionIcon
                size="sm"
                color="red"
                variant="filled"
                radius="xl"
                className={classes.photoRemove}
                onClick={() => onRemove(id)}
                aria-label={t('records.photos.remove')}
                data-testid="photo-remove"
              >
                <IconX size={12} />
              </ActionIcon>
            </Tooltip>
          )}
        </Paper>
      ))}
    </Group>
  );
}

/** A form's pictures: upload (the upload kit, progress and cancel), thumbnails, remove. */
export function PhotoField({
  label,
  value,
  onChange,
  max = 20,
  error,
  testId,
}: {
  label: string;
  value: string[];
  onChange: (ids: string[]) => void;
  max?: number;
  error?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <UploadListField
      kind="photo"
      label={label}
      description={t('records.photos.hint')}
      value={value}
      onChange={onChange}
      max={max}
      full={t('records.photos.full', { max })}
      refuse={(file) => {
        const key = photoProblem(file);
        return key ? t(key as never) : null;
      }}
      accept="image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif"
      addIcon={<IconPhotoPlus size={16} />}
      addLabel={t('records.photos.add')}
      error={error}
      testId={testId}
    >
      <PhotoStrip ids={value} onRemove={(id) => onChange(value.filter((x) => x !== id))} />
    </UploadListField>
  );
}
