import { Alert, Button, Group, Modal, ScrollArea, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileText, IconScan } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CrudExtras, CrudPage, type CrudRecord, crudKeys, RowButton } from '../../../kit/crud';
import type { CrudPageData } from '../../../kit/crud/api';
import { http } from '../../../lib/http';
import { Can } from '../../../permissions/Can';
import { identifications } from '../screens/identify';

/**
 * 资源库 → 文件识别 (menu `file_identify`): the recognitions, "recognise a file" (a library file
 * chosen, its text extracted by the server) and the recognised text in a dialog.
 */
export function IdentifyPage() {
  const { t } = useTranslation();
  const [choosing, setChoosing] = useState(false);
  const [viewing, setViewing] = useState<string | null>(null);
  const extras: CrudExtras = {
    rowCount: 1,
    row: (row) => (
      <RowButton
        label={t('library.identify.view')}
        testId="identify-row-view"
        onClick={() => setViewing(String(row.id))}
      >
        <IconFileText size={16} />
      </RowButton>
    ),
    toolbar: () => (
      <Can code="file_identify_add">
        <Button leftSection={<IconScan size={16} />} onClick={() => setChoosing(true)} data-testid="identify-start">
          {t('library.identify.recognise')}
        </Button>
      </Can>
    ),
  };
  return (
    <>
      <Alert color="blue" mb="sm" data-testid="identify-note">
        {t('library.identify.note')}
      </Alert>
      <CrudPage definition={identifications} extras={extras} />
      {choosing && (
        <RecogniseDialog
          onClose={() => setChoosing(false)}
          onDone={(id) => {
            setChoosing(false);
            setViewing(id);
          }}
        />
      )}
      {viewing && <TextDialog id={viewing} onClose={() => setViewing(null)} />}
    </>
  );
}

function RecogniseDialog({ onClose, onDone }: { onClose: () => void; onDone: (id: string) => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const list = useQuery({
    queryKey: ['library', 'files', 'all'],
    queryFn: () => http.get<CrudPageData>('/file/file/pageByKind', { current: 1, size: 200 }),
  });
  const [fileId, setFileId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const start = async () => {
    if (!fileId) return;
    setBusy(true);
    try {
      const r = await http.post<CrudRecord>('/t_file_identify/fileidentify/submit', { fileId });
      await client.invalidateQueries({ queryKey: crudKeys.all(identifications.resource) });
      notifications.show({ color: 'green', message: t('library.identify.done') });
      onDone(String(r.data.id));
    } catch {
      /* the client showed the message */
    } finally {
      setBusy(false);
    }
  };
  const options = (list.data?.data.records ?? []).map((f) => ({
    value: String(f.id),
    label: `${String(f.name)}（${String(f.kindName)}）`,
  }));
  return (
    <Modal opened onClose={onClose} title={t('library.identify.recogniseTitle')} size="lg" centered>
      <Stack>
        <Select
          label={t('library.identify.chooseFile')}
          data={options}
          value={fileId}
          onChange={setFileId}
          searchable
          data-testid="identify-file"
        />
        <Text size="sm" c="dimmed">
          {t('library.identify.note')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={start} loading={busy} disabled={!fileId} data-testid="identify-submit">
            {t('library.identify.start')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function TextDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = useQuery({
    queryKey: crudKeys.detail(identifications.resource, id),
    queryFn: () => http.get<CrudRecord>(`${identifications.resource}/detail`, { id }),
  });
  const row = detail.data?.data;
  return (
    <Modal opened onClose={onClose} title={String(row?.fileName ?? t('library.identify.content'))} size="xl" centered>
      <Stack data-testid="identify-text">
        {row?.status === 'failed' && <Alert color="red">{String(row.error)}</Alert>}
        <ScrollArea.Autosize mah="65vh">
          <Text style={{ whiteSpace: 'pre-wrap' }} ff="monospace" size="sm">
            {String(row?.content ?? '') || t('library.identify.empty')}
          </Text>
        </ScrollArea.Autosize>
      </Stack>
    </Modal>
  );
}
