/**
 * Calendar helpers of the lesson plans, on plain `yyyy-MM-dd` strings (UTC arithmetic, so
 * no time zone or daylight-saving step moves a date).
 */

const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isYmd(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = YMD.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

function toUtc(ymd: string): Date {
  const m = YMD.exec(ymd);
  if (!m) throw new Error(`not a date: ${ymd}`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
}

function fromUtc(d: Date): string {
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** The local calendar date of a moment as `yyyy-MM-dd`. */
export function localYmd(date: Date = new Date()): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

export function addDays(ymd: string, days: number): string {
  const d = toUtc(ymd);
  d.setUTCDate(d.getUTCDate() + days);
  return fromUtc(d);
}

/** 0 = Monday … 6 = Sunday. */
export function weekdayIndex(ymd: string): number {
  return (toUtc(ymd).getUTCDay() + 6) % 7;
}

/** The Monday of the week a date is in (ISO weeks start on Monday). */
export function mondayOf(ymd: string): string {
  return addDays(ymd, -weekdayIndex(ymd));
}

/** Monday to Friday of the week after `today`: the default dates of a new week plan. */
export function nextWeekRange(today: string): { startDate: string; endDate: string } {
  const startDate = addDays(mondayOf(today), 7);
  return { startDate, endDate: addDays(startDate, 4) };
}

/** The five day dates of a week starting at `startDate`. */
export function weekDayDates(startDate: string): string[] {
  return Array.from({ length: 5 }, (_, i) => addDays(startDate, i));
}

/**
 * The semester a date falls in, as the server derives it: August–January →
 * `YYYY-(YYYY+1)-1`, February–July → `(YYYY-1)-YYYY-2` (January belongs to the autumn
 * semester that began the August before).
 */
export function semesterOf(ymd: string): string {
  const d = toUtc(ymd);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth() + 1;
  if (month >= 8) return `${year}-${year + 1}-1`;
  if (month === 1) return `${year - 1}-${year}-1`;
  return `${year - 1}-${year}-2`;
}

/** The semester before `semester` (`2026-2027-1` → `2025-2026-2`). */
export function previousSemester(semester: string): string {
  const m = /^(\d{4})-(\d{4})-([12])$/.exec(semester);
  if (!m) return semester;
  const from = Number(m[1]);
  return m[3] === '2' ? `${from}-${from + 1}-1` : `${from - 1}-${from}-2`;
}

/** The current semester and the ones before it, newest first (list filters). */
export function recentSemesters(today: string, count = 6): string[] {
  const out = [semesterOf(today)];
  while (out.length < count) out.push(previousSemester(out[out.length - 1] as string));
  return out;
}

/** The parts of a semester code, for labels: `{from: 2026, to: 2027, term: 1}`. */
export function parseSemester(semester: string): { from: number; to: number; term: 1 | 2 } | null {
  const m = /^(\d{4})-(\d{4})-([12])$/.exec(semester);
  return m ? { from: Number(m[1]), to: Number(m[2]), term: m[3] === '1' ? 1 : 2 } : null;
}

/**
 * The first Monday of a semester's teaching weeks: the week holding 1 September (autumn)
 * or 15 February (spring). Kindergartens' calendars differ; this only suggests a number.
 */
export function semesterFirstMonday(semester: string): string | null {
  const s = parseSemester(semester);
  if (!s) return null;
  return s.term === 1 ? mondayOf(`${s.from}-09-01`) : mondayOf(`${s.to}-02-15`);
}

/** A suggested week number (1–30) for a week starting at `startDate`. */
export function suggestWeekNo(startDate: string): number {
  const first = semesterFirstMonday(semesterOf(startDate));
  if (!first) return 1;
  const weeks = Math.floor((toUtc(mondayOf(startDate)).getTime() - toUtc(first).getTime()) / (7 * 86_400_000)) + 1;
  return Math.min(30, Math.max(1, weeks));
}
