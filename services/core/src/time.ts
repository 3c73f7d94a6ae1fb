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

export function formatDateTime(d: Date | null | undefined, timeZone: string): string | null {
  if (!d) return null;
  const p: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(d)) p[part.type] = part.value;
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
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
  // Wall time in the zone → instant: subtract the zone's offset at (about) that instant.
  const offset = zoneOffsetMs(asUtc, timeZone);
  const guess = asUtc - offset;
  return new Date(asUtc - zoneOffsetMs(guess, timeZone));
}

function zoneOffsetMs(utcMs: number, timeZone: string) {
  const p: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(utcMs))) p[part.type] = part.value;
  const wall = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!);
  return wall - Math.floor(utcMs / 1000) * 1000;
}
