/** Times leave the server as `yyyy-MM-dd HH:mm:ss` in the configured zone (spec §9). */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

function wallParts(utcMs: number, timeZone: string) {
  const p: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(utcMs))) p[part.type] = part.value;
  return p;
}

/**
 * The zone's UTC offset at an instant. Offsets change at most on quarter-hour boundaries, and
 * no zone changes its offset twice within six hours: a six-hour span whose first and last
 * quarter hours have the same offset has it throughout. So offsets are cached per zone and
 * six-hour span (a year of record times is 1,460 entries, Intl runs once each), and only a
 * span holding a change (a DST day) is looked up per quarter hour.
 */
const QUARTER_MS = 15 * 60 * 1000;
const SPAN_MS = 6 * 60 * 60 * 1000;
/** A span's offset, or `MIXED` when it changes inside the span. */
const MIXED = Number.NaN;
const spans = new Map<string, Map<number, number>>();
const quarters = new Map<string, Map<number, number>>();

function cacheOf(all: Map<string, Map<number, number>>, timeZone: string): Map<number, number> {
  let zone = all.get(timeZone);
  if (!zone) {
    if (all.size >= 1000) all.clear();
    zone = new Map();
    all.set(timeZone, zone);
  }
  if (zone.size >= 10_000) zone.clear();
  return zone;
}

function offsetAt(at: number, timeZone: string): number {
  const p = wallParts(at, timeZone);
  return Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!) - at;
}

function zoneOffsetMs(utcMs: number, timeZone: string): number {
  const span = Math.floor(utcMs / SPAN_MS);
  const inSpan = cacheOf(spans, timeZone);
  let off = inSpan.get(span);
  if (off === undefined) {
    const first = offsetAt(span * SPAN_MS, timeZone);
    off = offsetAt((span + 1) * SPAN_MS - QUARTER_MS, timeZone) === first ? first : MIXED;
    inSpan.set(span, off);
  }
  if (!Number.isNaN(off)) return off;
  const quarter = Math.floor(utcMs / QUARTER_MS);
  const inQuarter = cacheOf(quarters, timeZone);
  let exact = inQuarter.get(quarter);
  if (exact === undefined) {
    exact = offsetAt(quarter * QUARTER_MS, timeZone);
    inQuarter.set(quarter, exact);
  }
  return exact;
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

const DAY_MS = 86_400_000;
/** `yyyy-MM-dd ` by local day number (days since 1970-01-01 in wall time): lists repeat days. */
const dayTexts = new Map<number, string>();

export function formatDateTime(d: Date | null | undefined, timeZone: string): string | null {
  if (!d) return null;
  const ms = d.getTime();
  if (Number.isNaN(ms)) return null;
  const wall = ms + zoneOffsetMs(ms, timeZone);
  const day = Math.floor(wall / DAY_MS);
  let date = dayTexts.get(day);
  if (date === undefined) {
    const w = new Date(day * DAY_MS);
    date = `${w.getUTCFullYear()}-${pad(w.getUTCMonth() + 1)}-${pad(w.getUTCDate())} `;
    if (dayTexts.size >= 10_000) dayTexts.clear();
    dayTexts.set(day, date);
  }
  const s = Math.floor((wall - day * DAY_MS) / 1000);
  return `${date}${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** Parses `yyyy-MM-dd[ HH:mm[:ss]]` as wall time in `timeZone`; undefined when malformed. */
export function parseDateTime(text: string, timeZone: string): Date | undefined {
  const m = DATE_TIME.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00'] = m;
  const asUtc = Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +s);
  const check = new Date(asUtc);
  if (check.getUTCMonth() !== +mo! - 1 || check.getUTCDate() !== +d! || +h > 23 || +mi > 59 || +s > 59)
    return undefined;
  // Wall time → instant: subtract the zone's offset, re-evaluated at the candidate instant.
  const guess = asUtc - zoneOffsetMs(asUtc, timeZone);
  return new Date(asUtc - zoneOffsetMs(guess, timeZone));
}

/**
 * An instant as ISO 8601 wall time in `timeZone` with its offset (`2026-11-21T09:40:00+08:00`):
 * what events record as `at`, so the local date (its first ten characters) needs no zone.
 */
export function isoInZone(d: Date, timeZone: string): string {
  const ms = d.getTime();
  const off = zoneOffsetMs(ms, timeZone);
  const w = new Date(ms + off);
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off) / 60_000;
  return `${w.getUTCFullYear()}-${pad(w.getUTCMonth() + 1)}-${pad(w.getUTCDate())}T${pad(w.getUTCHours())}:${pad(w.getUTCMinutes())}:${pad(w.getUTCSeconds())}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * A demo's instant as it may be shown: never after `now`. A time in the future moves into the
 * hour before `now`, keeping the order of the times it moves (later stays later), so a seeded
 * history reads in the order it happened and never lies ahead of the clock.
 */
export function notAfter(d: Date, now: Date): Date {
  const ahead = d.getTime() - now.getTime();
  if (ahead <= 0) return d;
  const hour = 3_600_000;
  return new Date(now.getTime() - Math.round(hour * Math.exp(-ahead / (7 * 86_400_000))));
}

/** The local calendar date (`yyyy-MM-dd`) of an instant in `timeZone`. */
export const localDate = (d: Date, timeZone: string) => isoInZone(d, timeZone).slice(0, 10);

/** `yyyy-MM-dd` ± days (calendar arithmetic, no zone involved). */
export function addDays(date: string, days: number): string {
  const t = Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** The Monday of the week a `yyyy-MM-dd` date falls in. */
export function mondayOf(date: string): string {
  const dow = new Date(`${date}T00:00:00Z`).getUTCDay(); // 0 Sunday
  return addDays(date, -((dow + 6) % 7));
}
