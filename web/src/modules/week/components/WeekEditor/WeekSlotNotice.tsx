import { Alert, Button, Group, Text } from '@mantine/core';
import { IconCalendarExclamation } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { isEditableStatus } from '@sprout/contracts';
import { Link } from 'react-router-dom';
import { weekApi } from '../../api';
import { useDraftValue } from '../../hooks/useDraft';
import { useLoad } from '../../hooks/useLoad';
import type { Draft } from '../../model/draft';
import type { WeekContent } from '../../model/types';
import { isYmd, semesterOf, weekDayDates } from '../../model/weekDates';
import { proposeSlot, type TakenWeek, takenBy } from '../../model/weekSlot';
import { detailsHref, editorHref } from '../../paths';

/**
 * A new week's slot (issue 23: one class has one plan per week): once a class is chosen, the
 * form moves to the next week without a plan of that class; a week number that already has
 * one is named, with a button opening it (the server refuses a second one anyway).
 */
export function WeekSlotNotice({ draft }: { draft: Draft<WeekContent> }) {
  const { t } = useTranslation();
  const classId = useDraftValue<string>(draft, ['classId']) ?? '';
  const weekNo = useDraftValue<number>(draft, ['weekNo']) ?? 0;
  const startDate = useDraftValue<string>(draft, ['startDate']) ?? '';
  const semester = isYmd(startDate) ? semesterOf(startDate) : '';
  const { data: taken } = useLoad(
    async () => {
      const page = await weekApi.list({ current: 1, size: 200 }, { classId, semester }, { notify: false });
      return page.records.map(
        (r): TakenWeek => ({
          id: r.id,
          weekNo: Number(r.summary?.weekNo ?? 0),
          startDate: String(r.summary?.startDate ?? ''),
          title: r.title,
          status: r.status,
        }),
      );
    },
    [classId, semester],
    Boolean(classId && semester),
  );
  // The first answer for a class moves an untouched form to the class's next free week; a
  // week number the teacher typed before the answer came is hers (the notice then names its plan).
  const proposed = useRef(new Set<string>());
  const firstWeekNo = useRef<number | undefined>(undefined);
  if (firstWeekNo.current === undefined && weekNo) firstWeekNo.current = weekNo;
  useEffect(() => {
    if (!taken || !classId || proposed.current.has(classId)) return;
    proposed.current.add(classId);
    // The draft as it is now, not as this render saw it: a number typed between the render
    // and this effect is the teacher's, and stays.
    const now = draft.snapshot();
    if (now.weekNo !== firstWeekNo.current || !takenBy(taken, Number(now.weekNo) || 0)) return;
    // A default, not the teacher's edit: the form stays unsaved (and quiet) until she writes.
    draft.replace(withSlot(now, proposeSlot(taken, now.startDate ?? startDate)));
  }, [taken, classId, startDate, draft]);

  const holder = taken && classId ? takenBy(taken, weekNo) : null;
  // The class's weeks are known and this one is free (a marker the journeys wait for).
  if (!holder) return taken && classId ? <span hidden data-testid="week-slot-free" /> : null;
  const open = isEditableStatus(holder.status as never) ? editorHref(holder.id) : detailsHref(holder.id);
  return (
    <Alert mb="md" color="orange" icon={<IconCalendarExclamation size={18} />} data-testid="week-slot-taken">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm">{t('week.editor.slotTaken', { weekNo, theme: holder.title })}</Text>
        <Button size="xs" variant="light" color="orange" component={Link} to={open} data-testid="week-slot-open">
          {t('week.editor.slotOpen')}
        </Button>
      </Group>
    </Alert>
  );
}

/** The content moved to another week: its number, its dates and each day's date. */
function withSlot(content: WeekContent, slot: { startDate: string; weekNo: number }): WeekContent {
  const dates = weekDayDates(slot.startDate);
  const days = (content.days ?? []).map((day, i) => (dates[i] ? { ...day, date: dates[i] } : day));
  return { ...content, weekNo: slot.weekNo, startDate: slot.startDate, endDate: dates[4] ?? content.endDate, days };
}
