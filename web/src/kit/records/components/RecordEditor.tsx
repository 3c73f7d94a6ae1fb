import { Alert, Box, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconDeviceFloppy, IconSend } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/date';
import { usePermission } from '../../../permissions/Can';
import type { FamilyApi, FamilyRecord } from '../api';
import {
  emptyContent,
  type FieldDef,
  formValues,
  missingFields,
  type RecordFamily,
  shown,
  toContent,
  validateValues,
} from '../define';
import { createAutosave, type SaveStatus } from '../model/autosave';
import { clearBackup, readBackup, writeBackup } from '../model/backup';
import { classifySaveError } from '../model/saveErrors';
import { FieldInput } from './FieldInput';
import classes from './records.module.css';
import { SaveIndicator } from './SaveIndicator';

/** Fields that half the form's width suits (short inputs), unless the field says otherwise. */
const HALF_KINDS = new Set<FieldDef['kind']>(['text', 'date', 'select', 'class', 'child']);

export interface RecordEditorProps {
  family: RecordFamily;
  api: FamilyApi;
  /** The record being edited; null for a new one. */
  record: FamilyRecord | null;
  /** Values the page fixes (the observation type of its route). */
  fixed?: Record<string, unknown>;
  /** A new record was created (the page puts its id in the address). */
  onCreated?: (record: FamilyRecord) => void;
  /** The user is done (submitted, or closed with everything saved): show the record. */
  onDone: (id: string, record?: FamilyRecord) => void;
}

/**
 * A family's form with autosave (issue 18): every change is saved a moment later through the
 * family's save path (a new record once its required fields are filled); a failed save keeps
 * the text locally (`model/backup`) and says so; the next visit offers it back.
 */
export function RecordEditor({ family, api, record, fixed, onCreated, onDone }: RecordEditorProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<string, unknown>>(() =>
    record ? formValues(family, record.content) : emptyContent(family, fixed),
  );
  const valuesRef = useRef(values);
  const idRef = useRef<string | undefined>(record?.id);
  const versionRef = useRef<number | undefined>(record?.version);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const backupKey = () => `${family.kind}:${idRef.current ?? 'new'}`;
  const mayEdit = usePermission({ code: family.button(record ? 'edit' : 'add') });
  const maySubmit = usePermission({ code: family.button('submit') });
  const label = (name: string) => String(t((family.fields.get(name)?.label ?? name) as never));

  // biome-ignore lint/correctness/useExhaustiveDependencies: one controller per editor (its callbacks read refs)
  const autosave = useMemo(
    () =>
      createAutosave({
        save: async () => {
          const key = backupKey();
          const sent = valuesRef.current;
          const saved = await api.save(toContent(family, sent), idRef.current, versionRef.current, { notify: false });
          const created = !idRef.current;
          idRef.current = saved.id;
          versionRef.current = saved.version;
          // The server has it all: the local copy goes (also when the editor is already gone).
          clearBackup(key);
          if (valuesRef.current !== sent)
            writeBackup(backupKey(), { content: valuesRef.current, version: saved.version });
          if (created) onCreated?.(saved);
        },
        classify: (error) => classifySaveError(error, t('records.details.loadFailed')),
        missing: () => missingFields(family, valuesRef.current).map(label),
      }),
    [],
  );
  const status = useSyncExternalStore(
    (listener) => autosave.subscribe(listener),
    () => autosave.status(),
    () => autosave.status(),
  );
  useEffect(
    () => () => {
      if (autosave.dirty()) void autosave.flush();
      autosave.dispose();
    },
    [autosave],
  );
  // The local copy: written with every change, dropped once the server has everything.
  useEffect(() => {
    if (status.kind === 'saved' && !autosave.dirty()) clearBackup(backupKey());
  });

  // A local copy the server never got, offered back unless it is what the record already holds.
  const [backup, setBackup] = useState(() => {
    const kept = readBackup<Record<string, unknown>>(backupKey());
    if (!kept) return null;
    const same =
      JSON.stringify(toContent(family, { ...values, ...kept.content })) === JSON.stringify(toContent(family, values));
    return same ? null : kept;
  });

  const change = (name: string, value: unknown) => {
    const next = { ...valuesRef.current, [name]: value };
    // Another class: the children chosen from the last one go.
    if (name === 'classId' && value !== valuesRef.current.classId) {
      for (const field of family.fields.values()) {
        if (field.kind === 'children') next[field.name] = [];
        if (field.kind === 'child') next[field.name] = '';
      }
    }
    valuesRef.current = next;
    setValues(next);
    setTouched((s) => (s.has(name) ? s : new Set(s).add(name)));
    writeBackup(backupKey(), { content: next, version: versionRef.current ?? 0 });
    autosave.change();
  };

  const problems = validateValues(family, values);
  const serverFields = status.kind === 'error' || status.kind === 'conflict' ? status.failure.fields : {};
  const errorOf = (name: string): string | undefined => {
    if (serverFields[name]) return serverFields[name];
    const problem = problems[name];
    if (!problem || !touched.has(name)) return undefined;
    return String(t(problem.key as never, { ...problem.values, label: label(name) } as never));
  };

  const restore = () => {
    if (!backup) return;
    const restored = { ...valuesRef.current, ...backup.content };
    valuesRef.current = restored;
    setValues(restored);
    setBackup(null);
    autosave.change();
  };

  const finish = async (submit: boolean) => {
    setTouched(new Set(family.fields.keys()));
    if (Object.keys(validateValues(family, valuesRef.current)).length > 0) {
      notifications.show({ color: 'red', message: t('records.validation.fix') });
      return;
    }
    const saved = await autosave.flush();
    if (!saved || !idRef.current) {
      notifications.show({ color: 'red', message: t('records.editor.notSavedYet') });
      return;
    }
    const id = idRef.current;
    if (!submit) return onDone(id);
    modals.openConfirmModal({
      title: t('records.editor.submit'),
      children: <Text size="sm">{t('records.editor.submitConfirm')}</Text>,
      labels: { confirm: t('common.confirm'), cancel: t('common.cancel') },
      onConfirm: () =>
        void api
          .submit(id, versionRef.current)
          .then((submitted) => {
            notifications.show({ color: 'teal', message: t('records.editor.submitted') });
            onDone(id, submitted);
          })
          .catch(() => undefined),
    });
  };

  const name = String(t(family.name as never));
  return (
    <Stack className={classes.sheet} data-testid="record-editor" data-kind={family.kind}>
      <Group justify="space-between" className={classes.bar} py="xs" wrap="wrap" gap="xs">
        <Title order={3} style={{ whiteSpace: 'nowrap' }}>
          {t(record ? 'records.editor.editTitle' : 'records.editor.newTitle', { name })}
        </Title>
        <Group gap="sm" wrap="wrap" justify="flex-end" style={{ flex: '1 1 auto' }}>
          <Box miw={0} style={{ overflow: 'hidden' }}>
            <SaveIndicator status={status} />
          </Box>
          <Group gap="sm" wrap="wrap" justify="flex-end" style={{ flexShrink: 0 }}>
            <Button
              variant="default"
              leftSection={<IconDeviceFloppy size={16} />}
              onClick={() => void autosave.flush()}
              disabled={!mayEdit}
              data-testid="editor-save"
            >
              {t('records.save.saveNow')}
            </Button>
            <Button
              variant="light"
              leftSection={<IconCheck size={16} />}
              onClick={() => void finish(false)}
              data-testid="editor-done"
            >
              {t('records.editor.close')}
            </Button>
            {api.has('submit') && maySubmit && (
              <Button
                leftSection={<IconSend size={16} />}
                onClick={() => void finish(true)}
                data-testid="editor-submit"
              >
                {t('records.editor.submit')}
              </Button>
            )}
          </Group>
        </Group>
      </Group>
      <SaveNotice status={status} />
      {backup && (
        <Alert color="yellow" title={t('records.save.restoreTitle')} data-testid="draft-restore">
          <Text size="sm">{t('records.save.restoreText', { time: formatDate(backup.savedAt, 'MM-dd HH:mm') })}</Text>
          <Group mt="xs">
            <Button size="xs" onClick={restore} data-testid="draft-restore-yes">
              {t('records.save.restore')}
            </Button>
            <Button
              size="xs"
              variant="default"
              onClick={() => {
                clearBackup(backupKey());
                setBackup(null);
              }}
            >
              {t('records.save.discard')}
            </Button>
          </Group>
        </Alert>
      )}
      {family.form
        .filter((section) => shown(section.showWhen, values))
        .map((section) => (
          <Paper key={section.title} withBorder p="md" radius="md">
            <Title order={5} mb="sm" className={classes.sectionTitle}>
              {t(section.title as never)}
            </Title>
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" verticalSpacing="sm">
              {section.fields
                .filter((field) => shown(field.showWhen, values))
                .map((field) => (
                  <div
                    key={field.name}
                    style={{ gridColumn: (field.half ?? HALF_KINDS.has(field.kind)) ? undefined : '1 / -1' }}
                  >
                    <FieldInput
                      family={family}
                      field={field}
                      values={values}
                      onChange={change}
                      error={errorOf(field.name)}
                    />
                  </div>
                ))}
            </SimpleGrid>
          </Paper>
        ))}
    </Stack>
  );
}

/** What a failed save means for the user's text: kept on this device, tried again. */
function SaveNotice({ status }: { status: SaveStatus }) {
  const { t } = useTranslation();
  if (status.kind === 'conflict')
    return (
      <Alert color="red" data-testid="save-kept">
        {t('records.save.conflict')}
      </Alert>
    );
  if (status.kind !== 'error') return null;
  return (
    <Alert color="orange" data-testid="save-kept">
      {t('records.save.keptLocally')}
      {status.failure.message ? ` (${status.failure.message})` : ''}
    </Alert>
  );
}
