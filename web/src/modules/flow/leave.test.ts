import { describe, expect, it } from 'vitest';
import { durationParts, leaveDays, leaveProblems, serverTime } from './leave';

describe('the leave form', () => {
  it('given the browser picker values, then the server gets its yyyy-MM-dd HH:mm:ss text', () => {
    expect(serverTime('2026-12-01T08:30')).toBe('2026-12-01 08:30:00');
    expect(serverTime('')).toBe('');
  });

  it('given Monday 08:00 to Friday 08:00, then the request covers 4 days (more than 3: the principal approves too)', () => {
    expect(leaveDays('2026-12-07 08:00:00', '2026-12-11 08:00:00')).toBe(4);
    expect(leaveDays('2026-12-01 08:00:00', '2026-12-01 20:00:00')).toBe(0.5);
    expect(leaveDays('2026-12-01 08:00:00', 'later')).toBeNull();
  });

  it('given an end before the start, no reason and no approver, then each field says what is wrong', () => {
    expect(
      leaveProblems({ startTime: '2026-12-02T08:00', endTime: '2026-12-01T08:00', reason: ' ', taskUser: '' }),
    ).toEqual({ endTime: 'badRange', reason: 'reasonRequired', taskUser: 'taskUserRequired' });
    expect(
      leaveProblems({ startTime: '2026-12-01T08:00', endTime: '2026-12-04T17:00', reason: '看病', taskUser: '7' }),
    ).toEqual({});
  });

  it('given a step that took a day, two hours and three seconds, then its parts say so', () => {
    expect(durationParts(86_400_000 + 7_200_000 + 3_000)).toEqual({ d: 1, h: 2, m: 0, s: 3 });
  });
});
