import { describe, expect, it } from 'vitest';
import {
  addDays,
  isYmd,
  mondayOf,
  nextWeekRange,
  previousSemester,
  recentSemesters,
  semesterOf,
  suggestWeekNo,
  weekDayDates,
  weekdayIndex,
} from './weekDates';

describe('week dates', () => {
  it('defaults a new plan to Monday–Friday of next week', () => {
    // Wednesday 18 Nov 2026 → 23–27 Nov.
    expect(nextWeekRange('2026-11-18')).toEqual({ startDate: '2026-11-23', endDate: '2026-11-27' });
    // On a Sunday the next week is the one starting the next day.
    expect(nextWeekRange('2026-11-22')).toEqual({ startDate: '2026-11-23', endDate: '2026-11-27' });
    // On a Monday, not the same week.
    expect(nextWeekRange('2026-11-23')).toEqual({ startDate: '2026-11-30', endDate: '2026-12-04' });
    // Across a year end.
    expect(nextWeekRange('2026-12-30')).toEqual({ startDate: '2027-01-04', endDate: '2027-01-08' });
  });

  it('computes day dates, Mondays and weekdays without time-zone drift', () => {
    expect(weekDayDates('2027-02-26')).toEqual(['2027-02-26', '2027-02-27', '2027-02-28', '2027-03-01', '2027-03-02']);
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(mondayOf('2026-11-22')).toBe('2026-11-16');
    expect(weekdayIndex('2026-11-16')).toBe(0);
    expect(weekdayIndex('2026-11-22')).toBe(6);
  });

  it('validates yyyy-MM-dd strictly', () => {
    expect(isYmd('2026-02-28')).toBe(true);
    expect(isYmd('2026-02-30')).toBe(false);
    expect(isYmd('2026-2-3')).toBe(false);
    expect(isYmd(20260203)).toBe(false);
  });

  it('derives the semester as the server does (Aug–Jan term 1, Feb–Jul term 2)', () => {
    expect(semesterOf('2026-08-01')).toBe('2026-2027-1');
    expect(semesterOf('2026-11-16')).toBe('2026-2027-1');
    expect(semesterOf('2027-01-31')).toBe('2026-2027-1');
    expect(semesterOf('2027-02-01')).toBe('2026-2027-2');
    expect(semesterOf('2027-07-31')).toBe('2026-2027-2');
    expect(previousSemester('2026-2027-1')).toBe('2025-2026-2');
    expect(previousSemester('2026-2027-2')).toBe('2026-2027-1');
    expect(recentSemesters('2026-11-18', 3)).toEqual(['2026-2027-1', '2025-2026-2', '2025-2026-1']);
  });

  it('suggests a week number within the semester, clamped to 1–30', () => {
    // 1 Sep 2026 is a Tuesday: the week of 31 Aug is week 1.
    expect(suggestWeekNo('2026-08-31')).toBe(1);
    expect(suggestWeekNo('2026-09-07')).toBe(2);
    expect(suggestWeekNo('2026-11-23')).toBe(13);
    expect(suggestWeekNo('2026-08-03')).toBe(1); // before the first week
    expect(suggestWeekNo('2027-02-15')).toBe(1);
  });
});
