import { Alert, Button, FileInput, Group, Modal, Progress, Radio, Stack, Table, Text } from '@mantine/core';
import { IconCircleCheck, IconFileSpreadsheet } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { crudKeys } from '../../../kit/crud';
import { usersApi } from './api';
import { type ImportStep, isWorkbook, stepOf } from './importJob';

/** How often the job is asked about while it runs. */
const POLL_MS = 600;

/**
 * 导入用户: pick a workbook (.xlsx), say whether existing accounts are overwritten, upload;
 * a progress bar follows the job (`import-progress?jobId=`) until it is done (the count, the
 * list refreshed) or failed (every bad row: row, column, reason; nothing written).
 */
export function ImportDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [covered, setCovered] = useState('0');
  const [step, setStep] = useState<ImportStep>({ kind: 'pick' });
  const live = useRef(true);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
      if (timer.current) clearTimeout(timer.current);
    };
  }, []);

  const close = () => {
    if (timer.current) clearTimeout(timer.current);
    setFile(null);
    setCovered('0');
    setStep({ kind: 'pick' });
    onClose();
  };

  const poll = async (jobId: string) => {
    let next: ImportStep;
    try {
      next = stepOf(await usersApi.importProgress(jobId), t('system.user.import.failed'));
    } catch {
      next = stepOf(null, t('system.user.import.failed'));
    }
    if (!live.current) return;
    setStep(next);
    if (next.kind === 'running') timer.current = setTimeout(() => void poll(jobId), POLL_MS);
    if (next.kind === 'done') void client.invalidateQueries({ queryKey: crudKeys.all('/blade-user') });
  };

  const upload = async () => {
    if (!file || !isWorkbook(file)) return;
    setStep({ kind: 'uploading' });
    try {
      const job = await usersApi.importUsers(file, covered === '1');
      if (!live.current) return;
      setStep({ kind: 'running', phase: 'validating', total: job.total, done: 0, percent: 0 });
      await poll(job.jobId);
    } catch {
      // The client showed the server's message; the file may be picked again.
      if (live.current) setStep({ kind: 'pick' });
    }
  };

  const badFile = file !== null && !isWorkbook(file);
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('system.user.import.title')}
      size={720}
      centered
      closeOnClickOutside={false}
      data-testid="user-import-dialog"
    >
      {(step.kind === 'pick' || step.kind === 'uploading') && (
        <Stack>
          <FileInput
            label={t('system.user.import.file')}
            placeholder={t('system.user.import.pick')}
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            leftSection={<IconFileSpreadsheet size={16} />}
            value={file}
            onChange={setFile}
            clearable
            withAsterisk
            error={badFile ? t('system.user.import.xlsxOnly') : undefined}
            data-testid="user-import-file"
          />
          <Radio.Group
            label={t('system.user.import.covered')}
            description={t('system.user.import.coveredHint')}
            value={covered}
            onChange={setCovered}
          >
            <Group mt="xs">
              <Radio value="0" label={t('system.user.import.no')} data-testid="user-import-covered-0" />
              <Radio value="1" label={t('system.user.import.yes')} data-testid="user-import-covered-1" />
            </Group>
          </Radio.Group>
          <Group justify="space-between">
            <Button
              variant="subtle"
              onClick={() => void usersApi.downloadTemplate(t('system.user.import.templateFile'))}
            >
              {t('system.user.template')}
            </Button>
            <Group>
              <Button variant="default" onClick={close}>
                {t('system.user.cancel')}
              </Button>
              <Button
                onClick={upload}
                disabled={!file || badFile}
                loading={step.kind === 'uploading'}
                data-testid="user-import-upload"
              >
                {t('system.user.import.upload')}
              </Button>
            </Group>
          </Group>
        </Stack>
      )}
      {step.kind === 'running' && (
        <Stack data-testid="user-import-progress">
          <Text size="sm">{t(`system.user.import.${step.phase}`, { done: step.done, total: step.total })}</Text>
          <Progress value={step.percent} striped animated size="lg" />
        </Stack>
      )}
      {step.kind === 'done' && (
        <Stack data-testid="user-import-done">
          <Alert color="teal" icon={<IconCircleCheck size={18} />}>
            {t('system.user.import.done', { total: step.total })}
          </Alert>
          <Group justify="flex-end">
            <Button onClick={close}>{t('system.user.close')}</Button>
          </Group>
        </Stack>
      )}
      {step.kind === 'failed' && (
        <Stack data-testid="user-import-failed">
          <Alert color="red">{step.message}</Alert>
          {step.errors.length > 0 && (
            <Table striped withTableBorder data-testid="user-import-errors">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={80}>{t('system.user.import.row')}</Table.Th>
                  <Table.Th w={140}>{t('system.user.import.column')}</Table.Th>
                  <Table.Th>{t('system.user.import.reason')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {step.errors.map((e) => (
                  <Table.Tr key={`${e.row}-${e.column}-${e.message}`}>
                    <Table.Td>{e.row}</Table.Td>
                    <Table.Td>{e.column}</Table.Td>
                    <Table.Td>{e.message}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setStep({ kind: 'pick' })}>
              {t('system.user.import.again')}
            </Button>
            <Button onClick={close}>{t('system.user.close')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
