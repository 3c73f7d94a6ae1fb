/**
 * Dates as the API writes them (spec §9): `yyyy-MM-dd HH:mm:ss` (a date alone `yyyy-MM-dd`), in
 * the browser's clock. The kit's date pickers (DateField.tsx) keep the form's value this text,
 * so a record's detail and its `submit` body round-trip unchanged. Pure: no React, no Mantine.
 */

const TEXT = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const two = (n: number) => String(n).padStart(2, '0');

/** The date of a server text (`yyyy-MM-dd`, `… HH:mm` or `… HH:mm:ss`); null when empty or no real date (02-30, 25:00). */
export function fromDateText(text: unknown): Date | null {
  if (typeof text !== 'string') return null;
  const m = TEXT.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1).map((part) => (part === undefined ? undefined : Number(part)));
  const date = new Date(y as number, (mo as number) - 1, d as number, h, mi, s);
  const same =
    date.getFullYear() === y &&
    date.getMonth() === (mo as number) - 1 &&
    date.getDate() === d &&
    date.getHours() === h &&
    date.getMinutes() === mi &&
    date.getSeconds() === s;
  return same ? date : null;
}

/** A date as the server's text: `yyyy-MM-dd HH:mm:ss` (or `yyyy-MM-dd` without the time); '' for none. */
export function toDateText(date: Date | null | undefined, withTime = true): string {
  if (!date || Number.isNaN(date.getTime())) return '';
  const day = `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
  return withTime ? `${day} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}` : day;
}

/** The picker's value of a form value: the full text, or null when it holds no date (a wrong text shows empty). */
export function pickerValue(value: unknown, withTime = true): string | null {
  const date = fromDateText(value);
  return date ? toDateText(date, withTime) : null;
}

/** What the form keeps of a picked value (the picker's `YYYY-MM-DD HH:mm:ss` text, or a Date): the server's text. */
export function formValueOf(picked: string | Date | null | undefined, withTime = true): string {
  if (picked instanceof Date) return toDateText(picked, withTime);
  return toDateText(fromDateText(picked ?? ''), withTime);
}

/** Now, as the server's text (a new record's release time). */
export const nowText = (): string => toDateText(new Date());

/** The list parameters of a range search of `prop` (`<prop>_dategt` / `<prop>_datelt`). */
export const rangeKeys = (prop: string) => [`${prop}_dategt`, `${prop}_datelt`] as const;

/**
 * A range of picked days as the bounds a list call sends: from the first day's 00:00:00 to the
 * last day's 23:59:59 (a range of one day is that whole day); an unpicked end sends nothing.
 */
export function rangeBounds(from: unknown, to: unknown): [string, string] {
  const start = fromDateText(from);
  const end = fromDateText(to);
  return [start ? `${toDateText(start, false)} 00:00:00` : '', end ? `${toDateText(end, false)} 23:59:59` : ''];
}
