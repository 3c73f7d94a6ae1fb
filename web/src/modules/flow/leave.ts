/**
 * The leave form's rules, pure: the browser's `datetime-local` value as the server's text, the
 * days a request covers (calendar days, both ends counted), and what is wrong with a draft.
 */

/** `2026-12-01T08:30` → `2026-12-01 08:30:00`; '' stays ''. */
export function serverTime(local: string): string {
  if (!local) return '';
  const [day, time = '00:00'] = local.split('T');
  const hm = time.length === 5 ? `${time}:00` : time;
  return `${day} ${hm}`;
}

/** The days a request covers as the server counts them: the time between, in days, to 2 decimals (Mon 08:00 → Fri 08:00: 4). */
export function leaveDays(start: string, end: string): number | null {
  const parse = (text: string) => {
    const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
    return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0)) : null;
  };
  const a = parse(start);
  const b = parse(end);
  if (a === null || b === null) return null;
  return Math.round(((b - a) / 86_400_000) * 100) / 100;
}

export type LeaveProblem = 'timeRequired' | 'badRange' | 'reasonRequired' | 'taskUserRequired';

/** The first problem of a draft, by field (null: it may be sent). */
export function leaveProblems(draft: { startTime: string; endTime: string; reason: string; taskUser: string }) {
  const problems: Partial<Record<'startTime' | 'endTime' | 'reason' | 'taskUser', LeaveProblem>> = {};
  if (!draft.startTime) problems.startTime = 'timeRequired';
  if (!draft.endTime) problems.endTime = 'timeRequired';
  else if (draft.startTime && serverTime(draft.endTime) <= serverTime(draft.startTime)) problems.endTime = 'badRange';
  if (!draft.reason.trim()) problems.reason = 'reasonRequired';
  if (!draft.taskUser) problems.taskUser = 'taskUserRequired';
  return problems;
}

/** A duration's days, hours, minutes and seconds (the history's "took"). */
export function durationParts(ms: number) {
  const total = Math.max(0, Math.round(ms / 1000));
  return {
    d: Math.floor(total / 86_400),
    h: Math.floor((total % 86_400) / 3600),
    m: Math.floor((total % 3600) / 60),
    s: total % 60,
  };
}
