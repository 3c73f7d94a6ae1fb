import { ActionIcon, Anchor, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconDownload, IconFile, IconPaperclip, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fileNameOf } from '../../../lib/http';
import { photoUrl } from './PhotoField';
import { UploadListField } from './UploadListField';

/** Files a record may hold as attachments: documents, pictures, media (the server reads the content again). */
export const FILE_ACCEPT = '.pdf,.docx,.xlsx,.pptx,.txt,.jpg,.jpeg,.png,.gif,.webp,.heic,.heif,.mp4,.webm,.mp3,.zip';
export const FILE_MAX_BYTES = 50 * 1024 * 1024;

/** A size as people read it (B, KB, MB). */
export function sizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The total size a `Content-Range: bytes 0-0/1234` answer names, or null. */
export function totalOfRange(header: string | null): number | null {
  const m = header ? /\/(\d+)\s*$/.exec(header) : null;
  return m ? Number(m[1]) : null;
}

/** A stored file's name and size: its first byte asked for (the answer's name and range). */
async function storedFacts(id: string): Promise<{ name: string | null; size: number | null } | null> {
  const response = await fetch(photoUrl(id, false), { headers: { Range: 'bytes=0-0' }, credentials: 'same-origin' });
  void response.body?.cancel();
  if (!response.ok) return null;
  return {
    name: fileNameOf(response.headers.get('content-disposition')),
    size: totalOfRange(response.headers.get('content-range')) ?? Number(response.headers.get('content-length') ?? 0),
  };
}

/** A stored file's name (asked once per file and kept), its id until known. */
export function FileName({ id }: { id: string }) {
  const facts = useQuery({
    queryKey: ['attach-facts', id],
    queryFn: () => storedFacts(id),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  return <span data-testid="file-name">{facts.data?.name ?? id}</span>;
}

/** One attachment: its name (the download) and size, and a remove button when editing. */
function FileRow({ id, known, onRemove }: { id: string; known?: Facts; onRemove?: () => void }) {
  const { t } = useTranslation();
  const facts = useQuery({
    queryKey: ['attach-facts', id],
    queryFn: () => storedFacts(id),
    enabled: !known,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const name = known?.name ?? facts.data?.name ?? t('records.files.file');
  const size = known?.size ?? facts.data?.size ?? null;
  return (
    <Paper withBorder radius="sm" px="sm" py={6} data-testid="attachment" data-id={id}>
      <Group gap="sm" wrap="nowrap" justify="space-between">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <IconFile size={18} stroke={1.5} />
          <Anchor
            href={photoUrl(id, false)}
            download={name}
            size="sm"
            title={t('records.files.download', { name })}
            style={{ wordBreak: 'break-all' }}
            data-testid="attachment-name"
          >
            {name}
          </Anchor>
          {size !== null && (
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="attachment-size">
              {sizeLabel(size)}
            </Text>
          )}
        </Group>
        <Group gap={4} wrap="nowrap">
          <Tooltip label={t('records.files.download', { name })}>
            <ActionIcon
              component="a"
              href={photoUrl(id, false)}
              download={name}
              variant="subtle"
              size="sm"
              aria-label={t('records.files.download', { name })}
              data-testid="attachment-download"
            >
              <IconDownload size={14} />
            </ActionIcon>
          </Tooltip>
          {onRemove && (
            <Tooltip label={t('records.files.remove')}>
              <ActionIcon
                variant="subtle"
                color="red"
                size="sm"
                onClick={onRemove}
                aria-label={t('records.files.remove', { name })}
                data-testid="attachment-remove"
              >
                <IconX size={14} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Group>
    </Paper>
  );
}

interface Facts {
  name: string;
  size: number;
}

/** A record's attachments as a list: name (downloads it), size, download. */
export function FileList({
  ids,
  known,
  onRemove,
}: {
  ids: readonly string[];
  known?: ReadonlyMap<string, Facts>;
  onRemove?: (id: string) => void;
}) {
  return (
    <Stack gap={6} data-testid="attachments">
      {ids.map((id) => (
        <FileRow key={id} id={id} known={known?.get(id)} onRemove={onRemove ? () => onRemove(id) : undefined} />
      ))}
    </Stack>
  );
}

/** A form's attachments: upload (the upload kit: progress, cancel, big files in parts), list, remove. */
export function FilesField({
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
  // What this form uploaded: shown at once, without asking the server again.
  const [known, setKnown] = useState<Map<string, Facts>>(() => new Map());
  return (
    <UploadListField
      kind="file"
      label={label}
      description={t('records.files.hint')}
      value={value}
      onChange={onChange}
      max={max}
      full={t('records.files.full', { max })}
      refuse={(file) => (file.size > FILE_MAX_BYTES ? t('records.files.tooBig') : null)}
      onUploaded={(id, sent, file) =>
        setKnown((m) => new Map(m).set(id, { name: sent.originalName || file.name, size: file.size }))
      }
      accept={FILE_ACCEPT}
      addIcon={<IconPaperclip size={16} />}
      addLabel={t('records.files.add')}
      error={error}
      testId={testId}
    >
      <FileList ids={value} known={known} onRemove={(id) => onChange(value.filter((x) => x !== id))} />
    </UploadListField>
  );
}
