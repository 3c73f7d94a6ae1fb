/** ISO 8601 durations and dates for timers and due dates (no library: the subset is small). */

const DURATION = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** Milliseconds of an ISO 8601 duration (`P3D`, `PT1H30M`, `P1W`; a year is 365 days, a month 30), or null. */
export function durationMs(text: string): number | null {
  const m = DURATION.exec(text.trim());
  if (!m || text.trim() === 'P' || text.trim().endsWith('T')) return null;
  const [, y, mo, w, d, h, mi, s] = m.map((v) => (v === undefined ? 0 : Number(v))) as number[];
  const days = (y ?? 0) * 365 + (mo ?? 0) * 30 + (w ?? 0) * 7 + (d ?? 0);
  return ((days * 24 + (h ?? 0)) * 60 + (mi ?? 0)) * 60_000 + (s ?? 0) * 1000;
}

/** A date-time with a zone or offset (`2026-12-01T08:00:00Z`, `…+08:00`), as epoch ms, or null. */
export function dateMs(text: string): number | null {
  const t = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(t)) return null;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? null : ms;
}

/** When a timer or due date given as a duration or a date falls, from `now`. */
export function dueAt(kind: 'duration' | 'date', value: string, now: number): number | null {
  if (kind === 'date') return dateMs(value);
  const ms = durationMs(value);
  return ms === null ? null : now + ms;
}
