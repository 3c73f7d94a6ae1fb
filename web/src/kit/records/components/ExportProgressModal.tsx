import { Alert, Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExportProgress as Progressed } from '@sprout/contracts';
import { saveFile } from '../../../lib/http';
import type { ZipExportApi } from '../api';

type State =
  | { kind: 'starting' }
  | { kind: 'running'; progress: Progressed }
  | { kind: 'done'; progress: Progressed }
  | { kind: 'failed'; message: string };

/**
 * Multi-record export (`exportAllForId` → poll `exportProgress` → download): a progress bar
 * while the server makes the Word files, then the zip downloads. `api` is the family's zip
 * calls; `texts` the i18n prefix of its wording (`title`, `running`, `done`, `failed`,
 * `download`, `close`; the kit's `records.export` by default).
 */
export function ExportProgressModal({
  ids,
  onClose,
  api,
  texts = 'records.export',
}: {
  ids: string[] | null;
  onClose: () => void;
  api: ZipExportApi;
  texts?: string;
}) {
  const { t: tr } = useTranslation();
  const t = useCallback(
    (key: string, values?: Record<string, unknown>) => String(tr(`${texts}.${key}` as never, values as never)),
    [tr, texts],
  );
  const [state, setState] = useState<State>({ kind: 'starting' });
  const job = useRef<string | null>(null);

  useEffect(() => {
    if (!ids || ids.length === 0) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    setState({ kind: 'starting' });
    const download = async (jobId: string, progress: Progressed) => {
      const file = await api.exportDownload(jobId, progress.fileName || 'export.zip');
      saveFile(file);
    };
    const poll = async (jobId: string) => {
      try {
        const progress = await api.exportProgress(jobId);
        if (!live) return;
        if (progress.status === 'done') {
          setState({ kind: 'done', progress });
          await download(jobId, progress);
        } else if (progress.status === 'failed') {
          setState({ kind: 'failed', message: t('failed') });
        } else {
          setState({ kind: 'running', progress });
          timer = setTimeout(() => void poll(jobId), 700);
        }
      } catch (e) {
        if (live) setState({ kind: 'failed', message: e instanceof Error ? e.message : t('failed') });
      }
    };
    (async () => {
      try {
        const started = await api.exportMany(ids);
        if (!live) return;
        job.current = started.jobId;
        setState({
          kind: 'running',
          progress: { status: 'running', done: 0, total: started.total, fileName: '', error: '' },
        });
        await poll(started.jobId);
      } catch (e) {
        if (live) setState({ kind: 'failed', message: e instanceof Error ? e.message : t('failed') });
      }
    })();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [ids, t, api]);

  const progress = state.kind === 'running' || state.kind === 'done' ? state.progress : null;
  const percent = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;

  return (
    <Modal opened={ids !== null} onClose={onClose} title={t('title')} data-testid="export-progress">
      <Stack>
        {state.kind === 'failed' ? (
          <Alert color="red" icon={<IconAlertTriangle size={18} />}>
            {state.message}
          </Alert>
        ) : (
          <>
            <Progress
              value={state.kind === 'done' ? 100 : percent}
              animated={state.kind !== 'done'}
              size="xl"
              radius="xl"
              data-testid="export-progress-bar"
            />
            <Group gap={6}>
              {state.kind === 'done' && <IconCircleCheck size={18} color="var(--mantine-color-teal-6)" />}
              <Text size="sm" data-testid="export-progress-text">
                {state.kind === 'done'
                  ? t('done', { total: state.progress.total, fileName: state.progress.fileName })
                  : t('running', { done: progress?.done ?? 0, total: progress?.total ?? ids?.length ?? 0 })}
              </Text>
            </Group>
          </>
        )}
        <Group justify="flex-end">
          {state.kind === 'done' && job.current && (
            <Button
              variant="default"
              onClick={() => {
                const jobId = job.current;
                if (jobId)
                  void api
                    .exportDownload(jobId, state.progress.fileName || 'export.zip')
                    .then(saveFile)
                    .catch(() => undefined);
              }}
            >
              {t('download')}
            </Button>
          )}
          <Button onClick={onClose}>{t('close')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
