import { subject } from '@casl/ability';
import type { FastifyRequest } from 'fastify';
import { type Expression, type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import {
  type FullRecord,
  type ListRow,
  RECORD_STATUSES,
  type RecordHeader,
  type RecordKind,
  SUMMARY_FIELDS,
} from '@sprout/contracts';
import { containsPattern, type DB, type Database, inTenant, readInTenant, type TenantContext } from '@sprout/core/db';
import { forbidden, notFound } from '@sprout/core/errors';
import { handleCommandIn } from '@sprout/core/events';
import { PageQuerySchema } from '@sprout/core/http/paging';
import { scopeWhere } from '@sprout/core/permissions/sql';
import type { UserPermissions } from '@sprout/core/permissions/cache';
import {
  type Actor,
  type RecordCommand,
  type RecordState,
  type RecordStatus,
  recordDecider,
  recordKind,
} from '@sprout/core/records';
import { formatDateTime, isoInZone, parseDateTime } from '@sprout/core/time';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { refuseUnknownIds } from '../../http/known';
import { IdSchema, NullableIdSchema } from '../../http/params';
import { notifyRecordEvents } from '../inbox';

/**
 * The record-kind engine's HTTP half: every teaching-record family lists, loads and changes
 * its records through these, so data scope, presentation and the lifecycle are the same
 * everywhere. A family adds its routes (paths, filters, what a list means).
 */

/** Data-scope fields of a record (RESOURCES' RECORD) → `record_list` columns. */
export const RECORD_SCOPE_COLUMNS = {
  tenantId: 'r.tenant_id',
  id: 'r.id',
  createUser: 'r.author_id',
  deptId: 'r.dept_id',
  classId: 'r.class_id',
} as const;

/** The filters every record list takes (docs/API.md). */
export const RecordFilterSchema = PageQuerySchema.extend({
  theme: z.string().trim().max(100).optional(),
  classId: NullableIdSchema.optional(),
  status: z.union([z.enum(RECORD_STATUSES), z.literal('')]).optional(),
  semester: z.string().trim().max(20).optional(),
  weekNo: z.union([z.coerce.number().int().min(1).max(30), z.literal('')]).optional(),
  authorName: z.string().trim().max(64).optional(),
});
export type RecordFilter = z.output<typeof RecordFilterSchema>;

/** One record named by `id`: a GET's query string, or a POST's body (with the query string merged in). */
export const IdParamSchema = z.object({ id: IdSchema });

export interface RecordRow {
  id: string;
  tenant_id: string;
  kind: string;
  status: RecordStatus;
  title: string;
  author_id: string;
  author_name: string;
  co_author_ids: string[];
  dept_id: string | null;
  class_id: string | null;
  parent_id: string | null;
  class_name: string | null;
  semester: string | null;
  excellent: boolean;
  collected: boolean;
  collect_count: number;
  reviewer_id: string | null;
  reviewer_name: string | null;
  review_comment: string | null;
  review_time: Date | null;
  submit_time: Date | null;
  create_time: Date;
  update_time: Date;
  version: number;
  summary: Record<string, unknown> | null;
  content?: unknown;
  co_author_names?: string[] | null;
}

/** The database as a record query sees it (`record_list as r`). */
export type RDB = DB & { r: DB['record_list'] };
export type RecordQB = SelectQueryBuilder<RDB, 'r', RecordRow>;

/** What a list row shows of a family's content (one small jsonb object, not the content): SUMMARY_FIELDS. */
function summaryOf(kind: string) {
  const fields = (SUMMARY_FIELDS as Record<string, readonly string[]>)[kind] ?? [];
  if (!fields.length) return sql<Record<string, unknown> | null>`null`;
  return sql<Record<string, unknown>>`jsonb_build_object(${sql.join(
    fields.map((f) => sql`${sql.lit(f)}::text, r.content -> ${sql.lit(f)}`),
  )})`;
}

/**
 * The records of one family as a list query: live records (not deleted) of the tenant with
 * the class name and whether the caller holds each among their favourites. The caller adds
 * filters, the scope and the order.
 */
export function recordQuery(
  db: Kysely<DB>,
  ctx: { tenantId: string; userId: string },
  kind: string,
  opts: { content?: boolean } = {},
): RecordQB {
  const qb = db
    .selectFrom('record_list as r')
    .where('r.tenant_id', '=', ctx.tenantId)
    .where('r.kind', '=', kind)
    .where('r.status', '<>', 'deleted')
    .select([
      'r.id',
      'r.tenant_id',
      'r.kind',
      'r.status',
      'r.title',
      'r.author_id',
      'r.author_name',
      'r.co_author_ids',
      'r.dept_id',
      'r.class_id',
      'r.parent_id',
      'r.semester',
      'r.excellent',
      'r.collect_count',
      'r.reviewer_id',
      'r.reviewer_name',
      'r.review_comment',
      'r.review_time',
      'r.submit_time',
      'r.create_time',
      'r.update_time',
      'r.version',
    ])
    .select([
      sql<string | null>`(select c.name from clazz c where c.tenant_id = r.tenant_id and c.id = r.class_id)`.as(
        'class_name',
      ),
      sql<boolean>`exists (select 1 from record_favorite f where f.tenant_id = r.tenant_id and f.user_id = ${ctx.userId}
        and f.record_id = r.id)`.as('collected'),
      summaryOf(kind).as('summary'),
    ]);
  const full = opts.content
    ? qb.select([
        'r.content',
        sql<string[] | null>`(select array_agg(coalesce(u.real_name, u.name, u.account) order by u.id) from app_user u
          where u.tenant_id = r.tenant_id and u.id = any(r.co_author_ids))`.as('co_author_names'),
      ])
    : qb;
  return full as unknown as RecordQB;
}

/** The common filters of a record list. */
/**
 * The common filter's values as a list statement binds them (db/shapes.ts): its patterns
 * and instants worked out first, the rest passed on as sent (`current` and `size` are the
 * page's, not the statement's).
 */
export function recordFilterValues<F extends RecordFilter>(f: F, tz: string) {
  const { theme, authorName, createTime_dategt, createTime_datelt, current: _c, size: _s, ...rest } = f;
  return {
    ...rest,
    themeLike: theme ? containsPattern(theme) : undefined,
    authorLike: authorName ? containsPattern(authorName) : undefined,
    createdFrom: createTime_dategt ? parseDateTime(createTime_dategt, tz) : undefined,
    createdTo: createTime_datelt ? parseDateTime(createTime_datelt, tz) : undefined,
  };
}
export type RecordFilterValues = ReturnType<typeof recordFilterValues<RecordFilter>>;

/** The common filter on a list query: each value present narrows it, passed on as it is. */
export function applyRecordFilter<QB extends RecordQB>(qb: QB, v: RecordFilterValues): QB {
  let out = qb;
  if (v.themeLike) out = out.where('r.title', 'like', v.themeLike) as QB;
  if (v.classId) out = out.where('r.class_id', '=', v.classId) as QB;
  if (v.status) out = out.where('r.status', '=', v.status) as QB;
  if (v.semester) out = out.where('r.semester', '=', v.semester) as QB;
  if (v.weekNo) out = out.where(sql<boolean>`(r.content ->> 'weekNo')::int = ${v.weekNo}`) as QB;
  if (v.authorLike) out = out.where('r.author_name', 'like', v.authorLike) as QB;
  if (v.createdFrom) out = out.where('r.create_time', '>=', v.createdFrom) as QB;
  if (v.createdTo) out = out.where('r.create_time', '<=', v.createdTo) as QB;
  return out;
}

const str = (v: string | null | undefined) => (v === null || v === undefined ? '' : String(v));

/** The envelope every record shares (the contracts' `RecordHeader`). */
function headerOf(r: RecordRow, tz: string): RecordHeader {
  return {
    id: String(r.id),
    kind: r.kind as RecordKind,
    status: r.status as RecordHeader['status'],
    title: r.title,
    authorId: String(r.author_id),
    authorName: r.author_name,
    coAuthorIds: (r.co_author_ids ?? []).map(String),
    deptId: str(r.dept_id),
    classId: str(r.class_id),
    className: r.class_name ?? '',
    parentId: str(r.parent_id),
    semester: r.semester ?? '',
    excellent: r.excellent,
    collected: Boolean(r.collected),
    collectCount: r.collect_count,
    reviewerId: str(r.reviewer_id),
    reviewerName: r.reviewer_name ?? '',
    reviewComment: r.review_comment ?? '',
    reviewTime: formatDateTime(r.review_time, tz) ?? '',
    submitTime: formatDateTime(r.submit_time, tz) ?? '',
    createTime: formatDateTime(r.create_time, tz) ?? '',
    updateTime: formatDateTime(r.update_time, tz) ?? '',
    version: r.version,
  };
}

/** A record read with its content (`loadRecord`, `recordQuery(…, { content: true })`), as one record shows it. */
export function presentFull(r: RecordRow, tz: string): FullRecord<unknown> {
  const out = headerOf(r, tz) as FullRecord<unknown>;
  out.content = r.content;
  out.coAuthorNames = r.co_author_names ?? [];
  return out;
}

/** A record read without its content, as a list row shows it (its `summary`). */
export function presentRow(r: RecordRow, tz: string): ListRow<Record<string, unknown>> {
  const out = headerOf(r, tz) as ListRow<Record<string, unknown>>;
  out.summary = r.summary ?? {};
  return out;
}

/**
 * A record as the API shows it (docs/API.md "The record JSON"; the contracts' `FullRecord`
 * when it was read with its content, else a list row's `ListRow`).
 */
export function presentRecord(r: RecordRow, tz: string): PresentedRecord {
  return r.content !== undefined ? presentFull(r, tz) : presentRow(r, tz);
}
export type PresentedRecord = FullRecord<unknown> | ListRow<Record<string, unknown>>;

/** The caller: tenant context, permissions, and the scope condition of an action on a resource. */
export interface Caller {
  ctx: { tenantId: string; userId: string };
  perms: UserPermissions;
  tz: string;
  /** The route's `config.buttons`: the only buttons its handler may check (requireButton). */
  buttons?: readonly string[];
}

export async function callerOf(request: FastifyRequest): Promise<Caller> {
  const ctx = tenantOf(request) as { tenantId: string; userId: string };
  return {
    ctx,
    perms: await permissionsOf(request),
    tz: request.server.config.TIME_ZONE,
    buttons: request.routeOptions.config?.buttons ?? [],
  };
}

export const can = (caller: Caller, button: string) => caller.perms.ability.can(button, 'Button');

/** The caller's data scope of `resource` for `action` as a where-clause on `record_list as r`. */
export const inRecordScope = (caller: Caller, action: 'read' | 'update' | 'delete' | 'export', resource: string) =>
  scopeWhere(caller.perms.ability, action, resource, RECORD_SCOPE_COLUMNS);

/**
 * Excellent = published to the whole kindergarten (docs/API.md "Who sees what"): an approved
 * record marked excellent is read by every user of the tenant who has the family's screen,
 * whatever her data scope. A week is also read as the frame of an excellent lesson plan in it
 * (its plans shown are then only the excellent ones). Nothing else widens the data scope.
 */
export const EXCELLENT = sql<SqlBool>`(r.excellent and r.status = 'success')`;
const FRAMES_EXCELLENT = sql<SqlBool>`(r.kind = 'week' and exists (select 1 from record_list p
  where p.tenant_id = r.tenant_id and p.parent_id = r.id and p.kind = 'week_plan' and p.excellent
    and p.status = 'success'))`;

/**
 * The caller's read scope widened by what is published to the tenant: records in her data
 * scope, or excellent ones (and a week framing an excellent plan). For reading one record, the
 * excellent lists and the favourites; never for writes.
 */
export function inSharedReadScope(caller: Caller, resource: string): Expression<SqlBool> {
  // One expression per ability and resource, as the data scope itself (scopeWhere): a list's
  // compiled statements are kept per scope expression (db/shapes.ts).
  let byResource = sharedScopes.get(caller.perms.ability);
  if (!byResource) {
    byResource = new Map();
    sharedScopes.set(caller.perms.ability, byResource);
  }
  let expr = byResource.get(resource);
  if (!expr) {
    expr = sql<SqlBool>`(${inRecordScope(caller, 'read', resource)} or ${EXCELLENT} or ${FRAMES_EXCELLENT})`;
    byResource.set(resource, expr);
  }
  return expr;
}
const sharedScopes = new WeakMap<object, Map<string, Expression<SqlBool>>>();

/**
 * One record with its content in the caller's read scope (`shared`: widened by the excellent,
 * `inSharedReadScope` — a record's details), or 404 (outside it the record does not exist).
 */
export async function loadRecord(
  database: Database,
  caller: Caller,
  resource: string,
  kind: string,
  id: string,
  shared = false,
): Promise<RecordRow> {
  const rows = await readInTenant<RecordRow>(
    database,
    caller.ctx,
    recordQuery(database.db, caller.ctx, kind, { content: true })
      .where('r.id', '=', id)
      .where(shared ? inSharedReadScope(caller, resource) : inRecordScope(caller, 'read', resource))
      .compile(),
  );
  const row = rows[0];
  if (!row) throw notFound('record.notFound');
  return row;
}

/**
 * One record in full in the caller's read scope (`shared`: widened by the excellent), as a
 * write answers it after its commit or a details page reads it (404 outside the scope).
 */
export async function loadFull(request: FastifyRequest, resource: string, kind: string, id: string, shared = false) {
  const caller = await callerOf(request);
  return presentFull(await loadRecord(request.server.database, caller, resource, kind, id, shared), caller.tz);
}

/** What a caller may do with a record: the row's scope, the team, the buttons. */
export interface RecordAccess {
  read: boolean;
  update: boolean;
  /** The caller teaches the record's class (its teaching team). */
  team: boolean;
  author: boolean;
}

export function accessTo(caller: Caller, resource: string, row: RecordRow): RecordAccess {
  const s = subject(resource, {
    tenantId: row.tenant_id,
    id: String(row.id),
    createUser: String(row.author_id),
    deptId: row.dept_id === null ? null : String(row.dept_id),
    classId: row.class_id === null ? null : String(row.class_id),
  });
  const me = caller.ctx.userId;
  return {
    read: caller.perms.ability.can('read', s),
    update: caller.perms.ability.can('update', s),
    team: row.class_id !== null && caller.perms.grants.classIds.includes(String(row.class_id)),
    author: String(row.author_id) === me || (row.co_author_ids ?? []).map(String).includes(me),
  };
}

/** The acting user's name, read in the command's transaction. */
export async function actorIn(trx: Kysely<DB>, ctx: { tenantId: string; userId: string }): Promise<Actor> {
  const u = await trx
    .selectFrom('app_user')
    .select(sql<string>`coalesce(nullif(real_name, ''), nullif(name, ''), account)`.as('name'))
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', ctx.userId)
    .executeTakeFirst();
  return { id: ctx.userId, name: u?.name ?? ctx.userId };
}

/**
 * A record row inside a write transaction (locked), in the caller's read scope (`shared`:
 * widened by the excellent, for a reader's favourites); 404 otherwise.
 */
export async function lockRecord(
  trx: Kysely<DB>,
  caller: Caller,
  resource: string,
  kind: string | readonly string[],
  id: string,
  shared = false,
): Promise<RecordRow> {
  const kinds = typeof kind === 'string' ? [kind] : kind;
  const row = (await trx
    .selectFrom('record_list as r')
    .selectAll('r')
    .select(sql<string | null>`null`.as('class_name'))
    .where('r.tenant_id', '=', caller.ctx.tenantId)
    .where('r.id', '=', id)
    .where('r.kind', 'in', kinds as string[])
    .where('r.status', '<>', 'deleted')
    .where(shared ? inSharedReadScope(caller, resource) : inRecordScope(caller, 'read', resource))
    .forUpdate()
    .executeTakeFirst()) as RecordRow | undefined;
  if (!row) throw notFound('record.notFound');
  return row;
}

/**
 * The remove rule (docs/API.md): inside the write, before any command, every id must be a live
 * record of `kind` in the caller's read scope (locked); otherwise a 400 naming the unknown ids,
 * and nothing is deleted.
 */
export async function requireKnownRecords(
  trx: Kysely<DB>,
  caller: Caller,
  resource: string,
  kind: string | readonly string[],
  ids: readonly string[],
): Promise<void> {
  const kinds = typeof kind === 'string' ? [kind] : kind;
  const rows = await trx
    .selectFrom('record_list as r')
    .select('r.id')
    .where('r.tenant_id', '=', caller.ctx.tenantId)
    .where('r.id', 'in', [...ids])
    .where('r.kind', 'in', kinds as string[])
    .where('r.status', '<>', 'deleted')
    .where(inRecordScope(caller, 'read', resource))
    .forUpdate()
    .execute();
  refuseUnknownIds(
    ids,
    rows.map((r) => r.id),
  );
}

export interface CommandContext {
  trx: Kysely<DB>;
  caller: Caller;
  actor: Actor;
  at: string;
  request: FastifyRequest;
}

/** Runs one lifecycle command on a record stream in the caller's transaction. */
export async function runCommand<C>(
  c: CommandContext,
  kind: string,
  id: string,
  command: RecordCommand<C>,
  expectedVersion?: number,
  /** `quiet`: a dependent going along with its parent (a week's plans): only the parent's step is notified. */
  opts: { quiet?: boolean } = {},
): Promise<RecordState<C>> {
  const { request } = c;
  const ua = request.headers['user-agent'];
  const r = await handleCommandIn(c.trx, deciderOf<C>(kind), { tenantId: c.caller.ctx.tenantId, id }, command, {
    expectedVersion,
    metadata: {
      actorId: c.actor.id,
      actorName: c.actor.name,
      correlationId: String(request.id),
      ip: request.ip,
      userAgent: Array.isArray(ua) ? ua[0] : ua,
    },
  });
  // Who hears of it (returns, approvals, excellence, collections, resubmissions), in the same transaction.
  if (!opts.quiet)
    await notifyRecordEvents(
      c.trx,
      { tenantId: c.caller.ctx.tenantId, kind, id },
      r.state as RecordState<unknown>,
      r.events,
    );
  return r.state;
}

const deciders = new Map<string, ReturnType<typeof recordDecider>>();
function deciderOf<C>(kind: string) {
  let d = deciders.get(kind);
  if (!d) {
    if (!recordKind(kind)) throw new Error(`unknown record kind ${kind}`);
    d = recordDecider(kind);
    deciders.set(kind, d);
  }
  return d as unknown as ReturnType<typeof recordDecider<C>>;
}

/** A write: one tenant transaction with the actor and the command time. */
export async function write<T>(request: FastifyRequest, fn: (c: CommandContext) => Promise<T>): Promise<T> {
  const caller = await callerOf(request);
  const database = request.server.database;
  return inTenant(database, caller.ctx as TenantContext, async (trx) => {
    const actor = await actorIn(trx, caller.ctx);
    return fn({ trx, caller, actor, at: isoInZone(new Date(), caller.tz), request });
  });
}

/**
 * Refuses unless the caller holds the button (403). The route must declare the button in
 * `config.buttons` (the auth hook checks the declaration and the permission matrix records
 * it); checking an undeclared one is a programming error, never a silent extra rule.
 */
export function requireButton(caller: Caller, button: string) {
  if (!caller.buttons?.includes(button))
    throw new Error(`requireButton('${button}'): the route does not declare it in config.buttons`);
  if (!can(caller, button)) throw forbidden();
}

/** The semester of a date: Aug–Jan the first term of a school year, Feb–Jul the second. */
export function semesterOf(date: string): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  if (m >= 8) return `${y}-${y + 1}-1`;
  if (m === 1) return `${y - 1}-${y}-1`;
  return `${y - 1}-${y}-2`;
}
