import { addDays, suggestWeekNo } from './weekDates';

/** A class's existing week as the new-week form sees it. */
export interface TakenWeek {
  id: string;
  weekNo: number;
  startDate: string;
  title: string;
  status: string;
}

/** The existing week holding the class's week number, if any (one class has one plan per week). */
export function takenBy(taken: readonly TakenWeek[], weekNo: number): TakenWeek | null {
  return taken.find((w) => w.weekNo === weekNo) ?? null;
}

/**
 * The next week without a plan, from `startDate` on: the first Monday (stepping a week at a
 * time, at most 30) whose suggested number and dates no existing week holds. Its start date
 * and week number; the first week when every one is taken.
 */
export function proposeSlot(taken: readonly TakenWeek[], startDate: string): { startDate: string; weekNo: number } {
  const numbers = new Set(taken.map((w) => w.weekNo));
  const starts = new Set(taken.map((w) => w.startDate));
  for (let i = 0; i < 30; i++) {
    const start = addDays(startDate, 7 * i);
    const weekNo = suggestWeekNo(start);
    if (!numbers.has(weekNo) && !starts.has(start)) return { startDate: start, weekNo };
    if (weekNo >= 30) break;
  }
  return { startDate, weekNo: suggestWeekNo(startDate) };
}
