import {
  Alert,
  Avatar,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconDeviceFloppy, IconSend, IconUsers } from '@tabler/icons-react';
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
import { type LivePeer, type LiveStatus, useLiveRecord } from '../live/useLiveRecord';
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
  // A co-edited family's saved record: the form is its live document (the team's text as they type).
  const live = useLiveRecord(family.live && record && mayEdit ? { kind: family.kind, id: record.id } : null);
  const session = live.session;
  const liveOn = Boolean(session) && live.status !== 'denied';
  const sessionRef = useRef(session);
  sessionRef.current = session;
  useEffect(() => {
    if (!session) return;
    // The document's plain fields as the form's values (rich fields are bound to their editors).
    const read = () => {
      const next = {
        ...valuesRef.current,
        ...formValues(family, { ...(record?.content ?? {}), ...session.content() }),
      };
      if (JSON.stringify(next) === JSON.stringify(valuesRef.current)) return;
      valuesRef.current = next;
      setValues(next);
    };
    read();
    return session.subscribe(read);
  }, [session, family, record]);

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
    const doc = sessionRef.current;
    if (doc) {
      // Live: the document is where it goes (and who else is editing sees it at once).
      if (family.fields.get(name)?.kind !== 'rich') doc.set(name, toContent(family, next)[name]);
      return;
    }
    writeBackup(backupKey(), { content: next, version: versionRef.current ?? 0 });
    autosave.change();
  };

  /** Live: the document saved now as a version (the server names everyone whose edits it holds). */
  const saveVersion = async () => {
    if (!idRef.current) return false;
    try {
      const saved = await api.saveRevision(idRef.current);
      versionRef.current = saved.version;
      notifications.show({ color: 'teal', message: t('records.live.savedVersion') });
      return true;
    } catch {
      return false; // the client showed the message (which fields are wrong)
    }
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
    const saved = liveOn ? await saveVersion() : await autosave.flush();
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
          .submit(id, liveOn ? undefined : versionRef.current)
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
            {liveOn ? <LiveBar status={live.status} peers={live.peers} /> : <SaveIndicator status={status} />}
          </Box>
          <Group gap="sm" wrap="wrap" justify="flex-end" style={{ flexShrink: 0 }}>
            <Button
              variant="default"
              leftSection={<IconDeviceFloppy size={16} />}
              onClick={() => void (liveOn ? saveVersion() : autosave.flush())}
              disabled={!mayEdit || (liveOn && live.status !== 'live')}
              data-testid="editor-save"
            >
              {t(liveOn ? 'records.live.saveVersion' : 'records.save.saveNow')}
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
      {!liveOn && <SaveNotice status={status} />}
      {liveOn && live.status === 'readOnly' && (
        <Alert color="gray" data-testid="live-read-only">
          {t('records.live.readOnly')}
        </Alert>
      )}
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
      {live.pending ? (
        <Group justify="center" py="xl" data-testid="live-connecting">
          <Loader size="sm" />
          <Text size="sm" c="dimmed">
            {t('records.live.connecting')}
          </Text>
        </Group>
      ) : (
        <fieldset
          disabled={liveOn && live.status === 'readOnly'}
          style={{ border: 0, padding: 0, margin: 0, minWidth: 0, display: 'contents' }}
        >
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
                          richExtensions={liveOn && session ? session.richExtensions : undefined}
                        />
                      </div>
                    ))}
                </SimpleGrid>
              </Paper>
            ))}
        </fieldset>
      )}
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

/** Live: the connection's state and who else is editing now. */
function LiveBar({ status, peers }: { status: LiveStatus; peers: LivePeer[] }) {
  const { t } = useTranslation();
  const color = status === 'live' ? 'teal' : status === 'readOnly' ? 'gray' : 'orange';
  return (
    <Group gap="xs" wrap="nowrap" data-testid="live-bar" data-status={status}>
      <Badge color={color} variant="light" leftSection={<IconUsers size={12} />}>
        {t(`records.live.status.${status}` as never)}
      </Badge>
      {peers.length > 0 && (
        <Group gap={4} wrap="nowrap" data-testid="live-peers">
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {t('records.live.alsoEditing')}
          </Text>
          <Avatar.Group spacing="xs">
            {peers.map((p) => (
              <Tooltip key={p.id} label={p.name}>
                <Avatar
                  size="sm"
                  radius="xl"
                  color={p.color}
                  variant="filled"
                  data-testid="live-peer"
                  data-name={p.name}
                >
                  {p.name.slice(0, 1)}
                </Avatar>
              </Tooltip>
            ))}
          </Avatar.Group>
          <Text size="xs" style={{ whiteSpace: 'nowrap' }} data-testid="live-peer-names">
            {peers.map((p) => p.name).join('、')}
          </Text>
        </Group>
      )}
    </Group>
  );
}
