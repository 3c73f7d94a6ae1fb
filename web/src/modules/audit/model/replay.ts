import type { FieldChange } from '../api';

/** The next version of a replay one step `by` (±1) from `at`, kept within 0…`last`. */
export const step = (at: number, by: number, last: number) => Math.max(0, Math.min(last, at + by));

/** A value as one line of text: strings as they are, the rest as JSON; absent as `empty`. */
export function showValue(value: unknown, empty: string): string {
  if (value === undefined || value === null || value === '') return empty;
  if (typeof value === 'string') return wallTime(value) ?? value;
  // A rich-text document: its words.
  if (typeof value === 'object' && (value as { type?: unknown }).type === 'doc') return textOf(value);
  return JSON.stringify(value);
}

/**
 * An instant as the events record it (`2026-11-21T09:40:00+08:00`: the tenant's wall time with
 * its offset) as the platform shows times, `2026-11-21 09:40:00`; null for any other text.
 */
export function wallTime(text: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?[+-]\d{2}:\d{2}$/.exec(text);
  return m ? `${m[1]} ${m[2]}` : null;
}

function textOf(node: unknown): string {
  if (!node || typeof node !== 'object') return '';
  const n = node as { text?: unknown; content?: unknown[] };
  if (typeof n.text === 'string') return n.text;
  return (n.content ?? []).map(textOf).join(n.content?.every((c) => (c as { text?: unknown }).text) ? '' : '\n');
}

/** Changes of a diff grouped under a rich-text field as one row per field (not per text node). */
export function diffRows(changes: FieldChange[], before: unknown, after: unknown) {
  const rows: Array<{ path: string; op: FieldChange['op']; from: unknown; to: unknown }> = [];
  const seen = new Set<string>();
  for (const c of changes) {
    const rich = richRoot(c.path, after) ?? richRoot(c.path, before);
    if (rich) {
      if (seen.has(rich)) continue;
      seen.add(rich);
      rows.push({ path: rich, op: 'changed', from: at(before, rich), to: at(after, rich) });
    } else rows.push(c);
  }
  return rows;
}

/** The value at a dotted path. */
export function at(value: unknown, path: string): unknown {
  let v = value;
  for (const k of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** The path of the rich-text document a changed path lies in, if any. */
function richRoot(path: string, value: unknown): string | null {
  const parts = path.split('.');
  for (let i = 1; i < parts.length; i++) {
    const p = parts.slice(0, i).join('.');
    const v = at(value, p);
    if (v && typeof v === 'object' && (v as { type?: unknown }).type === 'doc') return p;
  }
  return null;
}
