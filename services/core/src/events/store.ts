import { sql } from 'kysely';
import { type Database, inTenant, scriptInTenant, type TenantContext, type Tx } from '../db';
import { IdempotencyKeyReusedError, StreamArchivedError, VersionConflictError } from './errors';
import { runInlineProjections } from './projections/inline';
import { inlineProjectionsFor } from './projections/registry';
import {
  ERASED,
  keysForWrite,
  loadKeys,
  openFields,
  type PersonalDataRule,
  sealedSubjects,
  sealFields,
  subjectsOf,
} from './shredding';
import type { AppendResult, EventMetadata, ExpectedVersion, NewEvent, RecordedEvent, StreamRef } from './types';
import { currentSchemaVersion, eventDefinition, upcast } from './upcasting';
import { eventsAppended } from '../observability/metrics';

const STREAM_ID = /^[A-Za-z0-9:_.-]{1,64}$/;
const STREAM_TYPE = /^[A-Za-z0-9:_.-]{1,64}$/;
const EVENT_TYPE = /^[A-Za-z0-9:_.-]{1,128}$/;

/** An event row as stored (the columns every reader selects). */
export interface EventRow {
  tenant_id: string;
  global_position: string;
  transaction_id: string;
  stream_type: string;
  stream_id: string;
  stream_version: number;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: unknown;
  recorded_at: Date;
}

/** The select list of EventRow, for raw readers (projectors, rebuilds, audit). */
export const EVENT_COLUMNS = sql.raw(
  'e.tenant_id, e.global_position::text as global_position, e.transaction_id::text as transaction_id, e.stream_type, e.stream_id, e.stream_version, e.type, e.schema_version, e.data, e.metadata, e.recorded_at',
);

function cleanMetadata(m: EventMetadata): EventMetadata {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m)) if (v !== undefined && v !== null && v !== '') out[k] = String(v);
  return out as unknown as EventMetadata;
}

interface AppendRow {
  status: 'ok' | 'conflict' | 'duplicate';
  stream_id: string;
  versions: number[] | null;
  positions: string[] | null;
  transaction_id: string | null;
  recorded_at: Date | null;
  current_version: number | null;
  archived: boolean;
}

/**
 * Appends events to a stream inside the caller's transaction, with optimistic concurrency:
 * `expected` is the version the writer read (`'no_stream'` / 0: the stream must not exist;
 * `'any'`: no check). One statement: the stream row is created or moved forward (its row
 * lock serialises writers of one stream), then the events are inserted with consecutive
 * versions. A writer that lost the race gets a VersionConflictError (HTTP 409).
 *
 * With `metadata.idempotencyKey`, a repeated append (same tenant and key) writes nothing and
 * returns the first append's result with `duplicate: true`; a concurrent repeat waits for
 * the first and then does the same.
 *
 * Personal fields declared with `defineEventType({ personal })` are sealed with their data
 * subject's key; inline projections of the event types run before this returns.
 */
interface PreparedAppend {
  tenantId: string;
  meta: EventMetadata;
  key: string | undefined;
  rules: PersonalDataRule[][];
  /** Subjects whose keys must be loaded (sealing needs a round trip before the append). */
  subjects: string[];
  expectedArg: number | null;
}

function prepareAppend(
  stream: StreamRef,
  expected: ExpectedVersion,
  events: readonly NewEvent[],
  metadata: Omit<EventMetadata, 'tenantId'> & { tenantId?: string },
): PreparedAppend {
  if (!events.length) throw new Error('appendToStream: no events');
  if (!STREAM_ID.test(stream.id)) throw new Error(`invalid stream id ${JSON.stringify(stream.id)}`);
  if (!STREAM_TYPE.test(stream.type)) throw new Error(`invalid stream type ${JSON.stringify(stream.type)}`);
  if (metadata.tenantId && metadata.tenantId !== stream.tenantId)
    throw new Error('metadata tenant differs from stream');
  if (typeof expected === 'number' && (!Number.isInteger(expected) || expected < 0))
    throw new Error(`invalid expected version ${expected}`);
  for (const e of events) if (!EVENT_TYPE.test(e.type)) throw new Error(`invalid event type ${JSON.stringify(e.type)}`);
  const tenantId = stream.tenantId;
  const meta = cleanMetadata({ ...metadata, tenantId });
  const rules = events.map((e) => eventDefinition(e.type)?.personal ?? []);
  const subjects = [...new Set(events.flatMap((e, i) => subjectsOf(e.data, rules[i]!)))];
  return {
    tenantId,
    meta,
    key: meta.idempotencyKey,
    rules,
    subjects,
    expectedArg: expected === 'any' ? null : expected === 'no_stream' ? 0 : expected,
  };
}

/** The call of `sprout_append_events` (migration 0002): claim, stream row, events, key result. */
function appendCall(
  p: PreparedAppend,
  stream: StreamRef,
  events: readonly NewEvent[],
  keys: ReadonlyMap<string, Buffer | null>,
) {
  const payload = JSON.stringify(
    events.map((e, i) => ({
      t: e.type,
      v: currentSchemaVersion(e.type),
      d: p.rules[i]!.length ? sealFields(e.data, p.rules[i]!, p.tenantId, keys) : (e.data ?? null),
    })),
  );
  return sql<AppendRow>`
    select status, stream_id, versions, positions, transaction_id, recorded_at, current_version, archived
    from sprout_append_events(${p.tenantId}, ${stream.id}, ${stream.type}, ${p.expectedArg}::integer,
                              ${payload}::jsonb, ${JSON.stringify(p.meta)}::jsonb, ${p.key ?? null}::varchar)`;
}

/** Turns the function's answer into the result, or the typed error. */
function finishAppend(
  p: PreparedAppend,
  stream: StreamRef,
  expected: ExpectedVersion,
  events: readonly NewEvent[],
  row: AppendRow | undefined,
): AppendResult {
  if (!row) throw new Error('sprout_append_events returned nothing');
  if (row.status === 'duplicate') {
    if (row.stream_id !== stream.id) throw new IdempotencyKeyReusedError(p.key!, stream.id);
    return {
      streamId: stream.id,
      versions: (row.versions ?? []).map(Number),
      positions: (row.positions ?? []).map((x) => BigInt(x)),
      nextExpectedVersion: row.current_version ?? 0,
      transactionId: String(row.transaction_id),
      duplicate: true,
      events: [],
    };
  }
  if (row.status !== 'ok') {
    if (row.archived) throw new StreamArchivedError(stream.id);
    throw new VersionConflictError(stream.id, expected, row.current_version);
  }
  eventsAppended.inc({ stream_type: stream.type }, events.length);
  const versions = row.versions!.map(Number);
  const positions = row.positions!.map((x) => BigInt(x));
  const recordedAt = row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at!);
  const recorded: RecordedEvent[] = events.map((e, i) => ({
    type: e.type,
    data: e.data,
    tenantId: p.tenantId,
    streamType: stream.type,
    streamId: stream.id,
    streamVersion: versions[i]!,
    globalPosition: positions[i]!,
    transactionId: row.transaction_id!,
    schemaVersion: currentSchemaVersion(e.type),
    metadata: p.meta,
    recordedAt,
    subjects: subjectsOf(e.data, p.rules[i]!),
  }));
  return {
    streamId: stream.id,
    versions,
    positions,
    nextExpectedVersion: versions[versions.length - 1]!,
    transactionId: row.transaction_id!,
    duplicate: false,
    events: recorded,
  };
}

/**
 * Appends events to a stream inside the caller's transaction, with optimistic concurrency:
 * `expected` is the version the writer read (`'no_stream'` / 0: the stream must not exist;
 * `'any'`: no check). One call: the stream row is created or moved forward (its row lock
 * serialises writers of one stream), then the events are inserted with consecutive
 * versions. A writer that lost the race gets a VersionConflictError (HTTP 409).
 *
 * With `metadata.idempotencyKey`, a repeated append (same tenant and key) writes nothing and
 * returns the first append's result with `duplicate: true`; a concurrent repeat waits for
 * the first and then does the same.
 *
 * Personal fields declared with `defineEventType({ personal })` are sealed with their data
 * subject's key; inline projections of the event types run before this returns.
 */
export async function appendToStream(
  trx: Tx,
  stream: StreamRef,
  expected: ExpectedVersion,
  events: readonly NewEvent[],
  metadata: Omit<EventMetadata, 'tenantId'> & { tenantId?: string },
): Promise<AppendResult> {
  const p = prepareAppend(stream, expected, events, metadata);
  const keys = p.subjects.length ? await keysForWrite(trx, p.tenantId, p.subjects) : new Map<string, Buffer | null>();
  const result = await appendCall(p, stream, events, keys).execute(trx);
  const out = finishAppend(p, stream, expected, events, result.rows[0]);
  if (!out.duplicate) await runInlineProjections(trx, out.events);
  return out;
}

/**
 * A standalone append (its own transaction) in one round trip when nothing has to run in
 * JavaScript inside the transaction: `set local role; set_config; <append call>` sent as
 * one simple query, which PostgreSQL runs as one implicit transaction (all or nothing), the
 * values inlined as literals (db/inline.ts). With inline projections for these event types,
 * or personal data to seal, it is `inTenant` + `appendToStream`. Same guarantees either way.
 */
export async function appendInTenant(
  database: Database,
  ctx: TenantContext,
  stream: StreamRef,
  expected: ExpectedVersion,
  events: readonly NewEvent[],
  metadata: Omit<EventMetadata, 'tenantId'> & { tenantId?: string },
): Promise<AppendResult> {
  if (ctx.tenantId !== stream.tenantId) throw new Error('stream tenant differs from the context');
  const p = prepareAppend(stream, expected, events, metadata);
  if (p.subjects.length || events.some((e) => inlineProjectionsFor(e.type).length))
    return inTenant(database, ctx, (trx) => appendToStream(trx, stream, expected, events, metadata));
  const call = appendCall(p, stream, events, new Map()).compile(database.db);
  const [rows] = await scriptInTenant(database, ctx, [call]);
  return finishAppend(p, stream, expected, events, rows?.[0] as AppendRow | undefined);
}

export interface ReadOptions {
  /** First version to read (default 1). */
  fromVersion?: number;
  /** Last version to read (default: the end). */
  toVersion?: number;
  /** What erased personal fields read as (default 已删除). */
  erased?: unknown;
}

export interface StreamInfo {
  tenantId: string;
  id: string;
  type: string;
  version: number;
  archived: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Decodes stored rows: opens sealed personal fields (one key query for the whole batch),
 * then upcasts each event's data to the current schema version.
 */
export async function decodeEvents(trx: Tx, rows: readonly EventRow[], erased: unknown = ERASED) {
  const opened = await openEvents(trx, rows, erased);
  return rows.map((r, i): RecordedEvent => {
    const o = opened[i]!;
    return {
      type: r.type,
      data: o.data,
      tenantId: r.tenant_id,
      streamType: r.stream_type,
      streamId: r.stream_id,
      streamVersion: r.stream_version,
      globalPosition: BigInt(r.global_position),
      transactionId: r.transaction_id,
      schemaVersion: o.schemaVersion,
      metadata: r.metadata as EventMetadata,
      recordedAt: r.recorded_at,
      subjects: o.subjects,
    };
  });
}

/** What a fold needs of an event row. */
export type FoldRow = Pick<EventRow, 'tenant_id' | 'type' | 'schema_version' | 'data'>;

/**
 * Each row's data opened (its sealed personal fields decrypted with their subjects' keys, one
 * read for all of them; an erased subject's fields become `erased`) and upcast to the current
 * schema, with the subjects it names.
 */
export async function openEvents(trx: Tx, rows: readonly FoldRow[], erased: unknown = ERASED) {
  const pairs: Array<[string, string]> = [];
  const subjectsPerRow = rows.map((r) => {
    const s = [...sealedSubjects(r.data)];
    for (const x of s) pairs.push([r.tenant_id, x]);
    return s;
  });
  const keys = pairs.length ? await loadKeys(trx, pairs) : new Map<string, Buffer | null>();
  return rows.map((r, i) => {
    const subjects = subjectsPerRow[i]!;
    const opened = subjects.length ? openFields(r.data, r.tenant_id, keys, erased) : r.data;
    const up = upcast(r.type, r.schema_version, opened);
    return { data: up.data, schemaVersion: up.schemaVersion, subjects };
  });
}

/** The stream's row, or undefined when it does not exist (or is another tenant's). */
export async function readStreamInfo(trx: Tx, tenantId: string, streamId: string): Promise<StreamInfo | undefined> {
  const s = await trx
    .selectFrom('streams')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('stream_id', '=', streamId)
    .executeTakeFirst();
  return s
    ? {
        tenantId: s.tenant_id,
        id: s.stream_id,
        type: s.type,
        version: s.version,
        archived: s.archived,
        createdAt: s.created_at,
        updatedAt: s.updated_at,
      }
    : undefined;
}

/** A stream's events in version order, decoded (see decodeEvents). */
export async function readStream(
  trx: Tx,
  tenantId: string,
  streamId: string,
  opts: ReadOptions = {},
): Promise<RecordedEvent[]> {
  const rows = await sql<EventRow>`
    select ${EVENT_COLUMNS} from events e
    where e.tenant_id = ${tenantId} and e.stream_id = ${streamId}
      and e.stream_version >= ${opts.fromVersion ?? 1}
      ${opts.toVersion !== undefined ? sql`and e.stream_version <= ${opts.toVersion}` : sql``}
    order by e.stream_version`.execute(trx);
  return decodeEvents(trx, rows.rows, opts.erased);
}

/** Marks a stream archived: later appends are refused; its history stays readable. */
export async function archiveStream(trx: Tx, tenantId: string, streamId: string): Promise<boolean> {
  const r = await trx
    .updateTable('streams')
    .set({ archived: true, updated_at: new Date() })
    .where('tenant_id', '=', tenantId)
    .where('stream_id', '=', streamId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
