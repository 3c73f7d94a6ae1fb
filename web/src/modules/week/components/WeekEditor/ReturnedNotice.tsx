import { Alert, List, Stack, Text } from '@mantine/core';
import type { HistoryEntry } from '@sprout/contracts';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { weekApi } from '../../api';
import { useWeekLabels } from '../../hooks/useWeekLabels';
import { describePath, flattenChange, formatValue } from '../../model/history';

/** The reviewer's edits during the last review: every `EditedDuringReview` after the last submission. */
export function reviewerEdits(history: readonly HistoryEntry[]) {
  let last = -1;
  history.forEach((e, i) => {
    if (e.type === 'RecordSubmitted') last = i;
  });
  return history
    .slice(last + 1)
    .filter((e) => e.type === 'EditedDuringReview')
    .flatMap((e) => e.changes.flatMap((c) => flattenChange(c)));
}

/**
 * At the top of a returned week's editor until it is submitted again: who returned it when,
 * the reviewer's comment, and the fields the reviewer changed during the review (each as
 * before → after), so the fix starts where the review ended.
 */
export function ReturnedNotice({
  weekId,
  reviewerName,
  reviewTime,
  comment,
}: {
  weekId: string;
  reviewerName: string;
  reviewTime: string;
  comment: string;
}) {
  const { t } = useTranslation();
  const labels = useWeekLabels();
  const history = useQuery({
    queryKey: ['record-history', 'week', weekId, 'returned', reviewTime],
    queryFn: () => weekApi.history(weekId, { notify: false }),
    retry: false,
  });
  const edits = reviewerEdits(history.data ?? []);
  const empty = t('week.returnedNotice.empty');
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconArrowBackUp size={18} />}
      title={t('week.returnedNotice.title')}
      data-testid="week-returned-notice"
    >
      <Stack gap={6}>
        <Text size="xs" c="dimmed">
          {t('week.returnedNotice.by', { name: reviewerName, time: reviewTime })}
        </Text>
        {comment && (
          <Text size="sm" fw={500} style={{ whiteSpace: 'pre-wrap' }} data-testid="week-returned-comment">
            {t('week.returnedNotice.comment', { comment })}
          </Text>
        )}
        {edits.length > 0 && (
          <div data-testid="week-returned-edits">
            <Text size="sm">{t('week.returnedNotice.edits')}</Text>
            <List size="sm" spacing={2}>
              {edits.map((c, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: changes have no identity beyond their order
                <List.Item key={i}>
                  {t('week.returnedNotice.change', {
                    field: describePath(c.path, labels.pathLabels),
                    before: formatValue(c.before, 60) || empty,
                    after: formatValue(c.after, 60) || empty,
                  })}
                </List.Item>
              ))}
            </List>
          </div>
        )}
      </Stack>
    </Alert>
  );
}
