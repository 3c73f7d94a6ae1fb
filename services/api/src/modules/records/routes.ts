import { EDITABLE_STATUSES, FullRecordSchema, ListRowSchema } from '@sprout/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type Kysely, sql } from 'kysely';
import { type ZodType, z } from 'zod';
import type { DB } from '@sprout/core/db';
import { badRequest, forbidden } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { findListPage, PagedList } from '@sprout/core/http/paging';
import { nextId } from '@sprout/core/ids';
import type { RecordHeader } from '@sprout/core/records/lifecycle';
import { localDate, mondayOf } from '@sprout/core/time';
import { okSchema, pageSchema } from '../../plugins/serialization';
import { IdListSchema } from '../../http/params';
import {
  accessTo,
  applyRecordFilter,
  type Caller,
  type CommandContext,
  callerOf,
  IdParamSchema,
  loadFull,
  lockRecord,
  type RecordFilter,
  type RecordRow,
  RecordFilterSchema,
  inRecordScope,
  inSharedReadScope,
  presentRow,
  type RecordFilterValues,
  recordFilterValues,
  recordQuery,
  requireButton,
  requireKnownRecords,
  runCommand,
  semesterOf,
  write,
} from './engine';

/**
 * The lifecycle's lists every family offers under its own legacy paths: a condition on
 * `record_list as r` for the caller (mine = author or co-author, and for a family whose
 * records belong to the class's team — the weeks — also the records of the classes she
 * teaches; "this term" = the semester of today in the tenant's time zone; ended = the
 * record's `endDate` before this Monday). The review queue leaves out only what she wrote.
 */
export type RecordList =
  | 'all'
  | 'mine'
  | 'mineOpen'
  | 'trial'
  | 'returned'
  | 'mineApproved'
  | 'approved'
  | 'excellent'
  | 'mineEnded'
  | 'ended'
  | 'mineApprovedThisTerm'
  | 'mineApprovedEarlier'
  | 'approvedEarlier'
  | 'trialThisTerm'
  | 'approvedThisTerm'
  | 'favorites';

type RecordQB = ReturnType<typeof recordQuery>;

/** Lists whose rows are published to the whole tenant: read in the shared scope (`inSharedReadScope`). */
export const SHARED_LISTS: ReadonlySet<RecordList> = new Set(['excellent', 'favorites']);

/** What the lifecycle lists compare with: the caller, her classes (a team's records), and today's semester and Monday. */
export interface ListValues {
  me: string;
  /** With a family's `team`: the classes she teaches (mine = authored, co-authored or of her classes). */
  teamClassIds?: string[];
  term: string;
  monday: string;
}

export function listValues(caller: Caller, team = false): ListValues {
  const classIds = caller.perms.grants.classIds;
  const today = localDate(new Date(), caller.tz);
  return {
    me: caller.ctx.userId,
    teamClassIds: team && classIds.length ? classIds : undefined,
    term: semesterOf(today),
    monday: mondayOf(today),
  };
}

/** Written or co-written by `me`. */
export const authoredBy = (me: unknown) => sql<boolean>`(r.author_id = ${me} or ${me} = any(r.co_author_ids))`;

/** Mine: authored or co-authored, and with the team's classes also the records of those classes. */
export const mineWhere = (v: Pick<ListValues, 'me' | 'teamClassIds'>) =>
  v.teamClassIds
    ? sql<boolean>`(${authoredBy(v.me)} or r.class_id = any(${sql.val(v.teamClassIds)}::bigint[]))`
    : authoredBy(v.me);

/** A lifecycle list's condition; `v` passed on as it is (a list statement is compiled once per shape: db/shapes.ts). */
export function listWhere(qb: RecordQB, list: RecordList, v: ListValues): RecordQB {
  const me = v.me;
  const mine = mineWhere(v);
  const term = v.term;
  const ended = sql<boolean>`(r.content ->> 'endDate') < ${v.monday}`;
  switch (list) {
    case 'all':
      return qb;
    case 'mine':
      return qb.where(mine);
    case 'mineOpen':
      return qb.where(mine).where('r.status', 'in', [...EDITABLE_STATUSES]);
    case 'trial':
      return qb.where('r.status', '=', 'trial').where(sql<boolean>`not ${authoredBy(me)}`);
    case 'returned':
      return qb.where('r.status', '=', 'returned');
    case 'mineApproved':
      return qb.where(mine).where('r.status', '=', 'success');
    case 'approved':
      return qb.where('r.status', '=', 'success');
    case 'excellent':
      return qb.where('r.status', '=', 'success').where('r.excellent', '=', true);
    case 'mineEnded':
      return qb.where(mine).where(ended);
    case 'ended':
      return qb.where(ended);
    case 'mineApprovedThisTerm':
      return qb.where(mine).where('r.status', '=', 'success').where('r.semester', '=', term);
    case 'mineApprovedEarlier':
      return qb.where(mine).where('r.status', '=', 'success').where('r.semester', '<', term);
    case 'approvedEarlier':
      return qb.where('r.status', '=', 'success').where('r.semester', '<', term);
    case 'trialThisTerm':
      return qb.where('r.status', '=', 'trial').where('r.semester', '=', term);
    case 'approvedThisTerm':
      return qb.where('r.status', '=', 'success').where('r.semester', '=', term);
    case 'favorites':
      return qb.where(
        sql<boolean>`exists (select 1 from record_favorite f where f.tenant_id = r.tenant_id
          and f.user_id = ${me} and f.record_id = r.id)`,
      );
  }
}

/** Records of a dept and every dept below it. */
export const inDeptTree = (tenantId: unknown, deptId: unknown) =>
  sql<boolean>`r.dept_id in (with recursive sub(id) as (
      select id from dept where tenant_id = ${tenantId} and id = ${deptId} and is_deleted = 0
      union all
      select d.id from dept d join sub on d.parent_id = sub.id
      where d.tenant_id = ${tenantId} and d.is_deleted = 0)
    select id from sub)`;

/**
 * What a list's conditions get: the filter's values (the common ones worked out:
 * `recordFilterValues`), the lifecycle's (`ListValues`), the tenant, and what the family's
 * and the path's `values` add. A list statement is compiled once per shape of them
 * (db/shapes.ts): a condition tests a value's presence and passes it on, never reads it.
 */
export type FilterValues<F extends RecordFilter> = Omit<
  F,
  'theme' | 'authorName' | 'createTime_dategt' | 'createTime_datelt' | 'current' | 'size'
> &
  RecordFilterValues &
  ListValues & { tenantId: string } & Record<string, unknown>;

/** A family as its lifecycle routes see it: where its paths live and what they list. */
export interface RecordFamily<F extends RecordFilter = RecordFilter> {
  /** The legacy path prefix, e.g. `/api/week/week`. */
  base: string;
  /** OpenAPI tag. */
  tag: string;
  /** Its data-scope resource (the menu's `resource`). */
  resource: string;
  /** The record kind its lists show. */
  kind: string;
  /** Its list filter (the common one, extended with the family's own fields). */
  filter?: z.ZodType<F>;
  /**
   * Applies the family's own filter fields. `v` holds the filter's values (the common ones
   * worked: `recordFilterValues`) and what `values` adds; a list statement is compiled once
   * per shape of them (db/shapes.ts): test a value's presence, pass it on, never read it.
   */
  narrow?: (qb: RecordQB, v: FilterValues<F>) => RecordQB;
  /** Values `narrow` needs worked out first (a LIKE pattern, a JSON containment). */
  values?: (f: F) => Record<string, unknown>;
  /** Its records belong to the class's teaching team: "mine" also lists her classes' records (the weeks). */
  team?: boolean;
}

/** One list path: a named lifecycle list (and any condition of its own) over the family's records. */
export interface RecordListRoute<F extends RecordFilter = RecordFilter> {
  method?: 'GET' | 'POST';
  url: string;
  summary: string;
  list?: RecordList;
  /** A button the list needs besides its screen (the review queue needs the review button). */
  button?: string;
  /** A filter of its own (the family's, extended with required fields such as classId or weekId). */
  filter?: z.ZodType<F>;
  /**
   * Its own condition over the values (as `RecordFamily.narrow`: pass them on, never read
   * them); null: nothing to list.
   */
  where?: (qb: RecordQB, v: FilterValues<F>) => RecordQB | null;
  /** Values `where` needs worked out first. */
  values?: (f: F & Record<string, unknown>, caller: Caller) => Record<string, unknown>;
  /** Read in the shared scope (published to the tenant); default: the excellent lists and the favourites. */
  shared?: boolean;
}

/** A list's values for a caller (see FilterValues): the filter worked, the family's and the path's own, the lifecycle's. */
export function listRouteValues<F extends RecordFilter>(
  family: RecordFamily<F>,
  l: RecordListRoute<F>,
  f: F,
  caller: Caller,
): FilterValues<F> {
  return {
    ...recordFilterValues(f, caller.tz),
    ...family.values?.(f),
    ...l.values?.(f as F & Record<string, unknown>, caller),
    ...listValues(caller, family.team),
    tenantId: caller.ctx.tenantId,
  } as FilterValues<F>;
}

/** A list's query over its values: the family's records, the filter, the named list and its own condition (no scope). */
export function buildList<F extends RecordFilter>(
  db: Kysely<DB>,
  family: RecordFamily<F>,
  l: RecordListRoute<F>,
  v: FilterValues<F>,
): RecordQB | null {
  let qb = applyRecordFilter(recordQuery(db, { tenantId: v.tenantId, userId: v.me }, family.kind), v);
  if (family.narrow) qb = family.narrow(qb, v);
  if (l.list) qb = listWhere(qb, l.list, v);
  return l.where ? l.where(qb, v) : qb;
}

/** One list's query for a caller (no scope): what its page reads, built afresh (the dashboard counts it). */
export const listQuery = <F extends RecordFilter>(
  db: Kysely<DB>,
  family: RecordFamily<F>,
  l: RecordListRoute<F>,
  f: F,
  caller: Caller,
) => buildList(db, family, l, listRouteValues(family, l, f, caller));

/** Is a list read in the shared scope? */
export const isShared = (l: Pick<RecordListRoute, 'list' | 'shared'>) =>
  l.shared ?? (l.list !== undefined && SHARED_LISTS.has(l.list));

/**
 * Registers a family's list paths, each a page of its records in the caller's read scope
 * (one statement: rows and total), filtered by the common record filter and the family's.
 * A `where` that answers null means "nothing to list" (an empty page). Each path's statement
 * is built once per shape of its values and per caller's data scope, then only bound
 * (`PagedList`, db/shapes.ts): building and compiling it was a tenth of a request's time.
 */
export function recordListRoutes<F extends RecordFilter>(
  app: FastifyInstance,
  family: RecordFamily<F>,
  routes: Array<RecordListRoute<F>>,
) {
  const tz = app.config.TIME_ZONE;
  for (const l of routes) {
    const method = l.method ?? 'POST';
    const filter = (l.filter ?? family.filter ?? RecordFilterSchema) as z.ZodType<F>;
    const list = new PagedList((db: Kysely<DB>, v: FilterValues<F>) =>
      (
        buildList(db, family, l, v) ??
        recordQuery(db, { tenantId: v.tenantId, userId: v.me }, family.kind).where(sql<boolean>`false`)
      )
        .orderBy('r.update_time', 'desc')
        .orderBy('r.id', 'desc'),
    );
    const shared = isShared(l);
    app.route({
      method,
      url: `${family.base}/${l.url}`,
      // A POST list takes its filter from the query string (Saber) or the body.
      config: { buttons: l.button ? [l.button] : [], mergeQuery: method === 'POST', reads: true },
      schema: {
        tags: [family.tag],
        summary: l.summary,
        ...(method === 'GET' ? { querystring: filter } : { body: filter }),
        response: { 200: okSchema(pageSchema(ListRowSchema)) },
      },
      handler: async (request) => {
        const f = (method === 'GET' ? request.query : request.body) as F;
        const caller = await callerOf(request);
        if (l.button) requireButton(caller, l.button);
        const page = await findListPage(
          app.database,
          caller.ctx,
          list,
          listRouteValues(family, l, f, caller),
          f,
          (row) => presentRow(row as unknown as RecordRow, tz),
          shared ? inSharedReadScope(caller, family.resource) : inRecordScope(caller, 'read', family.resource),
        );
        return ok(page, request.lang);
      },
    });
  }
}

/** What a call answering one record in full (an act, a save) declares as its response. */
export const RECORD_ANSWER = { 200: okSchema(FullRecordSchema) };

/** What a call answering no data (a remove) declares: `data: null`. */
export const NO_DATA = { 200: okSchema(z.null()) };

/** A remove's ids. */
export const IdsBodySchema = z.object({ ids: IdListSchema });

/**
 * What a POST declares: the buttons its handler may check (none by default), its body (the
 * query string merged in first: Saber sends a POST's parameters there) and its answer.
 */
export function postOptions<B extends ZodType, R extends Record<number, ZodType>>(p: {
  tag: string;
  summary: string;
  buttons?: string[];
  body: B;
  response: R;
  /** It only reads (a record by id sent as POST): the API log leaves it out. */
  reads?: boolean;
}) {
  return {
    config: { buttons: p.buttons ?? [], mergeQuery: true, ...(p.reads ? { reads: true } : {}) },
    schema: { tags: [p.tag], summary: p.summary, body: p.body, response: p.response },
  };
}

/** The acts on one record that are not edits: a reviewer's excellent mark, a reader's favourite. */
export type RecordAct = 'MarkExcellent' | 'UnmarkExcellent' | 'CollectRecord' | 'CancelCollection';

export interface RecordActRoute {
  url: string;
  summary: string;
  act: RecordAct;
  /** The answer's message key. */
  msg: string;
}

/**
 * Registers a family's excellent and favourite paths. Scope first (a record outside it is a
 * 404), then the lifecycle's rules; marking excellent also needs `excellentButton` and the
 * update scope. `kinds`: the record kinds the path accepts (a whole week can be marked too).
 */
export function recordActRoutes(
  app: FastifyInstance,
  family: Pick<RecordFamily, 'base' | 'tag' | 'resource'> & { kinds: string[]; excellentButton: string },
  routes: RecordActRoute[],
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const a of routes) {
    const marks = a.act === 'MarkExcellent' || a.act === 'UnmarkExcellent';
    r.post(
      `${family.base}/${a.url}`,
      postOptions({
        tag: family.tag,
        summary: a.summary,
        buttons: marks ? [family.excellentButton] : [],
        body: IdParamSchema,
        response: RECORD_ANSWER,
      }),
      async (request) => {
        const { id } = request.body;
        let kind = family.kinds[0] as string;
        await write(request, async (c) => {
          // A favourite is a reader's act on what is published: the shared scope; a mark needs the update scope.
          const row = await lockRecord(c.trx, c.caller, family.resource, family.kinds, id, !marks);
          kind = row.kind;
          if (marks) {
            requireButton(c.caller, family.excellentButton);
            if (!accessTo(c.caller, family.resource, row).update) throw forbidden();
          }
          await runCommand(c, row.kind, id, { type: a.act, actor: c.actor, at: c.at });
        });
        return ok(await loadFull(request, family.resource, kind, id, !marks), request.lang, a.msg);
      },
    );
  }
}

/** What a remove of records declares: its button, its ids (Saber: comma-separated, in the query string), no data. */
export const removeOptions = (tag: string, summary: string, button: string) =>
  postOptions({ tag, summary, buttons: [button], body: IdsBodySchema, response: NO_DATA });

/**
 * Removes records of `kind` (the remove rule, docs/API.md): at least one id (else a 400),
 * the caller holds `button`, every id is a live record in their read scope (else a 400 naming
 * the others), then `each` checks and deletes one, all in one write.
 */
export async function removeRecords(
  request: FastifyRequest,
  q: { button: string; resource: string; kind: string; ids: string[] },
  each: (c: CommandContext, id: string) => Promise<void>,
) {
  if (!q.ids.length) throw badRequest('records.selectOne');
  await write(request, async (c) => {
    requireButton(c.caller, q.button);
    await requireKnownRecords(c.trx, c.caller, q.resource, q.kind, q.ids);
    for (const id of q.ids) await each(c, id);
  });
}

/** Where a record sits: its dept, class and semester (the kind is the family's). */
export type RecordPlace = Omit<RecordHeader, 'kind'>;

/**
 * A family's create-or-save (Saber's `submit`/`add`): a new record when there is no id
 * (`buttons.add`), else a save of an editable one (`buttons.edit`), in one write; the record in
 * full as the answer. `place` finds where the record sits (checks shared by both), `create`
 * and `update` add the family's own checks; `update` says whether the caller writes as the team.
 */
export async function saveRecord(
  request: FastifyRequest,
  q: {
    kind: string;
    resource: string;
    buttons: { add: string; edit: string };
    id?: string | undefined;
    version?: number | undefined;
    content: unknown;
  },
  hooks: {
    place: (c: CommandContext) => Promise<RecordPlace>;
    create?: (c: CommandContext, place: RecordPlace) => Promise<void>;
    update: (c: CommandContext, row: RecordRow, place: RecordPlace) => Promise<{ team: boolean; header?: RecordPlace }>;
    /** In the same write after the save: what goes with it (the files it uses, a submit). */
    after?: (c: CommandContext, id: string) => Promise<void>;
  },
  msg = 'records.saved',
) {
  const id = q.id ?? nextId();
  await write(request, async (c) => {
    const place = await hooks.place(c);
    if (!q.id) {
      requireButton(c.caller, q.buttons.add);
      await hooks.create?.(c, place);
      const header = { kind: q.kind, ...place };
      await runCommand(c, q.kind, id, { type: 'CreateRecord', actor: c.actor, at: c.at, header, content: q.content });
    } else {
      requireButton(c.caller, q.buttons.edit);
      const row = await lockRecord(c.trx, c.caller, q.resource, q.kind, id);
      const { team, header } = await hooks.update(c, row, place);
      const command = { type: 'UpdateDraft', actor: c.actor, at: c.at, content: q.content, team } as const;
      await runCommand(c, q.kind, id, header ? { ...command, header } : command, q.version);
    }
    await hooks.after?.(c, id);
  });
  return ok(await loadFull(request, q.resource, q.kind, id), request.lang, msg);
}

/**
 * A family's `remove` (Saber's ids): the remove rule, then `each` checks and deletes one
 * record, all in one write. What is left to say: what may go (the record's own rules).
 */
export function recordRemoveRoute(
  app: FastifyInstance,
  f: Pick<RecordFamily, 'base' | 'tag' | 'resource' | 'kind'> & { summary: string; button: string },
  each: (c: CommandContext, id: string) => Promise<void>,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(`${f.base}/remove`, removeOptions(f.tag, f.summary, f.button), async (request) => {
    const { button, resource, kind } = f;
    await removeRecords(request, { button, resource, kind, ids: request.body.ids }, each);
    return ok(null, request.lang, 'records.deleted');
  });
}
