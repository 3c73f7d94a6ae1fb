import {
  ActionIcon,
  Alert,
  Button,
  Card,
  FileButton,
  Group,
  Modal,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconPaperclip, IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUpload } from '../../../kit/upload';
import { type EntryDraft, growthApi, problemsOf } from '../api';

const CATEGORIES = ['1', '2', '3', '4', '5', '6'];
const LEVELS = ['1', '2', '3', '4', '5'];

export const emptyDraft = (): EntryDraft => ({
  category: null,
  title: '',
  entryDate: '',
  level: null,
  content: '',
  attachIds: [],
  files: [],
});

/**
 * Many entries in one dialog, saved in one call (`submitAll` to add, `updateAll` to edit): all
 * or nothing. A refusal names each bad entry and field; the entries stay as typed to fix.
 */
export function EntriesDialog({
  initial,
  update,
  onClose,
  onSaved,
}: {
  /** The entries to edit (null: closed). */
  initial: EntryDraft[] | null;
  update: boolean;
  onClose: () => void;
  onSaved: (count: number) => void;
}) {
  const { t } = useTranslation();
  const [drafts, setDrafts] = useState<EntryDraft[]>([]);
  const [problems, setProblems] = useState<Map<number, Record<string, string>>>(new Map());
  const [message, setMessage] = useState('');
  const [saving, setSaving] = useState(false);
  const { start } = useUpload();

  useEffect(() => {
    setDrafts(initial ?? []);
    setProblems(new Map());
    setMessage('');
  }, [initial]);

  const change = (i: number, patch: Partial<EntryDraft>) =>
    setDrafts((all) => all.map((d, j) => (j === i ? { ...d, ...patch } : d)));

  const attach = async (i: number, file: File | null) => {
    if (!file) return;
    try {
      const uploaded = await start(file);
      setDrafts((all) =>
        all.map((d, j) =>
          j === i ? { ...d, attachIds: [...d.attachIds, uploaded.attachId], files: [...d.files, file.name] } : d,
        ),
      );
    } catch {
      // The upload kit showed why.
    }
  };

  const save = async () => {
    setSaving(true);
    try {
      const saved = await growthApi.saveAll(drafts, update);
      onSaved(saved.length);
    } catch (error) {
      const p = problemsOf(error);
      setProblems(p.byEntry);
      setMessage(p.byEntry.size ? t('growth.refused') : p.message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      opened={initial !== null}
      onClose={onClose}
      title={t(update ? 'growth.editTitle' : 'growth.addTitle')}
      size={900}
      centered
      closeOnClickOutside={false}
      data-testid="growth-dialog"
    >
      <Stack>
        {message && (
          <Alert color="red" data-testid="growth-refused">
            {message}
          </Alert>
        )}
        {drafts.map((d, i) => {
          const bad = problems.get(i) ?? {};
          return (
            <Card key={d.id ?? `new-${i}`} withBorder padding="sm" data-testid={`growth-entry-${i}`}>
              <Group justify="space-between" mb="xs">
                <Text fw={600} size="sm" c={problems.has(i) ? 'red' : undefined}>
                  {t('growth.entryNo', { n: i + 1 })}
                </Text>
                {!update && drafts.length > 1 && (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('growth.removeRow')}
                    onClick={() => setDrafts((all) => all.filter((_, j) => j !== i))}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                )}
              </Group>
              <Group grow align="flex-start">
                <Select
                  label={t('growth.category')}
                  withAsterisk
                  data={CATEGORIES.map((c) => ({ value: c, label: t(`growth.categories.${c}` as never) }))}
                  value={d.category === null ? null : String(d.category)}
                  onChange={(v) => change(i, { category: v ? Number(v) : null })}
                  error={bad.category}
                  data-testid={`growth-entry-${i}-category`}
                />
                <TextInput
                  label={t('growth.entryTitle')}
                  withAsterisk
                  value={d.title}
                  onChange={(e) => change(i, { title: e.currentTarget.value })}
                  error={bad.title}
                  data-testid={`growth-entry-${i}-title`}
                />
                <TextInput
                  type="date"
                  label={t('growth.entryDate')}
                  withAsterisk
                  value={d.entryDate}
                  onChange={(e) => change(i, { entryDate: e.currentTarget.value })}
                  error={bad.entryDate}
                  data-testid={`growth-entry-${i}-date`}
                />
                <Select
                  label={t('growth.level')}
                  clearable
                  data={LEVELS.map((l) => ({ value: l, label: t(`growth.levels.${l}` as never) }))}
                  value={d.level === null ? null : String(d.level)}
                  onChange={(v) => change(i, { level: v ? Number(v) : null })}
                  error={bad.level}
                  data-testid={`growth-entry-${i}-level`}
                />
              </Group>
              <Textarea
                mt="xs"
                label={t('growth.content')}
                autosize
                minRows={1}
                value={d.content}
                onChange={(e) => change(i, { content: e.currentTarget.value })}
                error={bad.content}
              />
              <Group mt="xs" gap="xs">
                <FileButton onChange={(f) => void attach(i, f)}>
                  {(props) => (
                    <Button {...props} size="xs" variant="light" leftSection={<IconPaperclip size={14} />}>
                      {t('growth.upload')}
                    </Button>
                  )}
                </FileButton>
                {d.files.map((name) => (
                  <Text key={name} size="xs" c="dimmed">
                    {name}
                  </Text>
                ))}
                {d.files.length === 0 && d.attachIds.length > 0 && (
                  <Text size="xs" c="dimmed">
                    {t('growth.attachments')}: {d.attachIds.length}
                  </Text>
                )}
                {bad.attachIds && (
                  <Text size="xs" c="red">
                    {bad.attachIds}
                  </Text>
                )}
              </Group>
            </Card>
          );
        })}
        <Group justify="space-between">
          {!update ? (
            <Button
              variant="subtle"
              leftSection={<IconPlus size={16} />}
              onClick={() => setDrafts((all) => [...all, emptyDraft()])}
              data-testid="growth-add-row"
            >
              {t('growth.addRow')}
            </Button>
          ) : (
            <span />
          )}
          <Group>
            <Button variant="default" onClick={onClose}>
              {t('growth.cancel')}
            </Button>
            <Button onClick={save} loading={saving} disabled={!drafts.length} data-testid="growth-save">
              {t('growth.save')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
