import { Anchor, Button, FileButton, Group, Image } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconFile, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type CrudExtras, CrudPage, type CrudRecord, crudKeys, RowButton } from '../../../kit/crud';
import { UploadProgress, useUpload } from '../../../kit/upload';
import { Can } from '../../../permissions/Can';
import { attach } from '../screens/attach';

/** A size as people read it: 980 B, 12.3 KB, 4.5 MB. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

/** `/api/…` links are the server's; the browser sends the session cookie with them. */
const href = (link: unknown) => String(link ?? '');

function Thumb({ row }: { row: CrudRecord }) {
  const thumb = href(row.thumbLink);
  if (!thumb) return <IconFile size={28} stroke={1.4} color="var(--mantine-color-gray-6)" />;
  return (
    <Anchor href={href(row.link)} target="_blank" rel="noopener">
      <Image
        src={thumb}
        alt={String(row.originalName ?? '')}
        w={56}
        h={42}
        fit="cover"
        radius="sm"
        data-testid="attach-thumb"
      />
    </Anchor>
  );
}

/**
 * The upload button (behind `attach_upload`) and its progress while a file goes up: whole to
 * attach/upload, or a big one in resumable parts (picking the same file again resumes it).
 */
function UploadButton() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const upload = useUpload({ wholePath: '/blade-resource/attach/upload' });
  const pick = async (file: File | null) => {
    if (!file) return;
    try {
      const done = await upload.start(file);
      notifications.show({ color: 'leaf', message: t('resource.attach.uploaded', { name: done.originalName }) });
      await client.invalidateQueries({ queryKey: crudKeys.all(attach.resource) });
    } catch (error) {
      const message = upload.problemOf(error);
      notifications.show(message === null ? { message: t('upload.cancelled') } : { color: 'red', message });
    }
  };
  return (
    <Can code="attach_upload">
      <Group gap="xs" wrap="nowrap">
        <FileButton onChange={(f) => void pick(f)}>
          {(props) => (
            <Button {...props} leftSection={<IconUpload size={16} />} loading={upload.busy} data-testid="attach-upload">
              {t('resource.attach.upload')}
            </Button>
          )}
        </FileButton>
        {upload.progress && (
          <UploadProgress progress={upload.progress} onCancel={upload.cancel} compact testId="attach-progress" />
        )}
      </Group>
    </Can>
  );
}

/** Attachments (menu `attach`, `/resource/attach`): the kit's screen with thumbnails, sizes, downloads and an upload. */
export function AttachPage() {
  const { t } = useTranslation();
  const definition = useMemo(
    () => ({
      ...attach,
      columns: attach.columns.map((c) =>
        c.prop === 'thumbLink'
          ? { ...c, cell: (row: CrudRecord) => <Thumb row={row} /> }
          : c.prop === 'attachSize'
            ? { ...c, cell: (row: CrudRecord) => sizeText(Number(row.attachSize ?? 0)) }
            : c,
      ),
    }),
    [],
  );
  const extras: CrudExtras = {
    rowCount: 1,
    row: (row) => (
      <Can code="attach_download">
        <RowButton
          label={t('resource.attach.download')}
          testId="attach-row-download"
          onClick={() => window.open(`${href(row.link)}?inline=0`, '_blank', 'noopener')}
        >
          <IconDownload size={16} />
        </RowButton>
      </Can>
    ),
    toolbar: () => <UploadButton />,
  };
  return <CrudPage definition={definition} extras={extras} />;
}
