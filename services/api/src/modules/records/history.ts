import { type Kysely, sql } from 'kysely';
import {
  type HistoryChange,
  type HistoryEntry,
  PLAN_RICH_FIELDS,
  type RichText,
  richToText,
  WEEK_RICH_FIELDS,
} from '@sprout/contracts';
import type { DB } from '@sprout/core/db';
import { readStream } from '@sprout/core/events';
import type { RecordEvent } from '@sprout/core/records';
import { formatDateTime } from '@sprout/core/time';

/** Content fields holding rich text, per family: diffs show their text, not the editor's JSON. */
const RICH_FIELDS = new Set<string>([...WEEK_RICH_FIELDS, ...PLAN_RICH_FIELDS]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const richDoc = (v: unknown) => isObject(v) && v.type === 'doc';
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Field-level changes between two versions of a record's content, as a person reads them:
 * rich text as its text, rows of a grid (days, segments) cell by cell.
 */
export function contentChanges(before: unknown, after: unknown, path = ''): HistoryChange[] {
  const at = (k: string | number) => (path ? `${path}.${k}` : String(k));
  if (isObject(before) && isObject(after) && !richDoc(before) && !richDoc(after)) {
    const out: HistoryChange[] = [];
    for (const k of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
      const a = before[k];
      const b = after[k];
      if (same(a, b)) continue;
      if (RICH_FIELDS.has(k) || richDoc(a) || richDoc(b)) {
        const ta = richToText(a as RichText);
        const tb = richToText(b as RichText);
        if (ta !== tb) out.push({ path: at(k), before: ta, after: tb });
      } else out.push(...contentChanges(a, b, at(k)));
    }
    return out;
  }
  if (Array.isArray(before) && Array.isArray(after) && [...before, ...after].every(isObject)) {
    const out: HistoryChange[] = [];
    for (let i = 0; i < Math.max(before.length, after.length); i++)
      out.push(...contentChanges(before[i] ?? {}, after[i] ?? {}, at(i)));
    return out;
  }
  return same(before, after) ? [] : [{ path: path || '$', before: before ?? null, after: after ?? null }];
}

/** A record's timeline from its event stream: who did what when, with the fields each edit changed. */
export async function recordTimeline(
  trx: Kysely<DB>,
  tenantId: string,
  id: string,
  tz: string,
): Promise<HistoryEntry[]> {
  const events = await readStream(trx, tenantId, id);
  const authorIds = new Set<string>();
  for (const e of events) for (const a of (e.data as { authors?: string[] }).authors ?? []) authorIds.add(String(a));
  const names = new Map<string, string>();
  if (authorIds.size)
    for (const u of await trx
      .selectFrom('app_user')
      .select(['id', sql<string>`coalesce(nullif(real_name, ''), nullif(name, ''), account)`.as('name')])
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', [...authorIds])
      .execute())
      names.set(String(u.id), u.name);
  let content: unknown = null;
  const out: HistoryEntry[] = [];
  for (const raw of events) {
    const e = raw as unknown as RecordEvent<unknown> & { streamVersion: number; recordedAt: Date };
    const d = e.data as {
      actorId: string;
      actorName: string;
      comment?: string | null;
      content?: unknown;
      authors?: string[];
    };
    let changes: HistoryChange[] = [];
    if (e.type === 'RecordCreated') content = d.content;
    else if (
      e.type === 'DraftUpdated' ||
      e.type === 'EditedDuringReview' ||
      (e.type === 'RecordSubmitted' && d.content !== undefined)
    ) {
      changes = contentChanges(content, d.content);
      content = d.content;
    }
    const entry: HistoryEntry = {
      version: e.streamVersion,
      type: e.type,
      actorId: String(d.actorId),
      actorName: d.actorName,
      time: formatDateTime(e.recordedAt, tz) ?? '',
      changes,
    };
    if (d.comment) entry.comment = d.comment;
    if (d.authors?.length) entry.authors = d.authors.map((a) => ({ id: String(a), name: names.get(String(a)) ?? '' }));
    out.push(entry);
  }
  return out;
}
