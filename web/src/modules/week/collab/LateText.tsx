import { ActionIcon, Alert, Button, CopyButton, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconCheck, IconCopy, IconHistoryToggle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { LateField, LateText } from '@sprout/contracts';
import { weekApi } from '../api';
import { useWatched } from '../hooks/useWatched';
import { useWeekLabels } from '../hooks/useWeekLabels';
import type { DraftPath } from '../model/draft';
import { describePath } from '../model/history';
import { useCollabT } from './i18n';
import type { CollabWeek } from './types';

/** `days.0.groupTeaching` → `['days', 0, 'groupTeaching']`. */
export const draftPathOf = (path: string): DraftPath =>
  path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));

/**
 * "Your text typed after the submit" (issue 23): what this user typed in the week after it was
 * submitted is kept by the server, never silently dropped, and offered back here — to copy
 * while the week is in review, to put back in place (or dismiss) once it is editable again.
 * Asked again whenever the week turns read-only or editable, and once this device's late
 * changes are kept.
 */
export function LateTextNotice({ collab }: { collab: CollabWeek }) {
  const tc = useCollabT();
  const labels = useWeekLabels();
  const phase = useWatched(
    collab,
    (c) => {
      const s = c.status();
      if (s.kind === 'readOnly') return s.unsaved ? 'read-unsaved' : 'read';
      return s.kind === 'denied' || s.kind === 'replaced' ? 'off' : 'edit';
    },
    'off',
  );
  const [late, setLate] = useState<LateText | null>(null);
  useEffect(() => {
    if (phase === 'off') return;
    let live = true;
    weekApi
      .lateText(collab.weekId, { notify: false })
      .then((answer) => live && setLate(answer))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [collab.weekId, phase]);
  if (!late?.fields.length) return null;
  const editable = phase === 'edit';

  const forget = async () => {
    await weekApi.dismissLateText(collab.weekId);
    setLate(null);
  };
  const putBack = async (field: LateField) => {
    collab.draft.set(draftPathOf(field.path), field.text);
    const rest = late.fields.filter((f) => f !== field);
    if (rest.length) setLate({ fields: rest, chars: late.chars - [...field.added].length });
    else await forget();
  };

  return (
    <Alert
      color="yellow"
      icon={<IconHistoryToggle size={18} />}
      title={tc('late.title', { count: late.chars })}
      data-testid="late-text"
      data-chars={late.chars}
    >
      <Stack gap="xs">
        <Text size="sm">{editable ? tc('late.editableText') : tc('late.reviewText')}</Text>
        {late.fields.map((field) => (
          <Paper key={field.path} withBorder p="xs" radius="sm" data-testid="late-field" data-path={field.path}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Stack gap={2} miw={0}>
                <Text size="xs" c="dimmed">
                  {describePath(field.path, labels.pathLabels)}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  <Text span fw={600} c="orange.8" data-testid="late-added">
                    {field.added}
                  </Text>
                </Text>
                {field.text !== field.added && (
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                    {tc('late.whole', { text: field.text })}
                  </Text>
                )}
              </Stack>
              <Group gap={4} wrap="nowrap">
                <CopyButton value={field.added}>
                  {({ copied, copy }) => (
                    <Tooltip label={copied ? tc('late.copied') : tc('late.copy')} withArrow>
                      <ActionIcon
                        variant="subtle"
                        color={copied ? 'teal' : 'gray'}
                        onClick={copy}
                        aria-label={tc('late.copy')}
                      >
                        {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                      </ActionIcon>
                    </Tooltip>
                  )}
                </CopyButton>
                {editable && !field.rich && (
                  <Button
                    size="xs"
                    variant="light"
                    leftSection={<IconArrowBackUp size={14} />}
                    onClick={() => void putBack(field)}
                    data-testid="late-put-back"
                  >
                    {tc('late.putBack')}
                  </Button>
                )}
              </Group>
            </Group>
          </Paper>
        ))}
        {editable && (
          <Group>
            <Button size="xs" variant="default" onClick={() => void forget()} data-testid="late-dismiss">
              {tc('late.dismiss')}
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
