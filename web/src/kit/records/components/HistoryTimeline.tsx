import { Alert, Loader, Text, Timeline } from '@mantine/core';
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
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FamilyApi } from '../api';

/** Events of the record lifecycle (services/core records) → the timeline's label key, icon and colour. */
const EVENTS: Record<string, { key: string; icon: ReactNode; color: string }> = {
  RecordCreated: { key: 'created', icon: <IconPlus size={12} />, color: 'gray' },
  DraftUpdated: { key: 'edited', icon: <IconEdit size={12} />, color: 'blue' },
  RecordSubmitted: { key: 'submitted', icon: <IconSend size={12} />, color: 'orange' },
  RecordApproved: { key: 'approved', icon: <IconCheck size={12} />, color: 'teal' },
  RecordReturned: { key: 'returned', icon: <IconArrowBackUp size={12} />, color: 'red' },
  EditedDuringReview: { key: 'reviewEdited', icon: <IconEdit size={12} />, color: 'orange' },
  RecordMarkedExcellent: { key: 'excellent', icon: <IconAward size={12} />, color: 'yellow' },
  ExcellentMarkRemoved: { key: 'unexcellent', icon: <IconAward size={12} />, color: 'gray' },
  RecordCollected: { key: 'collected', icon: <IconStar size={12} />, color: 'orange' },
  CollectionCancelled: { key: 'uncollected', icon: <IconStar size={12} />, color: 'gray' },
  RecordDeleted: { key: 'removed', icon: <IconTrash size={12} />, color: 'gray' },
};

/** A record's timeline: who did what when, the comment of a review, how many fields an edit changed. */
export function HistoryTimeline({ api, id, version }: { api: FamilyApi; id: string; version: number }) {
  const { t } = useTranslation();
  const history = useQuery({
    queryKey: ['record-history', id, version],
    queryFn: () => api.history(id, { notify: false }),
    enabled: api.has('history'),
    retry: false,
  });
  if (!api.has('history')) return null;
  if (history.isPending) return <Loader size="sm" />;
  if (history.isError) return <Alert color="gray">{t('records.details.historyFailed')}</Alert>;
  const entries = [...history.data].reverse();
  if (entries.length === 0) return <Text c="dimmed">{t('records.details.historyEmpty')}</Text>;
  return (
    <Timeline bulletSize={22} lineWidth={2} data-testid="history">
      {entries.map((entry) => {
        const known = EVENTS[entry.type];
        return (
          <Timeline.Item
            key={`${entry.version}-${entry.type}-${entry.time}`}
            bullet={known?.icon ?? <IconEdit size={12} />}
            color={known?.color ?? 'gray'}
            title={
              known ? t(`records.history.${known.key}` as never) : t('records.history.other', { type: entry.type })
            }
            data-testid="history-entry"
            data-type={known?.key ?? entry.type}
          >
            <Text size="xs" c="dimmed">
              {entry.actorName} · {entry.time}
            </Text>
            {entry.comment ? <Text size="sm">{entry.comment}</Text> : null}
            {entry.changes.length > 0 ? (
              <Text size="xs" c="dimmed">
                {t('records.history.changed', { count: entry.changes.length })}
              </Text>
            ) : null}
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}
