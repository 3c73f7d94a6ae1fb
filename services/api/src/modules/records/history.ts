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
import type { RecordedEvent } from '@sprout/core/events';
import { type FieldAuthors, type RecordEvent, titleOf } from '@sprout/core/records';
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

/** The users a co-edited revision credits with one change: those of its path, of a field inside it or of the field holding it. */
function changeAuthors(fieldAuthors: FieldAuthors, path: string): string[] {
  const out = new Set<string>();
  for (const [p, users] of Object.entries(fieldAuthors))
    if (p === path || p.startsWith(`${path}.`) || path.startsWith(`${p}.`)) for (const u of users) out.add(String(u));
  return [...out].sort();
}

/** A child record's step in its parent's timeline: added (its creation) or removed (its deletion). */
interface ChildStep {
  at: Date;
  entry: Omit<HistoryEntry, 'version'>;
}

/** The lesson and day plans ever added to a record (deleted ones too): their creations and deletions. */
async function childSteps(trx: Kysely<DB>, tenantId: string, parentId: string, tz: string): Promise<ChildStep[]> {
  const children = await trx
    .selectFrom('record_list')
    .select([sql<string>`id::text`.as('id'), 'kind', 'title', 'status', 'version'])
    .where('tenant_id', '=', tenantId)
    .where('parent_id', '=', parentId)
    .execute();
  const out: ChildStep[] = [];
  const step = (e: RecordedEvent, type: string, child: { id: string; kind: string; title: string }) => {
    const d = e.data as { actorId: string; actorName: string };
    out.push({
      at: e.recordedAt,
      entry: {
        type,
        actorId: String(d.actorId),
        actorName: d.actorName,
        time: formatDateTime(e.recordedAt, tz) ?? '',
        changes: [],
        child,
      },
    });
  };
  for (const c of children) {
    const [created] = await readStream(trx, tenantId, c.id, { toVersion: 1 });
    if (created?.type === 'RecordCreated')
      step(created, 'ChildAdded', {
        id: c.id,
        kind: c.kind,
        title: titleOf(c.kind, (created.data as { content?: unknown }).content) || c.title,
      });
    if (c.status === 'deleted') {
      const [deleted] = await readStream(trx, tenantId, c.id, { fromVersion: c.version });
      if (deleted?.type === 'RecordDeleted') step(deleted, 'ChildRemoved', { id: c.id, kind: c.kind, title: c.title });
    }
  }
  return out;
}

/**
 * A record's timeline from its event stream: who did what when, with the fields each edit
 * changed — in a co-edited revision each change names the users whose updates made it — and,
 * with `children`, its lesson and day plans added and removed (at the parent's version then).
 */
export async function recordTimeline(
  trx: Kysely<DB>,
  tenantId: string,
  id: string,
  tz: string,
  opts: { children?: boolean } = {},
): Promise<HistoryEntry[]> {
  const events = await readStream(trx, tenantId, id);
  const authorIds = new Set<string>();
  for (const e of events) {
    const d = e.data as { authors?: string[]; fieldAuthors?: FieldAuthors };
    for (const a of d.authors ?? []) authorIds.add(String(a));
    for (const users of Object.values(d.fieldAuthors ?? {})) for (const a of users) authorIds.add(String(a));
  }
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
      fieldAuthors?: FieldAuthors;
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
    const person = (a: string) => ({ id: String(a), name: names.get(String(a)) ?? '' });
    if (d.authors?.length) entry.authors = d.authors.map(person);
    const credited = d.fieldAuthors;
    if (credited)
      for (const change of changes) {
        const users = changeAuthors(credited, change.path);
        if (users.length) change.authors = users.map(person);
      }
    out.push(entry);
  }
  if (!opts.children) return out;
  const steps = await childSteps(trx, tenantId, id, tz);
  if (!steps.length) return out;
  // Merged by time: each child step takes the parent's version at that moment.
  const at = events.map((e) => e.recordedAt.getTime());
  const merged: HistoryEntry[] = [];
  let i = 0;
  for (const s of steps.sort((a, b) => a.at.getTime() - b.at.getTime())) {
    while (i < out.length && (at[i] as number) <= s.at.getTime()) merged.push(out[i++] as HistoryEntry);
    merged.push({ version: merged.at(-1)?.version ?? 1, ...s.entry });
  }
  return [...merged, ...out.slice(i)];
}
