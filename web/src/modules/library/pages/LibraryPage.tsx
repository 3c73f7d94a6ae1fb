import { Alert, Button, FileInput, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPhotoSearch, IconUpload } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CrudExtras, CrudPage, type CrudRecord, crudKeys, RowButton } from '../../../kit/crud';
import { UploadProgress, useUpload } from '../../../kit/upload';
import { http } from '../../../lib/http';
import { Can } from '../../../permissions/Can';
import { files, KIND_TREE } from '../screens/files';
import { previewOf } from '../upload';

/**
 * 资源库 → 资源文件 (menu `file`): the kit's table of files beside the kind tree, with the
 * page's upload dialog (the file whole, or a big one in resumable parts, with its progress and
 * a cancel; then `save` into the chosen kind) and a
 * preview of images and PDFs.
 */
export function LibraryPage() {
  const { t } = useTranslation();
  const [uploadKind, setUploadKind] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [previewing, setPreviewing] = useState<CrudRecord | null>(null);

  const extras: CrudExtras = {
    rowCount: 1,
    row: (row) =>
      previewOf(String(row.mime ?? ''), String(row.extension ?? '')) ? (
        <RowButton label={t('library.file.preview')} testId="file-row-preview" onClick={() => setPreviewing(row)}>
          <IconPhotoSearch size={16} />
        </RowButton>
      ) : null,
    toolbar: ({ params }) => (
      <Can code="file_add">
        <Button
          leftSection={<IconUpload size={16} />}
          onClick={() => {
            setUploadKind(params.kindId ? String(params.kindId) : null);
            setUploading(true);
          }}
          data-testid="file-upload"
        >
          {t('library.file.upload')}
        </Button>
      </Can>
    ),
  };

  return (
    <>
      <CrudPage definition={files} extras={extras} />
      {uploading && <UploadDialog initialKind={uploadKind} onClose={() => setUploading(false)} />}
      <PreviewDialog row={previewing} onClose={() => setPreviewing(null)} />
    </>
  );
}

interface KindNode {
  id: string;
  title: string;
  children?: KindNode[];
}

/** The kinds as select options, each under its parents' names (教学资源 / 绘本). */
function kindOptions(nodes: KindNode[], prefix = ''): { value: string; label: string }[] {
  return nodes.flatMap((n) => [
    { value: n.id, label: `${prefix}${n.title}` },
    ...kindOptions(n.children ?? [], `${prefix}${n.title} / `),
  ]);
}

function UploadDialog({ initialKind, onClose }: { initialKind: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const tree = useQuery({ queryKey: ['library', 'kinds'], queryFn: () => http.get<KindNode[]>(KIND_TREE) });
  const [kindId, setKindId] = useState<string | null>(initialKind);
  const [file, setFile] = useState<File | null>(null);
  const [tags, setTags] = useState('');
  const upload = useUpload();
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const busy = upload.busy || saving;

  const submit = async () => {
    if (!file) return setProblem(t('library.file.noFile'));
    if (!kindId) return setProblem(t('library.file.noKind'));
    setProblem(null);
    let uploaded: Awaited<ReturnType<typeof upload.start>>;
    try {
      uploaded = await upload.start(file);
    } catch (e) {
      const message = upload.problemOf(e);
      setProblem(message);
      if (message === null) notifications.show({ message: t('upload.cancelled') });
      return;
    }
    try {
      setSaving(true);
      await http.post('/file/file/save', { kindId, attachId: uploaded.attachId, tags }, { notify: false });
      await client.invalidateQueries({ queryKey: crudKeys.all(files.resource) });
      notifications.show({ color: 'green', message: t('library.file.uploaded', { name: uploaded.originalName }) });
      onClose();
    } catch (e) {
      setProblem((e as Error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal opened onClose={busy ? () => undefined : onClose} title={t('library.file.uploadTitle')} size="lg" centered>
      <Stack data-testid="file-upload-dialog">
        <Select
          label={t('library.file.kindId')}
          data={kindOptions(tree.data?.data ?? [])}
          value={kindId}
          onChange={setKindId}
          searchable
          required
          data-testid="file-upload-kind"
        />
        <FileInput
          label={t('library.file.choose')}
          description={t('library.file.chooseHint')}
          value={file}
          onChange={setFile}
          clearable
          required
          data-testid="file-upload-input"
        />
        <TextInput
          label={t('library.file.tags')}
          description={t('library.file.tagsHint')}
          value={tags}
          onChange={(e) => setTags(e.currentTarget.value)}
          maxLength={500}
        />
        {upload.progress && (
          <UploadProgress progress={upload.progress} onCancel={upload.cancel} testId="file-upload-progress" />
        )}
        {saving && <Text size="sm">{t('library.file.saving')}</Text>}
        {problem && (
          <Alert color="red" data-testid="file-upload-problem">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button onClick={submit} loading={busy} data-testid="file-upload-submit">
            {t('library.file.upload')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function PreviewDialog({ row, onClose }: { row: CrudRecord | null; onClose: () => void }) {
  const { t } = useTranslation();
  const kind = row ? previewOf(String(row.mime ?? ''), String(row.extension ?? '')) : null;
  const link = String(row?.link ?? '');
  return (
    <Modal opened={row !== null} onClose={onClose} title={String(row?.name ?? '')} size="80%" centered>
      <div data-testid="file-preview">
        {kind === 'image' && (
          <img
            src={link}
            alt={String(row?.name ?? '')}
            style={{ maxWidth: '100%', maxHeight: '75vh', display: 'block', margin: '0 auto' }}
          />
        )}
        {kind === 'pdf' && (
          <iframe
            src={link}
            title={String(row?.name ?? '')}
            style={{ width: '100%', height: '75vh', border: 0 }}
            data-testid="file-preview-frame"
          />
        )}
        {kind === null && <Text>{t('library.file.noPreview')}</Text>}
        <Group justify="flex-end" mt="sm">
          <Button component="a" href={link} download variant="light">
            {t('library.file.download')}
          </Button>
        </Group>
      </div>
    </Modal>
  );
}
