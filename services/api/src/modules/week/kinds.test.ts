import { describe, expect, it } from 'vitest';
import { DayPlanContentSchema, WeekContentSchema, WeekPlanContentSchema } from '@sprout/contracts';
import { t } from '@sprout/core/i18n';
import { titleOf } from '@sprout/core/records/kinds';
import './kinds';

const day = (date: string) => ({
  date,
  morning: '晨间律动',
  groupTeaching: '语言：秋天的信',
  regional: '',
  outdoor: '',
  life: '',
  afternoon: '',
  notes: '',
});
const week = {
  classId: '7',
  weekNo: 12,
  startDate: '2026-11-23',
  endDate: '2026-11-27',
  theme: '秋天的秘密',
  days: ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27'].map(day),
};

const problems = (r: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  (r.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`).sort();

describe('week content', () => {
  it('accepts a well-formed week, filling optional text with empty strings', () => {
    const r = WeekContentSchema.parse(week);
    expect(r.weeklyGoals).toBe('');
    expect(r.days).toHaveLength(5);
    expect(titleOf('week', r)).toBe('秋天的秘密');
  });

  it('names every problem: a missing theme, four days, an end before the start, a day outside the week', () => {
    const r = WeekContentSchema.safeParse({ ...week, theme: ' ', endDate: '2026-11-20', days: week.days.slice(0, 4) });
    expect(problems(r)).toEqual([
      'days: $records.fiveDays',
      'endDate: $records.endBeforeStart',
      'theme: $records.themeRequired',
    ]);
    const moved = week.days.map((d, i) => (i === 4 ? { ...d, date: '2026-11-30' } : d));
    expect(problems(WeekContentSchema.safeParse({ ...week, days: moved }))).toEqual([
      'days.4.date: $records.dayOutsideWeek',
    ]);
  });

  it('has every message in both languages', () => {
    for (const key of [
      'records.fiveDays',
      'records.themeRequired',
      'records.endBeforeStart',
      'records.dayOutsideWeek',
      'records.dateFormat',
    ])
      expect(t('en', key)).not.toBe(t('zh', key));
  });
});

describe('week plan and day plan content', () => {
  it('keeps domain (1–5) and activity type (1–4) to the spec’s enumerations', () => {
    const ok = { title: '树叶拓印', domain: 5, activityType: 1 };
    expect(WeekPlanContentSchema.parse(ok).weekId).toBeNull();
    expect(
      problems(WeekPlanContentSchema.safeParse({ ...ok, domain: 6, activityType: 0 })).map((p) => p.split(':')[0]),
    ).toEqual(['activityType', 'domain']);
  });

  it('needs at least one segment with a valid time', () => {
    const base = { classId: '7', date: '2026-11-23', variant: 'half' };
    expect(problems(DayPlanContentSchema.safeParse({ ...base, segments: [] }))).toEqual([
      'segments: $records.segmentsRequired',
    ]);
    const seg = { time: '8:00', segment: '晨间活动' };
    expect(problems(DayPlanContentSchema.safeParse({ ...base, segments: [seg] }))).toEqual([
      'segments.0.time: $records.timeFormat',
    ]);
    expect(
      DayPlanContentSchema.parse({ ...base, segments: [{ ...seg, time: '08:00-08:30' }] }).segments[0]?.content,
    ).toBe('');
  });
});
