import { isRichDoc, richToText } from './rich';
import type { HistoryChange } from '@sprout/contracts';
import type { RecordFamily } from '../define';

/** Events of the record lifecycle (services/core records) → the timeline's label key. */
const EVENT_KEYS: Record<string, string> = {
  RecordCreated: 'created',
  DraftUpdated: 'updated',
  RecordSubmitted: 'submitted',
  RecordApproved: 'approved',
  RecordReturned: 'returned',
  EditedDuringReview: 'reviewEdited',
  RecordMarkedExcellent: 'excellent',
  ExcellentMarkRemoved: 'unexcellent',
  RecordCollected: 'collected',
  CollectionCancelled: 'uncollected',
  RecordDeleted: 'deleted',
  // A parent's timeline: its lesson and day plans added and removed.
  ChildAdded: 'childAdded',
  ChildRemoved: 'childRemoved',
};

export type EventKey =
  | 'created'
  | 'updated'
  | 'submitted'
  | 'approved'
  | 'returned'
  | 'reviewEdited'
  | 'excellent'
  | 'unexcellent'
  | 'collected'
  | 'uncollected'
  | 'deleted'
  | 'childAdded'
  | 'childRemoved';

/** The label key of an event type, or null for a type this client does not know (shown raw). */
export function eventKey(type: string): EventKey | null {
  return (EVENT_KEYS[type] as EventKey | undefined) ?? null;
}

/** The colour of an event's bullet. */
export function eventColor(type: string): string {
  switch (eventKey(type)) {
    case 'approved':
    case 'excellent':
      return 'teal';
    case 'returned':
    case 'deleted':
      return 'red';
    case 'submitted':
      return 'blue';
    case 'reviewEdited':
      return 'orange';
    case 'childAdded':
      return 'cyan';
    default:
      return 'gray';
  }
}

export function splitPath(path: string): string[] {
  const parts = path
    .split(/[.[\]/]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts[0] === 'content') parts.shift();
  return parts;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !isRichDoc(v);

/**
 * A change of a whole object or list (a day, the days) → the leaf changes inside it that
 * differ, so the timeline says "周三 · 户外活动: 跳绳 → 拍球" rather than two JSON blobs.
 * Rich documents are leaves.
 */
export function flattenChange(change: HistoryChange, depth = 0): HistoryChange[] {
  const { before, after, path, authors } = change;
  const container = (v: unknown) => Array.isArray(v) || isPlainObject(v);
  if (depth < 4 && (container(before) || container(after)) && !isRichDoc(before) && !isRichDoc(after)) {
    const b = (container(before) ? before : {}) as Record<string, unknown>;
    const a = (container(after) ? after : {}) as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
    return keys.flatMap((key) =>
      JSON.stringify(b[key]) === JSON.stringify(a[key])
        ? []
        : flattenChange(
            { path: path ? `${path}.${key}` : key, before: b[key], after: a[key], ...(authors ? { authors } : {}) },
            depth + 1,
          ),
    );
  }
  return [change];
}

/** A value as one line of text for the timeline (rich documents as their text), shortened to `max` characters. */
export function formatValue(value: unknown, max = 160): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (isRichDoc(value)) text = richToText(value);
  else if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean') text = String(value);
  else if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number'))
    text = value.join('、');
  else text = JSON.stringify(value);
  text = text.replace(/\s*\n\s*/g, ' ⏎ ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** How the timeline names a field: translated labels for what it knows, the raw path otherwise. */
export interface PathLabels {
  field(name: string): string | null;
  /** Whether a path's values are stored files (attachment ids: shown by their names). */
  files?(path: string): boolean;
  day(index: number): string;
  segment(index: number): string;
}

export function describePath(path: string, labels: PathLabels): string {
  const parts = splitPath(path);
  const out: string[] = [];
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i] as string;
    const next = parts[i + 1];
    if ((part === 'days' || part === 'segments') && next !== undefined && /^\d+$/.test(next)) {
      out.push(part === 'days' ? labels.day(Number(next)) : labels.segment(Number(next)));
      i += 1;
      continue;
    }
    out.push(labels.field(part) ?? part);
  }
  return out.join(' · ') || path;
}

/** How a family's timeline names a changed field: its form's label (a per-domain column's too), else null. */
export function familyPathLabels(family: RecordFamily, translate: (key: string) => string): PathLabels {
  const columns = new Map<string, string>();
  for (const field of family.fields.values())
    for (const column of field.columns ?? []) columns.set(column.name, column.label);
  return {
    field: (name) => {
      const label = family.fields.get(name)?.label ?? columns.get(name);
      return label ? translate(label) : null;
    },
    day: (index) => String(index + 1),
    segment: (index) => String(index + 1),
    files: (path) => {
      const kind = family.fields.get(splitPath(path)[0] ?? '')?.kind;
      return kind === 'files' || kind === 'photos';
    },
  };
}
