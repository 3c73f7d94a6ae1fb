import { Text } from '@mantine/core';
import { HistoryTimeline as KitHistoryTimeline } from '../../../../kit/records/components/HistoryTimeline';
import { weekApi } from '../../api';
import { useCollabT } from '../../collab/i18n';
import { useWeekLabels } from '../../hooks/useWeekLabels';

/**
 * A week record's timeline (`GET /api/week/week/history?id=`): the record-family kit's timeline
 * with field diffs, in the week's wording (`week.history.*`) and labels (days, slots), plus the
 * co-authors of a collaborative submission.
 */
export function HistoryTimeline({ id, refreshKey }: { id: string; refreshKey?: unknown }) {
  const tc = useCollabT();
  const labels = useWeekLabels();
  return (
    <KitHistoryTimeline
      queryKey={['week', id, refreshKey]}
      load={() => weekApi.history(id, { notify: false })}
      labels={labels.pathLabels}
      texts="week.history"
      streamId={id}
      extra={(entry) =>
        entry.authors && entry.authors.length > 0 ? (
          <Text size="xs" mt={2} data-testid="history-authors">
            {tc('historyAuthors', { names: entry.authors.map((a) => a.name || a.id).join('、') })}
          </Text>
        ) : null
      }
    />
  );
}
