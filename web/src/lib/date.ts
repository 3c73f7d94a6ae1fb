import { website } from '../config/website';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Formats a date with yyyy, MM, dd, HH (24 h), hh (12 h), mm, ss and SSS
 * (default from configuration: `yyyy-MM-dd HH:mm:ss`, spec §9).
 */
export function formatDate(value: Date | number | string, pattern: string = website.dateFormat): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const tokens: Record<string, string> = {
    yyyy: String(date.getFullYear()),
    MM: pad(date.getMonth() + 1),
    dd: pad(date.getDate()),
    HH: pad(date.getHours()),
    hh: pad(date.getHours() % 12 || 12),
    mm: pad(date.getMinutes()),
    ss: pad(date.getSeconds()),
    SSS: pad(date.getMilliseconds(), 3),
  };
  return pattern.replace(/yyyy|MM|dd|HH|hh|mm|ss|SSS/g, (token) => tokens[token] ?? token);
}
