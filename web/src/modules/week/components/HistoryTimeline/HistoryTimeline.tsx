import { Alert, Anchor, Group, Loader, Stack, Text, Timeline } from '@mantine/core';
import {
  IconArrowBackUp,
  IconAward,
  IconCheck,
  IconEdit,
  IconPlus,
  IconSend,
  IconStar,
  IconTrash,
} from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { weekApi } from '../../api';
import { useCollabT } from '../../collab/i18n';
import { useLoad } from '../../hooks/useLoad';
import { useWeekLabels } from '../../hooks/useWeekLabels';
import { describePath, eventColor, eventKey, flattenChange, formatValue } from '../../model/history';
import type { HistoryEntry } from '../../model/types';
import classes from './HistoryTimeline.module.css';

const ICONS: Record<string, ReactNode> = {
  created: <IconPlus size={14} />,
  updated: <IconEdit size={14} />,
  submitted: <IconSend size={14} />,
  approved: <IconCheck size={14} />,
  returned: <IconArrowBackUp size={14} />,
  reviewEdited: <IconEdit size={14} />,
  excellent: <IconAward size={14} />,
  unexcellent: <IconAward size={14} />,
  collected: <IconStar size={14} />,
  uncollected: <IconStar size={14} />,
  deleted: <IconTrash size={14} />,
};

function Changes({ entry }: { entry: HistoryEntry }) {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  const [open, setOpen] = useState(entry.changes.length <= 3);
  const changes = entry.changes.flatMap((c) => flattenChange(c));
  if (changes.length === 0) return null;
  return (
    <Stack gap={4} mt={4}>
      <Anchor component="button" size="xs" onClick={() => setOpen((v) => !v)} ta="left">
        {open
          ? t('week.history.hideChanges')
          : `${t('week.history.changes', { count: changes.length })} · ${t('week.history.showChanges')}`}
      </Anchor>
      {open && (
        <Stack gap={6} className={classes.changes} data-testid="history-changes">
          {changes.map((change, i) => {
            const before = formatValue(change.before);
            const after = formatValue(change.after);
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: changes have no identity beyond their order
              <div key={i} className={classes.change}>
                <Text size="xs" c="dimmed" className={classes.path}>
                  {describePath(change.path, labels.pathLabels)}
                </Text>
                <Text size="xs">
                  <span className={classes.before}>{before || t('week.empty')}</span>
                  <span className={classes.arrow}> → </span>
                  <span className={classes.after}>{after || t('week.empty')}</span>
                </Text>
              </div>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}

/** A record's timeline (`GET /api/week/week/history?id=`): who did what when, with field diffs. */
export function HistoryTimeline({ id, refreshKey }: { id: string; refreshKey?: unknown }) {
  const { t } = useTranslation();
  const tc = useCollabT();
  const { data, loading, error } = useLoad(() => weekApi.history(id, { notify: false }), [id, refreshKey]);
  if (loading && !data) {
    return (
      <Group gap="xs" c="dimmed">
        <Loader size="xs" />
        <Text size="sm">{t('week.history.loading')}</Text>
      </Group>
    );
  }
  if (error && !data) return <Alert color="red">{t('week.history.failed')}</Alert>;
  const entries = [...(data ?? [])].reverse(); // newest first
  if (entries.length === 0) return <Text c="dimmed">{t('week.history.empty')}</Text>;
  return (
    <Timeline bulletSize={24} lineWidth={2} data-testid="history">
      {entries.map((entry) => {
        const key = eventKey(entry.type);
        return (
          <Timeline.Item
            key={`${entry.version}-${entry.type}`}
            bullet={key ? ICONS[key] : undefined}
            color={eventColor(entry.type)}
            data-testid="history-entry"
            data-type={entry.type}
            title={
              <Group gap={6}>
                <Text fw={600} size="sm" data-testid="history-actor">
                  {entry.actorName || entry.actorId}
                </Text>
                <Text size="sm">{key ? t(`week.history.events.${key}`) : entry.type}</Text>
              </Group>
            }
          >
            <Text size="xs" c="dimmed">
              {entry.time} · {t('week.history.version', { version: entry.version })}
            </Text>
            {entry.authors && entry.authors.length > 0 && (
              <Text size="xs" mt={2} data-testid="history-authors">
                {tc('historyAuthors', { names: entry.authors.map((a) => a.name || a.id).join('、') })}
              </Text>
            )}
            {entry.comment && (
              <Text size="sm" mt={4} className={classes.comment}>
                {t('week.history.comment', { comment: entry.comment })}
              </Text>
            )}
            <Changes entry={entry} />
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}
