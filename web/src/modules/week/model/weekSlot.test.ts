import { describe, expect, it } from 'vitest';
import { suggestWeekNo } from './weekDates';
import { proposeSlot, type TakenWeek, takenBy } from './weekSlot';

const week = (weekNo: number, startDate: string): TakenWeek => ({
  id: `w${weekNo}`,
  weekNo,
  startDate,
  title: `第${weekNo}周`,
  status: 'draft',
});

describe('the new week’s slot', () => {
  it('proposes next week when it has no plan', () => {
    expect(proposeSlot([], '2026-11-23')).toEqual({ startDate: '2026-11-23', weekNo: suggestWeekNo('2026-11-23') });
  });

  it('skips weeks that have a plan, by number or by dates', () => {
    const n = suggestWeekNo('2026-11-23');
    expect(proposeSlot([week(n, '2026-11-23')], '2026-11-23')).toEqual({ startDate: '2026-11-30', weekNo: n + 1 });
    // A plan numbered otherwise but on those dates holds them too.
    expect(proposeSlot([week(3, '2026-11-23'), week(n + 1, '2026-12-07')], '2026-11-23')).toEqual({
      startDate: '2026-12-14',
      weekNo: n + 3,
    });
  });

  it('names the week holding a number', () => {
    const taken = [week(12, '2026-11-23')];
    expect(takenBy(taken, 12)?.id).toBe('w12');
    expect(takenBy(taken, 13)).toBeNull();
  });
});
