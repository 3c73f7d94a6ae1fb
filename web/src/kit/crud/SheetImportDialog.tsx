import { Alert, Button, FileInput, Group, Modal, Progress, Stack, Table, Text } from '@mantine/core';
import { IconCircleCheck, IconFileSpreadsheet } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ImportProgress, type ImportStep, isWorkbook, stepOf } from './sheetJob';

/** How often the job is asked about while it runs. */
const POLL_MS = 600;

export interface SheetImportDialogProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** The dialog's test id is `<testId>-dialog`, its parts `<testId>-file`, `-upload`, `-progress`, `-done`, `-failed`, `-errors`. */
  testId: string;
  /** Starts the job with the picked workbook. */
  upload: (file: File) => Promise<{ jobId: string; total: number }>;
  /** The job's progress. */
  progress: (jobId: string) => Promise<ImportProgress>;
  /** Downloads the template (a button of the pick step). */
  template?: () => Promise<void>;
  /** What a finished import says (default: the kit's "imported {{total}} rows"). */
  doneText?: (total: number) => string;
  /** Once the job is done (refresh the list). */
  onDone?: () => void;
  /** More fields of the pick step (whether existing rows are overwritten). */
  children?: ReactNode;
}

/**
 * An Excel import (users, teachers, children): pick a workbook (.xlsx), upload; a progress bar
 * follows the job until it is done (the count) or failed (every bad row: row, column, reason;
 * nothing written), when another file may be picked.
 */
export function SheetImportDialog(p: SheetImportDialogProps) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
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
    setStep({ kind: 'pick' });
    p.onClose();
  };

  const poll = async (jobId: string) => {
    let next: ImportStep;
    try {
      next = stepOf(await p.progress(jobId), t('crud.sheet.failed'));
    } catch {
      next = stepOf(null, t('crud.sheet.failed'));
    }
    if (!live.current) return;
    setStep(next);
    if (next.kind === 'running') timer.current = setTimeout(() => void poll(jobId), POLL_MS);
    if (next.kind === 'done') p.onDone?.();
  };

  const upload = async () => {
    if (!file || !isWorkbook(file)) return;
    setStep({ kind: 'uploading' });
    try {
      const job = await p.upload(file);
      if (!live.current) return;
      setStep({ kind: 'running', phase: 'validating', total: job.total, done: 0, percent: 0 });
      await poll(job.jobId);
    } catch {
      // The client showed the server's message; the file may be picked again.
      if (live.current) setStep({ kind: 'pick' });
    }
  };

  const badFile = file !== null && !isWorkbook(file);
  const id = (part: string) => `${p.testId}-${part}`;
  return (
    <Modal
      opened={p.opened}
      onClose={close}
      title={p.title}
      size={720}
      centered
      closeOnClickOutside={false}
      data-testid={id('dialog')}
    >
      {(step.kind === 'pick' || step.kind === 'uploading') && (
        <Stack>
          <FileInput
            label={t('crud.sheet.file')}
            placeholder={t('crud.sheet.pick')}
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            leftSection={<IconFileSpreadsheet size={16} />}
            value={file}
            onChange={setFile}
            clearable
            withAsterisk
            error={badFile ? t('crud.sheet.xlsxOnly') : undefined}
            data-testid={id('file')}
          />
          {p.children}
          <Group justify="space-between">
            {p.template ? (
              <Button variant="subtle" onClick={() => void p.template?.().catch(() => undefined)}>
                {t('crud.sheet.template')}
              </Button>
            ) : (
              <span />
            )}
            <Group>
              <Button variant="default" onClick={close}>
                {t('crud.dialog.cancel')}
              </Button>
              <Button
                onClick={upload}
                disabled={!file || badFile}
                loading={step.kind === 'uploading'}
                data-testid={id('upload')}
              >
                {t('crud.sheet.upload')}
              </Button>
            </Group>
          </Group>
        </Stack>
      )}
      {step.kind === 'running' && (
        <Stack data-testid={id('progress')}>
          <Text size="sm">{t(`crud.sheet.${step.phase}`, { done: step.done, total: step.total })}</Text>
          <Progress value={step.percent} striped animated size="lg" />
        </Stack>
      )}
      {step.kind === 'done' && (
        <Stack data-testid={id('done')}>
          <Alert color="teal" icon={<IconCircleCheck size={18} />}>
            {p.doneText ? p.doneText(step.total) : t('crud.sheet.done', { total: step.total })}
          </Alert>
          <Group justify="flex-end">
            <Button onClick={close}>{t('crud.dialog.close')}</Button>
          </Group>
        </Stack>
      )}
      {step.kind === 'failed' && (
        <Stack data-testid={id('failed')}>
          <Alert color="red">{step.message}</Alert>
          {step.errors.length > 0 && (
            <Table striped withTableBorder data-testid={id('errors')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={80}>{t('crud.sheet.row')}</Table.Th>
                  <Table.Th w={140}>{t('crud.sheet.column')}</Table.Th>
                  <Table.Th>{t('crud.sheet.reason')}</Table.Th>
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
              {t('crud.sheet.again')}
            </Button>
            <Button onClick={close}>{t('crud.dialog.close')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
