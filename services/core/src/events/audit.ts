import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { DB, Tx } from '../db';
import { foldEvents, requireDecider } from './decider';
import { type FoldRow, openEvents, readStream, readStreamInfo } from './store';

export interface StateAt {
  streamType: string;
  /** The version the state is at (0: before the first event). */
  version: number;
  state: unknown;
  /** The stream's current version. */
  currentVersion: number;
}

/**
 * A stream's state as of a version, or as of an instant (the last event recorded at or
 * before it), folded from the log with the stream type's decider (never from a snapshot:
 * this is what auditors rely on).
 */
export async function stateAt(
  trx: Tx,
  tenantId: string,
  streamId: string,
  at: { version: number } | { at: Date },
  erased?: unknown,
): Promise<StateAt | undefined> {
  if ('version' in at) return stateAtVersion(trx, tenantId, streamId, at.version, erased);
  const info = await readStreamInfo(trx, tenantId, streamId);
  if (!info) return undefined;
  const decider = requireDecider(info.type);
  const r = await trx
    .selectFrom('events')
    .select((eb) => eb.fn.max('stream_version').as('v'))
    .where('tenant_id', '=', tenantId)
    .where('stream_id', '=', streamId)
    .where('recorded_at', '<=', at.at as never)
    .executeTakeFirst();
  const version = Number(r?.v ?? 0);
  const events = version > 0 ? await readStream(trx, tenantId, streamId, { toVersion: version, erased }) : [];
  const folded = foldEvents(decider, events);
  return { streamType: info.type, version: folded.version, state: folded.state, currentVersion: info.version };
}

/**
 * The state as of a version in one round trip: the stream's row and its events up to the
 * version together (the stream's columns repeated on each event row), decoded and folded.
 */
async function stateAtVersion(
  trx: Tx,
  tenantId: string,
  streamId: string,
  version: number,
  erased?: unknown,
): Promise<StateAt | undefined> {
  // Only what the fold needs of each event (a decider's evolve sees its type and data).
  const rows = await sql<FoldRow & { s_type: string; s_version: number; stream_version: number | null }>`
    select s.type as s_type, s.version as s_version, e.tenant_id, e.stream_version, e.type, e.schema_version, e.data
    from streams s
    left join events e on e.tenant_id = s.tenant_id and e.stream_id = s.stream_id and e.stream_version <= ${version}
    where s.tenant_id = ${tenantId} and s.stream_id = ${streamId}
    order by e.stream_version`.execute(trx);
  const first = rows.rows[0];
  if (!first) return undefined;
  const decider = requireDecider(first.s_type);
  const events = rows.rows.filter((r) => r.stream_version !== null);
  const opened = await openEvents(trx, events, erased);
  let state = decider.initialState();
  let at = 0;
  for (const [i, r] of events.entries()) {
    state = decider.evolve(state, { type: r.type, data: opened[i]!.data } as never);
    at = r.stream_version as number;
  }
  return { streamType: first.s_type, version: at, state, currentVersion: first.s_version };
}

export interface FieldChange {
  /** Dotted path; array items as `items.2`. */
  path: string;
  op: 'added' | 'removed' | 'changed';
  from?: unknown;
  to?: unknown;
}

const isPlain = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x) && !(x instanceof Date);

/** Field-level differences between two JSON-like values, in a stable order. */
export function diffValues(a: unknown, b: unknown, path = ''): FieldChange[] {
  const at = (k: string) => (path ? `${path}.${k}` : k);
  if (isPlain(a) && isPlain(b)) {
    const out: FieldChange[] = [];
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      if (!(k in b)) out.push({ path: at(k), op: 'removed', from: a[k] });
      else if (!(k in a)) out.push({ path: at(k), op: 'added', to: b[k] });
      else out.push(...diffValues(a[k], b[k], at(k)));
    }
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const out: FieldChange[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= b.length) out.push({ path: at(String(i)), op: 'removed', from: a[i] });
      else if (i >= a.length) out.push({ path: at(String(i)), op: 'added', to: b[i] });
      else out.push(...diffValues(a[i], b[i], at(String(i))));
    }
    return out;
  }
  const same =
    a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : JSON.stringify(a) === JSON.stringify(b);
  return same ? [] : [{ path: path || '$', op: 'changed', from: a, to: b }];
}

/**
 * Data-scope fields of an audited stream → columns of `streams s` left-joined with its record
 * (`record_list r`, absent for streams that are not teaching records). A scope narrower than
 * the whole tenant compares the record's author, dept or class, so a stream without a record
 * is visible to whole-tenant scopes only.
 */
export const AUDIT_SCOPE_COLUMNS = {
  tenantId: 's.tenant_id',
  id: 'r.id',
  createUser: 'r.author_id',
  deptId: 'r.dept_id',
  classId: 'r.class_id',
} as const;

const MAX_ID = 9223372036854775807n;

/** A record id in a stream id (records' streams are named by the record id), else null. */
const recordIdOf = (streamId: string) =>
  /^[1-9][0-9]{0,18}$/.test(streamId) && BigInt(streamId) <= MAX_ID ? streamId : null;

/** The same in SQL over `s.stream_id`: the record's key, so the join is a primary-key lookup. */
const recordIdSql = sql`case when s.stream_id ~ '^[1-9][0-9]{0,18}$'
  and (length(s.stream_id) < 19 or s.stream_id <= '9223372036854775807') then s.stream_id::bigint end`;

/**
 * Is the stream in the caller's data scope (`scope`: a where-expression over
 * AUDIT_SCOPE_COLUMNS)? False also when it does not exist in the tenant: both answer 404.
 */
export async function streamInScope(
  trx: Tx,
  tenantId: string,
  streamId: string,
  scope: Expression<SqlBool>,
): Promise<boolean> {
  const recordId = recordIdOf(streamId);
  const r = await sql<{ ok: number }>`
    select 1 as ok from streams s
    left join record_list r on r.tenant_id = s.tenant_id and r.id = ${recordId}::bigint
    where s.tenant_id = ${tenantId} and s.stream_id = ${streamId} and ${scope}`.execute(trx);
  return r.rows.length > 0;
}

export interface TouchedStreamsFilter {
  tenantId: string;
  /** The caller's data scope as a where-expression over AUDIT_SCOPE_COLUMNS. */
  scope: Expression<SqlBool>;
  type?: string;
  actorId?: string;
  from?: Date;
  to?: Date;
  limit: number;
  offset: number;
}

export interface TouchedStreamRow {
  stream_id: string;
  stream_type: string;
  events: number;
  first_at: Date;
  last_at: Date;
  version: number;
  __total: string;
}

/**
 * Streams with events matching the filters (type, actor, time range) within the caller's
 * data scope, newest first, as one statement (the page plus its total) for `readInTenant`.
 */
export function touchedStreamsQuery(db: Kysely<DB>, f: TouchedStreamsFilter) {
  return sql<TouchedStreamRow>`
    with g as (
      select e.stream_id, max(e.stream_type) as stream_type, count(*)::int as events,
             min(e.recorded_at) as first_at, max(e.recorded_at) as last_at
      from events e
      where e.tenant_id = ${f.tenantId}
        ${f.type ? sql`and e.stream_type = ${f.type}` : sql``}
        ${f.actorId ? sql`and e.metadata->>'actorId' = ${f.actorId}` : sql``}
        ${f.from ? sql`and e.recorded_at >= ${f.from}` : sql``}
        ${f.to ? sql`and e.recorded_at <= ${f.to}` : sql``}
      group by e.stream_id
    ), v as (
      select g.*, s.version
      from g join streams s on s.tenant_id = ${f.tenantId} and s.stream_id = g.stream_id
      left join record_list r on r.tenant_id = s.tenant_id and r.id = ${recordIdSql}
      where ${f.scope}
    )
    select v.*, (select count(*) from v)::text as __total
    from v
    order by v.last_at desc, v.stream_id
    limit ${f.limit} offset ${f.offset}`.compile(db);
}

/** The auditors' search (`GET /api/audit/search`): every stream, records' facts joined. */
export interface StreamSearchFilter {
  tenantId: string;
  /** The caller's data scope as a where-expression over AUDIT_SCOPE_COLUMNS. */
  scope: Expression<SqlBool>;
  /** One stream (the console's page of a stream reads its record's facts so). */
  streamId?: string;
  /** A record family (`week`, `observation`…) or another stream type (a workflow instance). */
  type?: string;
  classId?: string;
  /** Parts of a name: the class, the author, the reviewer, the title (case-insensitive). */
  className?: string;
  author?: string;
  reviewer?: string;
  title?: string;
  /** The record's current status (draft, trial, returned, success, deleted). */
  status?: string;
  /** The record's date (its creation; a stream's start for the rest), both ends included. */
  from?: Date;
  to?: Date;
  /** Some event of the stream was recorded between these instants. */
  changedFrom?: Date;
  changedTo?: Date;
  limit: number;
  offset: number;
}

export interface StreamSearchRow {
  stream_id: string;
  stream_type: string;
  version: number;
  created_at: Date;
  updated_at: Date;
  record_id: string | null;
  title: string | null;
  status: string | null;
  class_id: string | null;
  class_name: string | null;
  author_name: string | null;
  reviewer_name: string | null;
  create_time: Date | null;
  last_type: string | null;
  last_actor: string | null;
  __total: string;
}

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Streams matching the filters within the caller's data scope, the latest change first, each
 * with its record's facts (title, status, class, author, reviewer) and its last event, as one
 * statement (the page plus its total) for `readInTenant`.
 */
export function searchStreamsQuery(db: Kysely<DB>, f: StreamSearchFilter) {
  const when = sql`coalesce(r.create_time, s.created_at)`;
  return sql<StreamSearchRow>`
    with p as (
      select s.stream_id, s.type as stream_type, s.version, s.created_at, s.updated_at,
             r.id::text as record_id, r.title, r.status, r.class_id::text as class_id, c.name as class_name,
             r.author_name, r.reviewer_name, r.create_time,
             count(*) over () as __total
      from streams s
      -- A record's stream is named by its id: joined on the text, which hashes (no per-row parse).
      left join record_list r on r.tenant_id = s.tenant_id and r.id::text = s.stream_id
      left join clazz c on c.tenant_id = s.tenant_id and c.id = r.class_id
      where s.tenant_id = ${f.tenantId} and ${f.scope}
        ${f.streamId ? sql`and s.stream_id = ${f.streamId}` : sql``}
        ${f.type ? sql`and s.type = ${f.type}` : sql``}
        ${f.classId ? sql`and r.class_id = ${f.classId}::bigint` : sql``}
        ${f.className ? sql`and c.name ilike ${like(f.className)}` : sql``}
        ${f.author ? sql`and r.author_name ilike ${like(f.author)}` : sql``}
        ${f.reviewer ? sql`and r.reviewer_name ilike ${like(f.reviewer)}` : sql``}
        ${f.title ? sql`and r.title ilike ${like(f.title)}` : sql``}
        ${f.status ? sql`and r.status = ${f.status}` : sql``}
        ${f.from ? sql`and ${when} >= ${f.from}` : sql``}
        ${f.to ? sql`and ${when} <= ${f.to}` : sql``}
        ${
          f.changedFrom || f.changedTo
            ? sql`and exists (select 1 from events e where e.tenant_id = s.tenant_id and e.stream_id = s.stream_id
                ${f.changedFrom ? sql`and e.recorded_at >= ${f.changedFrom}` : sql``}
                ${f.changedTo ? sql`and e.recorded_at <= ${f.changedTo}` : sql``})`
            : sql``
        }
      order by s.updated_at desc, s.stream_id
      limit ${f.limit} offset ${f.offset}
    )
    select p.*, p.__total::text as __total, le.type as last_type, le.actor as last_actor
    from p
    left join lateral (
      select e.type, e.metadata->>'actorName' as actor from events e
      where e.tenant_id = ${f.tenantId} and e.stream_id = p.stream_id
      order by e.stream_version desc limit 1
    ) le on true
    order by p.updated_at desc, p.stream_id`.compile(db);
}

/** When a stream began (its first event), if it exists in the tenant. */
export async function streamStart(trx: Tx, tenantId: string, streamId: string): Promise<Date | undefined> {
  const r = await trx
    .selectFrom('events')
    .select((eb) => eb.fn.min('recorded_at').as('at'))
    .where('tenant_id', '=', tenantId)
    .where('stream_id', '=', streamId)
    .executeTakeFirst();
  return r?.at ? new Date(r.at as unknown as string) : undefined;
}
