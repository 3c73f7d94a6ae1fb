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

/** Calendar days from the start's day to the end's day, both counted (Dec 1 08:00 → Dec 4 17:00: 4). */
export function leaveDays(start: string, end: string): number | null {
  const a = /^(\d{4})-(\d{2})-(\d{2})/.exec(start);
  const b = /^(\d{4})-(\d{2})-(\d{2})/.exec(end);
  if (!a || !b) return null;
  const da = Date.UTC(Number(a[1]), Number(a[2]) - 1, Number(a[3]));
  const db = Date.UTC(Number(b[1]), Number(b[2]) - 1, Number(b[3]));
  return Math.round((db - da) / 86_400_000) + 1;
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
