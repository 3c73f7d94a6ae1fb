import { HistoryEntrySchema, isEditableStatus, mayWrite, ReviewRecordSchema, VersionSchema } from '@sprout/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { containsPattern, inTenant } from '@sprout/core/db';
import { AppError, badRequest, forbidden, notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { defineRecordKind, type RecordKind } from '@sprout/core/records/kinds';
import '@sprout/core/records/messages';
import { tenantOf } from '../../plugins/context';
import { okSchema } from '../../plugins/serialization';
import { IdSchema } from '../../http/params';
import { useAttachments } from '../attach';
import {
  accessTo,
  type CommandContext,
  callerOf,
  IdParamSchema,
  inRecordScope,
  inSharedReadScope,
  loadFull,
  lockRecord,
  type RecordFilter,
  type RecordQB,
  type RecordRow,
  RecordFilterSchema,
  requireButton,
  semesterOf,
  write,
} from './engine';
import {
  familyDocChanged,
  familyLiveContent,
  type LiveFamily,
  registerLiveFamily,
  saveFamilyRevisionIn,
  syncFamilyDoc,
} from './family-live';
import { recordTimeline } from './history';
import { familyExportRoutes, registerFamilyZip } from './family-export';
import { lifecycleHandlers } from './lifecycle-routes';
import {
  IdsBodySchema,
  NO_DATA,
  postOptions,
  RECORD_ANSWER,
  type RecordAct,
  type RecordFamily,
  type RecordList,
  type RecordPlace,
  recordActRoutes,
  recordListRoutes,
  saveRecord,
  type FilterValues,
} from './routes';

/**
 * A teaching-record family as data (issue 18): its record kind, its data-scope resource, its
 * buttons, the fields its lists search and filter by, what its content names (class, date,
 * children, goals, photos) and a table of its legacy paths, each one engine operation. The
 * engine registers every path with its schema, buttons, data scope, tenant, history and
 * events; a family writes no route.
 */

/** What a legacy path does: one operation of the engine. */
export type FamilyOp =
  /** Lists: mine (author or co-author), everything in scope, the review queue, approved, excellent, my favourites. */
  | 'mine'
  | 'scope'
  | 'trial'
  | 'approved'
  | 'excellent'
  | 'myCollection'
  /** Any other named lifecycle list (`list` of the path: mineOpen, returned, mineEnded …). */
  | 'list'
  /** Records naming a child whose name contains `nickName`. */
  | 'byNickName'
  /** One record in full (`id`), its timeline. */
  | 'byId'
  | 'history'
  /** Writes: save (create when no id), save and submit for review, review, remove. */
  | 'update'
  | 'submit'
  | 'review'
  | 'remove'
  /** Acts on one record: the excellent mark, a reader's favourites. */
  | 'excellentMark'
  | 'excellentUnmark'
  | 'collect'
  | 'cancelCollect'
  /** The form's pickers: the tenant's people (host, participants, members), its depts. */
  | 'teachers'
  | 'depts'
  /** Word export of one record, a zip of many. */
  | 'exportOne'
  | 'exportLink'
  | 'exportMany'
  /** A co-edited family's live document saved now as a revision (an event naming its authors). */
  | 'saveRevision';

/** One legacy path: method and URL (under the family's base), the operation, its OpenAPI summary. */
export interface FamilyPath {
  method: 'GET' | 'POST';
  url: string;
  op: FamilyOp;
  summary: string;
  /** A list's fixed condition: `status` on the record's status, any other key on that content field. */
  filter?: Record<string, string>;
  /** Op `list`: which lifecycle list. */
  list?: RecordList;
  /** A list whose `id` parameter (required) names this content field: a visit's items, a project's activities. */
  idIs?: string;
}

/** What a record's content names: checked against the tenant's rows on every save. */
export interface RecordRefs {
  /** Its class; none (a teacher's own plan, a research activity): the record is its author's, in `deptId` or her dept. */
  classId?: string | null;
  /** The record's day: its semester (unless `semester` names it). */
  date?: string;
  semester?: string;
  /** A record without class: its dept (checked), else the author's. */
  deptId?: string;
  children?: readonly string[];
  goals?: readonly string[];
  /** Attachment ids that must be pictures. */
  photos?: readonly string[];
  /** Attachment ids of any type (documents). */
  files?: readonly string[];
  /** Users of the tenant it names (host, participants, members). */
  teachers?: readonly string[];
  /** Other live records of the tenant it names (a research activity's project). */
  records?: ReadonlyArray<{ kind: string; id: string }>;
}

/**
 * A record that belongs to another (a half-day visit's items): it takes the parent's class,
 * dept and semester, and is written only while the parent is, by those who may write it.
 */
export interface RecordWithin<C> {
  kind: string;
  resource: string;
  id: (content: C) => string;
}

export interface RecordFamilyDef<C> {
  /** The record kind (stream type, `record_list.kind`). */
  kind: string;
  /** Its data-scope resource (the menu's `resource`). */
  resource: string;
  /** The legacy path prefix, e.g. `/api/t_hearken/hearken`. */
  base: string;
  /** OpenAPI tag. */
  tag: string;
  content: z.ZodType<C>;
  title: (content: C) => string;
  parent?: (content: C) => string | null;
  refs: (content: C) => RecordRefs;
  /** The parent record this one lives in (the list's `parent_id`). */
  within?: RecordWithin<C>;
  /** The kind of the records living in this one (`within` it): submitted, reviewed and deleted with it. */
  items?: string;
  /** The goal codes that exist (《指南》); none for families without goals. */
  goals?: readonly string[];
  /** Content text fields a list's `keyword` searches (besides the title, `theme`). */
  search?: readonly string[];
  /** Content fields a list filters by equality (a parameter of the same name). */
  match?: readonly string[];
  buttons: { add: string; edit: string; delete: string; submit: string; review: string; excellent?: string };
  paths: readonly FamilyPath[];
  /** The family's name, Chinese and English (a zip export's file name). */
  name?: readonly [string, string];
  /** Its printed (Word) layout: the content's sections in order, `[field, 中文, English]`; none = no export. */
  print?: ReadonlyArray<readonly [string, string, string]>;
  /**
   * One document its people write together, live (its kind listed in `LIVE_RECORD_DOCS`): who
   * may join is who may edit the record; revisions and the submission come from the document
   * (`family-live.ts`), a save through the API is written into it.
   */
  live?: boolean;
}

export interface RecordFamilyDeclared<C> {
  def: RecordFamilyDef<C>;
  kind: RecordKind<C>;
  /** A Fastify plugin registering every path of the table. */
  routes: (app: FastifyInstance) => Promise<void>;
}

const LIST_OF: Partial<Record<FamilyOp, RecordList>> = {
  mine: 'mine',
  scope: 'all',
  trial: 'trial',
  approved: 'approved',
  excellent: 'excellent',
  myCollection: 'favorites',
  byNickName: 'all',
};

const ACT_OF: Partial<Record<FamilyOp, [RecordAct, string]>> = {
  excellentMark: ['MarkExcellent', 'records.markedExcellent'],
  excellentUnmark: ['UnmarkExcellent', 'records.unmarkedExcellent'],
  collect: ['CollectRecord', 'records.collected'],
  cancelCollect: ['CancelCollection', 'records.collectionCancelled'],
};

/** Declares a family: its record kind (defineRecordKind) and its routes from the table. */
export function defineRecordFamily<C>(def: RecordFamilyDef<C>): RecordFamilyDeclared<C> {
  const kind = defineRecordKind<C>({
    kind: def.kind,
    resource: def.resource,
    content: def.content,
    title: def.title,
    ...(def.parent ? { parent: def.parent } : def.within ? { parent: def.within.id } : {}),
  });
  if (def.print) registerFamilyZip(def);
  if (def.live) registerLiveFamily(liveFamilyOf(def));
  return { def, kind, routes: (app) => familyRoutes(app, def) };
}

/** The class a record is for (its dept), in the caller's write scope; checks what the content names. */
async function placeOf<C>(c: CommandContext, def: RecordFamilyDef<C>, content: C): Promise<RecordPlace> {
  const refs = def.refs(content);
  const tenantId = c.caller.ctx.tenantId;
  const place = def.within ? await parentPlace(c, def.within, content) : await ownPlace(c, def, refs);
  const children = [...new Set(refs.children ?? [])];
  if (children.length) {
    const found = await c.trx
      .selectFrom('student')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('class_id', '=', place.classId as string)
      .where('is_deleted', '=', 0)
      .where('id', 'in', children)
      .execute();
    if (found.length !== children.length) throw badRequest('records.childNotInClass');
  }
  if ((refs.goals ?? []).some((g) => !(def.goals ?? []).includes(g))) throw badRequest('records.unknownGoal');
  const photos = [...new Set(refs.photos ?? [])];
  if (photos.length) {
    const { rows } = await sql<{ id: string; content_type: string }>`select id::text as id, content_type from attach
      where tenant_id = ${tenantId} and is_deleted = 0 and id = any(${photos}::bigint[])`.execute(c.trx);
    if (rows.length !== photos.length) throw badRequest('records.photoNotFound');
    if (rows.some((r) => !r.content_type.startsWith('image/'))) throw badRequest('records.photoNotImage');
  }
  const teachers = [...new Set(refs.teachers ?? [])];
  if (teachers.length) {
    const found = await c.trx
      .selectFrom('app_user')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('is_deleted', '=', 0)
      .where('id', 'in', teachers)
      .execute();
    if (found.length !== teachers.length) throw badRequest('records.unknownTeacher');
  }
  for (const link of refs.records ?? []) {
    const found = await c.trx
      .selectFrom('record_list')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('id', '=', link.id)
      .where('kind', '=', link.kind)
      .where('status', '<>', 'deleted')
      .executeTakeFirst();
    if (!found) throw badRequest('records.unknownLinked');
  }
  return place;
}

/** A record's own place: its class (in the caller's write scope), or, without class, its dept. */
async function ownPlace<C>(c: CommandContext, def: RecordFamilyDef<C>, refs: RecordRefs): Promise<RecordPlace> {
  const tenantId = c.caller.ctx.tenantId;
  const semester = refs.semester ?? semesterOf(refs.date ?? '');
  let deptId: string | null;
  let classId: string | null = null;
  if (refs.classId) {
    const cls = await c.trx
      .selectFrom('clazz')
      .select(['id', 'dept_id'])
      .where('tenant_id', '=', tenantId)
      .where('id', '=', refs.classId)
      .where('is_deleted', '=', 0)
      .executeTakeFirst();
    if (!cls) throw badRequest('records.unknownClass');
    deptId = cls.dept_id === null ? null : String(cls.dept_id);
    classId = String(cls.id);
  } else if (refs.deptId) {
    const dept = await c.trx
      .selectFrom('dept')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('id', '=', refs.deptId)
      .where('is_deleted', '=', 0)
      .executeTakeFirst();
    if (!dept) throw badRequest('records.unknownDept');
    deptId = String(dept.id);
  } else {
    const me = await c.trx
      .selectFrom('app_user')
      .select('dept_id')
      .where('tenant_id', '=', tenantId)
      .where('id', '=', c.caller.ctx.userId)
      .executeTakeFirst();
    deptId = me?.dept_id === null || me?.dept_id === undefined ? null : String(me.dept_id);
  }
  const wouldBe = { tenant_id: tenantId, id: '0', author_id: c.caller.ctx.userId, co_author_ids: [] };
  const row = { ...wouldBe, dept_id: deptId, class_id: classId } as unknown as RecordRow;
  if (!accessTo(c.caller, def.resource, row).update)
    throw forbidden(classId ? 'records.classNotYours' : 'records.deptNotYours');
  return { deptId, classId, semester };
}

/** A record inside another: the parent must be live, in the caller's scope, still written, and hers to write. */
async function parentPlace<C>(c: CommandContext, within: RecordWithin<C>, content: C): Promise<RecordPlace> {
  const parent = (await c.trx
    .selectFrom('record_list as r')
    .selectAll('r')
    .where('r.tenant_id', '=', c.caller.ctx.tenantId)
    .where('r.id', '=', within.id(content))
    .where('r.kind', '=', within.kind)
    .where('r.status', '<>', 'deleted')
    .where(inRecordScope(c.caller, 'read', within.resource))
    .forShare()
    .executeTakeFirst()) as RecordRow | undefined;
  if (!parent) throw badRequest('records.unknownParent');
  const access = accessTo(c.caller, within.resource, parent);
  if (!mayWrite(parent.status, access, true)) {
    if (!access.update || !(access.author || access.team)) throw forbidden('record.notAuthor');
    throw new AppError('conflict', 'records.parentNotEditable');
  }
  return { deptId: parent.dept_id, classId: parent.class_id, semester: parent.semester };
}

/** The live records of `kind` within a record (locked): they go along with its lifecycle. */
function itemsOf(c: CommandContext, kind: string, parentId: string) {
  return c.trx
    .selectFrom('record_list')
    .select(['id', 'kind', 'status'])
    .where('tenant_id', '=', c.caller.ctx.tenantId)
    .where('parent_id', '=', parentId)
    .where('kind', '=', kind)
    .where('status', '<>', 'deleted')
    .orderBy('id')
    .forUpdate()
    .execute();
}

const liveFamilyOf = <C>(def: RecordFamilyDef<C>): LiveFamily => ({
  kind: def.kind,
  content: def.content,
  place: (c: never) => def.refs(c as C),
});

/** Registers the paths of a family's table. */
async function familyRoutes<C>(app: FastifyInstance, def: RecordFamilyDef<C>) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { base, tag, resource, kind, buttons } = def;
  const url = (p: FamilyPath) => `${base}/${p.url}`;
  const live = def.live ? liveFamilyOf(def) : null;

  const open = async (c: CommandContext, id: string) => {
    const row = await lockRecord(c.trx, c.caller, resource, kind, id);
    const access = accessTo(c.caller, resource, row);
    if (!access.update) throw forbidden('record.notAuthor');
    return { team: access.team };
  };
  const lifecycle = lifecycleHandlers({
    kind,
    resource,
    buttons: { submit: buttons.submit, review: buttons.review, remove: buttons.delete },
    open,
    detail: (request, id) => loadFull(request, resource, kind, id),
    ...(def.items ? { dependents: (c, id) => itemsOf(c, def.items as string, id) } : {}),
    ...(live
      ? {
          liveContent: (c, id, lang) => familyLiveContent(c.trx, live, c.caller.ctx.tenantId, id, lang),
          changed: (request, id) => familyDocChanged(app.auth.kv, tenantOf(request).tenantId, kind, id),
        }
      : {}),
  });

  const search = def.search ?? [];
  const match = def.match ?? [];
  const FilterSchema = RecordFilterSchema.extend({
    keyword: z.string().trim().max(100).optional(),
    ...Object.fromEntries(match.map((f) => [f, z.string().trim().max(50).optional()])),
  });
  type Filter = z.output<typeof FilterSchema>;
  const family = {
    base,
    tag,
    resource,
    kind,
    filter: FilterSchema,
    values: (f: Filter) => ({ keywordLike: f.keyword ? containsPattern(f.keyword) : undefined }),
    narrow: (qb: RecordQB, v: FilterValues<Filter>) => {
      let out = qb;
      if (v.keywordLike && search.length)
        out = out.where(
          sql<boolean>`(${sql.join(
            [sql`r.title`, ...search.map((s) => sql`r.content ->> ${sql.lit(s)}`)].map(
              (e) => sql`${e} like ${v.keywordLike}`,
            ),
            sql` or `,
          )})`,
        );
      for (const m of match) {
        const value = v[m];
        if (value) out = out.where(sql<boolean>`r.content ->> ${sql.lit(m)} = ${value}`);
      }
      return out;
    },
  };

  const SaveSchema = z.object({ id: IdSchema.optional(), version: VersionSchema.optional(), content: def.content });
  const SubmitSchema = SaveSchema.extend({ content: def.content.optional() });
  const save = async (
    request: FastifyRequest,
    body: { id?: string; version?: number; content: C },
    submit: boolean,
  ) => {
    const answer = await saveFields(request, body, submit);
    // Saved through the API while people may be writing it live: they see the saved content at once.
    if (live && body.id) await familyDocChanged(app.auth.kv, tenantOf(request).tenantId, kind, body.id);
    return answer;
  };
  const saveFields = (request: FastifyRequest, body: { id?: string; version?: number; content: C }, submit: boolean) =>
    saveRecord(
      request,
      { kind, resource, buttons: { add: buttons.add, edit: buttons.edit }, ...body },
      {
        place: (c) => placeOf(c, def, body.content),
        update: async (c, row, place) => {
          const access = accessTo(c.caller, resource, row);
          if (!access.update) throw forbidden('record.notAuthor');
          return { team: access.team, header: place };
        },
        after: async (c, id) => {
          // The record holds its photos: removing one of them is refused while it does.
          const name = def.title(body.content);
          const refs = def.refs(body.content);
          const used = [...(refs.photos ?? []), ...(refs.files ?? [])];
          await useAttachments(c.trx, c.caller.ctx.tenantId, used, { kind, id, name });
          // Its live document reads what was saved (and holds nothing unsaved: a submit takes this content).
          if (live) await syncFamilyDoc(c.trx, c.caller.ctx.tenantId, kind, id, body.content);
          if (!submit) return;
          requireButton(c.caller, buttons.submit);
          await lifecycle.submitIn(c, id, undefined);
        },
      },
      submit ? 'records.submitted' : 'records.saved',
    );

  const exports = def.print
    ? def.paths.filter((p) => p.op === 'exportOne' || p.op === 'exportLink' || p.op === 'exportMany')
    : [];
  familyExportRoutes(app, def, exports);
  recordTableRoutes(
    app,
    { ...family, reviewButton: buttons.review, excellentButton: buttons.excellent ?? buttons.review },
    def.paths.filter((p) => !exports.includes(p)),
  );

  for (const p of def.paths) {
    const idQuery = { tags: [tag], summary: p.summary, querystring: IdParamSchema };
    switch (p.op) {
      case 'update':
        r.post(
          url(p),
          postOptions({
            tag,
            summary: p.summary,
            buttons: [buttons.add, buttons.edit],
            body: SaveSchema,
            response: RECORD_ANSWER,
          }),
          (request) => save(request, request.body as { id?: string; version?: number; content: C }, false),
        );
        break;
      case 'submit':
        r.post(
          url(p),
          postOptions({
            tag,
            summary: p.summary,
            buttons: [buttons.add, buttons.edit, buttons.submit],
            body: SubmitSchema,
            response: RECORD_ANSWER,
          }),
          (request) => {
            const body = request.body as { id?: string; version?: number; content?: C };
            if (body.content !== undefined) return save(request, { ...body, content: body.content }, true);
            if (!body.id) throw badRequest('records.contentRequired');
            return lifecycle.submit(request, body.id, body.version) as Promise<never>;
          },
        );
        break;
      case 'saveRevision':
        if (!live) throw new Error(`${kind}: saveRevision needs a co-edited family (live: true)`);
        r.post(
          url(p),
          postOptions({
            tag,
            summary: p.summary,
            buttons: [buttons.edit],
            body: IdParamSchema,
            response: RECORD_ANSWER,
          }),
          async (request) => {
            const { id } = request.body;
            await write(request, async (c) => {
              requireButton(c.caller, buttons.edit);
              const row = await lockRecord(c.trx, c.caller, resource, kind, id);
              const access = accessTo(c.caller, resource, row);
              if (!isEditableStatus(row.status)) throw new AppError('conflict', 'record.editInTrial');
              if (!access.update || !(access.author || access.team)) throw forbidden('record.notAuthor');
              await saveFamilyRevisionIn(c.trx, live, {
                tenantId: c.caller.ctx.tenantId,
                id,
                actorId: c.caller.ctx.userId,
                timeZone: c.caller.tz,
                lang: request.lang,
                strict: true,
              });
            });
            return ok(await loadFull(request, resource, kind, id), request.lang, 'records.saved');
          },
        );
        break;
      case 'review':
        r.post(
          url(p),
          postOptions({
            tag,
            summary: p.summary,
            buttons: [buttons.review],
            body: ReviewRecordSchema,
            response: RECORD_ANSWER,
          }),
          (request) => lifecycle.review(request, request.body) as Promise<never>,
        );
        break;
      case 'remove':
        if (p.method === 'GET')
          r.get(
            url(p),
            { config: { buttons: [buttons.delete] }, schema: { ...idQuery, response: NO_DATA } },
            (request) => lifecycle.remove(request, [request.query.id]),
          );
        else
          r.post(
            url(p),
            postOptions({ tag, summary: p.summary, buttons: [buttons.delete], body: IdsBodySchema, response: NO_DATA }),
            (request) => lifecycle.remove(request, request.body.ids),
          );
        break;
    }
  }
}

/**
 * What a table of paths reads through (a declared family, or a family whose writes are its
 * own — the week's lesson plans): where its paths live, what they list, the buttons of its
 * review queue and excellent marks, and the kinds its acts accept.
 */
export interface RecordTable<F extends RecordFilter = RecordFilter> extends RecordFamily<F> {
  reviewButton?: string;
  excellentButton?: string;
  /** The kinds an act accepts (default: the family's kind). */
  kinds?: string[];
}

/**
 * Registers a table's read paths and acts: its lists (each a page in the caller's read
 * scope), one record by id, its timeline, the excellent and favourite acts, and the export
 * refusal. Write operations need a declared family (`defineRecordFamily`).
 */
export function recordTableRoutes<F extends RecordFilter>(
  app: FastifyInstance,
  t: RecordTable<F>,
  paths: readonly FamilyPath[],
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { base, tag, resource, kind } = t;
  const url = (p: FamilyPath) => `${base}/${p.url}`;
  const nickNameFilter = ((t.filter ?? RecordFilterSchema) as unknown as typeof RecordFilterSchema).extend({
    nickName: z.string().trim().min(1, { message: '$records.nickNameRequired' }).max(50),
  }) as unknown as z.ZodType<F>;
  const idFilter = ((t.filter ?? RecordFilterSchema) as unknown as typeof RecordFilterSchema).extend({
    id: IdSchema,
  }) as unknown as z.ZodType<F>;
  const listOf = (p: FamilyPath) => (p.op === 'list' ? p.list : LIST_OF[p.op]);
  const lists = paths.filter((p) => listOf(p));
  recordListRoutes(
    app,
    t,
    lists.map((p) => ({
      method: p.method,
      url: p.url,
      summary: p.summary,
      list: listOf(p) as RecordList,
      ...(p.op === 'trial' && t.reviewButton ? { button: t.reviewButton } : {}),
      ...(p.op === 'byNickName' ? { filter: nickNameFilter } : p.idIs ? { filter: idFilter } : {}),
      ...(p.op === 'byNickName'
        ? { values: (f: F & Record<string, unknown>) => ({ nickLike: containsPattern(String(f.nickName)) }) }
        : {}),
      where: (qb, v) => {
        let out = applyFixed(qb, p.filter);
        if (p.idIs) out = out.where(sql<boolean>`r.content ->> ${sql.lit(p.idIs)} = ${v.id}`);
        if (p.op !== 'byNickName') return out;
        return out.where(
          sql<boolean>`exists (select 1 from student s where s.tenant_id = r.tenant_id and s.is_deleted = 0
            and s.name like ${v.nickLike}
            and (r.content -> 'studentIds' @> to_jsonb(s.id::text) or r.content ->> 'studentId' = s.id::text))`,
        );
      },
    })),
  );

  for (const p of paths) {
    const act = ACT_OF[p.op];
    if (act) {
      const excellentButton = t.excellentButton ?? t.reviewButton ?? '';
      recordActRoutes(app, { base, tag, resource, kinds: t.kinds ?? [kind], excellentButton }, [
        { url: p.url, summary: p.summary, act: act[0], msg: act[1] },
      ]);
      continue;
    }
    const idQuery = { tags: [tag], summary: p.summary, querystring: IdParamSchema };
    switch (p.op) {
      case 'byId':
        if (p.method === 'GET')
          r.get(url(p), { schema: { ...idQuery, response: RECORD_ANSWER } }, async (request) =>
            ok(await loadFull(request, resource, kind, request.query.id, true), request.lang),
          );
        else
          r.post(
            url(p),
            postOptions({ tag, summary: p.summary, body: IdParamSchema, response: RECORD_ANSWER, reads: true }),
            async (request) => ok(await loadFull(request, resource, kind, request.body.id, true), request.lang),
          );
        break;
      case 'history':
        r.get(
          url(p),
          { schema: { ...idQuery, response: { 200: okSchema(z.array(HistoryEntrySchema)) } } },
          async (request) => {
            const caller = await callerOf(request);
            const id = request.query.id;
            const timeline = await inTenant(app.database, caller.ctx, async (trx) => {
              const row = await trx
                .selectFrom('record_list as r')
                .select('r.id')
                .where('r.tenant_id', '=', caller.ctx.tenantId)
                .where('r.id', '=', id)
                .where('r.kind', '=', kind)
                .where('r.status', '<>', 'deleted')
                .where(inSharedReadScope(caller, resource))
                .executeTakeFirst();
              if (!row) throw notFound('record.notFound');
              return recordTimeline(trx, caller.ctx.tenantId, id, caller.tz);
            });
            return ok(timeline, request.lang);
          },
        );
        break;
      case 'teachers':
      case 'depts': {
        const what = p.op;
        r.get(
          url(p),
          { schema: { tags: [tag], summary: p.summary, response: { 200: okSchema(z.array(PickSchema)) } } },
          async (request) => {
            const caller = await callerOf(request);
            const rows = await inTenant(app.database, caller.ctx, (trx) => picks(trx, caller.ctx.tenantId, what));
            return ok(rows, request.lang);
          },
        );
        break;
      }
      case 'exportOne':
      case 'exportLink':
      case 'exportMany':
        // Word export of these families is not built yet: a clear refusal, never a 404 or 5xx.
        app.route({
          method: p.method,
          url: url(p),
          schema: { tags: [tag], summary: p.summary, response: NO_DATA },
          handler: async () => {
            throw badRequest('records.exportUnavailable');
          },
        });
        break;
    }
  }
}

const PickSchema = z.object({ id: z.string(), name: z.string() });

/** A picker's choices: the tenant's live users (by their real name) or depts, in order. */
async function picks(trx: CommandContext['trx'], tenantId: string, what: 'teachers' | 'depts') {
  const rows =
    what === 'teachers'
      ? await trx
          .selectFrom('app_user')
          .select(['id', sql<string>`coalesce(nullif(real_name, ''), nullif(name, ''), account)`.as('name')])
          .where('tenant_id', '=', tenantId)
          .where('is_deleted', '=', 0)
          .orderBy('id')
          .execute()
      : await trx
          .selectFrom('dept')
          .select(['id', 'dept_name as name'])
          .where('tenant_id', '=', tenantId)
          .where('is_deleted', '=', 0)
          .orderBy('sort')
          .orderBy('id')
          .execute();
  return rows.map((r) => ({ id: String(r.id), name: String(r.name) }));
}

/** A list path's fixed condition (`status`, or content fields). */
function applyFixed(qb: RecordQB, filter: Record<string, string> | undefined): RecordQB {
  let out = qb;
  for (const [k, v] of Object.entries(filter ?? {}))
    out =
      k === 'status'
        ? out.where('r.status', '=', v as never)
        : out.where(sql<boolean>`r.content ->> ${sql.lit(k)} = ${v}`);
  return out;
}
