import { markRevision } from '@sprout/collab';
import {
  AddWeekSchema,
  BossUpdateWeekSchema,
  type DayPlanContent,
  isEditableStatus,
  mayWrite,
  ReviewWeekSchema,
  SubmitWeekSchema,
  UpdateWeekSchema,
  type WeekCan,
  type WeekContent,
  type WeekPlanContent,
} from '@sprout/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { type DB, inTenant } from '@sprout/core/db';
import { AppError, badRequest, forbidden, notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { nextId } from '@sprout/core/ids';
import { addDays } from '@sprout/core/time';
import {
  accessTo,
  type Caller,
  type CommandContext,
  callerOf,
  can,
  IdBodySchema,
  inRecordScope,
  lockRecord,
  loadRecord,
  presentFull,
  type RecordRow,
  RecordFilterSchema,
  recordQuery,
  requireButton,
  requireKnownRecords,
  runCommand,
  semesterOf,
  write,
  inDeptTree,
  type RecordFamily,
  type RecordListRoute,
  recordListRoutes,
} from '../records';
import { recordTimeline } from '../records';
import { docChanged, liveRevision, saveRevisionIn, syncDoc, weekDoc } from './collab-link';
import { tenantOf } from '../../plugins/context';
import { IdListSchema, IdSchema, input } from '../../http/params';

export const RESOURCE = 'week';
const WEEKS: RecordFamily = { base: '/api/week/week', tag: 'weeks', resource: RESOURCE, kind: 'week' };
/** The record kinds that travel with a week (its lesson plans and day plans). */
export const CHILD_KINDS = ['week_plan', 'day_plan'] as const;

const ClassFilterSchema = RecordFilterSchema.extend({ classId: IdSchema });
const DeptFilterSchema = RecordFilterSchema.extend({ deptId: IdSchema.optional() });

/** The class a week is for: its dept, so the record's scope columns are right; 400 when unknown. */
export async function classOf(trx: Kysely<DB>, tenantId: string, classId: string) {
  const c = await trx
    .selectFrom('clazz')
    .select(['id', 'dept_id', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', classId)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  if (!c) throw badRequest('records.unknownClass');
  return { id: String(c.id), deptId: c.dept_id === null ? null : String(c.dept_id), name: c.name };
}

/** Could the caller write a record of this class (the row it would become is in their update scope)? */
function mayWriteFor(caller: Caller, cls: { id: string; deptId: string | null }) {
  return accessTo(caller, RESOURCE, {
    tenant_id: caller.ctx.tenantId,
    id: '0',
    author_id: caller.ctx.userId,
    co_author_ids: [],
    dept_id: cls.deptId,
    class_id: cls.id,
  } as unknown as RecordRow).update;
}

/** The live plans and day plans of a week, locked. */
export async function childrenOf(trx: Kysely<DB>, tenantId: string, weekId: string) {
  return trx
    .selectFrom('record_list')
    .select(['id', 'kind', 'status', 'content'])
    .where('tenant_id', '=', tenantId)
    .where('parent_id', '=', weekId)
    .where('kind', 'in', [...CHILD_KINDS])
    .where('status', '<>', 'deleted')
    .orderBy('create_time')
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** Locks a week the caller may change (update scope), or 404 / 403. */
export async function editableWeek(c: CommandContext, id: string) {
  const row = await lockRecord(c.trx, c.caller, RESOURCE, 'week', id);
  const access = accessTo(c.caller, RESOURCE, row);
  if (!access.update) throw forbidden('record.notAuthor');
  return { row, access };
}

/** A week and what goes with it, as `alllistForId` shows it. */
async function weekDetail(request: FastifyRequest, id: string) {
  const caller = await callerOf(request);
  const database = request.server.database;
  const row = await loadRecord(database, caller, RESOURCE, 'week', id);
  const [plans, dayPlans] = await Promise.all(
    CHILD_KINDS.map((kind) =>
      inTenant(database, caller.ctx, (trx) =>
        recordQuery(trx, caller.ctx, kind, { content: true })
          .where('r.parent_id', '=', id)
          .orderBy('r.create_time')
          .orderBy('r.id')
          .execute(),
      ),
    ),
  );
  const access = accessTo(caller, RESOURCE, row);
  const reviewable = row.status === 'trial' && !access.author;
  return {
    ...presentFull(row, caller.tz),
    plans: (plans ?? []).map((p) => presentFull(p as RecordRow, caller.tz)),
    dayPlans: (dayPlans ?? []).map((p) => presentFull(p as RecordRow, caller.tz)),
    can: {
      edit: mayWrite(row.status, access, can(caller, 'week_edit')),
      submit: mayWrite(row.status, access, can(caller, 'week_submit')),
      delete: mayWrite(row.status, access, can(caller, 'week_delete')),
      review: reviewable && access.update && can(caller, 'week_review'),
      bossEdit: reviewable && access.update && can(caller, 'week_boss_edit'),
      copy: can(caller, 'week_copy') || can(caller, 'week_add'),
      export: can(caller, 'week_export') || access.author || access.team,
      excellent: row.status === 'success' && can(caller, 'week_excellent'),
    } satisfies WeekCan,
  };
}

/** The lists of weeks (docs/API.md): one filter each on top of the scope. */
const LISTS: RecordListRoute[] = [
  { method: 'GET', url: 'list', list: 'all', summary: 'Weeks in the caller’s read scope, any status' },
  { method: 'POST', url: 'alllistForUser', list: 'mine', summary: 'Mine: weeks I wrote or co-wrote' },
  { method: 'GET', url: 'alllistForUserNo', list: 'mineOpen', summary: 'Mine, not yet submitted (draft, returned)' },
  {
    method: 'POST',
    url: 'alllistForTrial',
    list: 'trial',
    summary: 'The review queue: trial weeks in scope that I did not write',
    button: 'week_review',
  },
  { method: 'POST', url: 'alllistForTrial2', list: 'returned', summary: 'Returned weeks in scope' },
  { method: 'POST', url: 'alllistForTrialSuccess', list: 'mineApproved', summary: 'My approved weeks' },
  { method: 'POST', url: 'alllistForTrial2Success', list: 'approved', summary: 'Approved weeks in scope' },
  {
    method: 'POST',
    url: 'alllistForTrial3Success',
    list: 'excellent',
    summary: 'Approved weeks in scope marked excellent',
  },
  { method: 'POST', url: 'alllistForOld', list: 'mineEnded', summary: 'My weeks that have ended' },
  { method: 'POST', url: 'alllistForDeptOld', list: 'ended', summary: 'Ended weeks in scope' },
  {
    method: 'POST',
    url: 'selectForFile',
    list: 'approved',
    summary: 'Approved weeks in scope to pick for the archive',
  },
  { method: 'GET', url: 'fileList', list: 'mineApprovedThisTerm', summary: 'My approved weeks of this semester' },
  {
    method: 'GET',
    url: 'fileOldList',
    list: 'mineApprovedEarlier',
    summary: 'My approved weeks of earlier semesters',
  },
  {
    method: 'GET',
    url: 'oldFileList',
    list: 'approvedEarlier',
    summary: 'Approved weeks in scope of earlier semesters',
  },
  { method: 'GET', url: 'trialfileList', list: 'trialThisTerm', summary: 'Trial weeks in scope of this semester' },
  {
    method: 'GET',
    url: 'bossfileList',
    list: 'approvedThisTerm',
    summary: 'Approved weeks in scope of this semester',
  },
  { method: 'GET', url: 'tenantList', list: 'all', summary: 'Weeks in scope across the tenant' },
];

export async function weekRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/week/week';

  recordListRoutes(app, WEEKS, [
    ...LISTS,
    {
      url: 'alllistForClass',
      summary: 'Weeks of one class in scope (classId required)',
      filter: ClassFilterSchema,
    },
    {
      method: 'GET',
      url: 'deptList',
      summary: 'Weeks in scope of one dept and below (default: the caller’s dept)',
      filter: DeptFilterSchema,
      where: (qb, f, caller) => {
        const deptId = (f.deptId as string | undefined) ?? caller.perms.grants.deptId;
        return deptId ? qb.where(inDeptTree(caller, deptId)) : null;
      },
    },
  ]);

  r.get(
    `${base}/alllistForId`,
    {
      schema: {
        tags: ['weeks'],
        summary: 'One week in full: the record, its plans and day plans, and what the caller may do',
        querystring: z.object({ id: IdSchema }),
      },
    },
    async (request) => ok(await weekDetail(request, request.query.id), request.lang),
  );

  r.get(
    `${base}/history`,
    {
      schema: {
        tags: ['weeks'],
        summary: 'The timeline of any teaching record in scope: who did what when, with the fields changed',
        querystring: z.object({ id: IdSchema }),
      },
    },
    async (request) => {
      const caller = await callerOf(request);
      const id = request.query.id;
      const timeline = await inTenant(app.database, caller.ctx, async (trx) => {
        const row = await trx
          .selectFrom('record_list as r')
          .select('r.id')
          .where('r.tenant_id', '=', caller.ctx.tenantId)
          .where('r.id', '=', id)
          .where('r.kind', 'in', ['week', ...CHILD_KINDS])
          .where(inRecordScope(caller, 'read', RESOURCE))
          .executeTakeFirst();
        if (!row) throw notFound('record.notFound');
        return recordTimeline(trx, caller.ctx.tenantId, id, caller.tz);
      });
      return ok(timeline, request.lang);
    },
  );

  r.post(
    `${base}/add`,
    {
      config: { buttons: ['week_add'] },
      schema: { tags: ['weeks'], summary: 'A new draft week (class, dept and semester from the content)' },
    },
    async (request) => {
      const body = input(request, AddWeekSchema);
      const id = nextId();
      await write(request, async (c) => {
        requireButton(c.caller, 'week_add');
        const cls = await classOf(c.trx, c.caller.ctx.tenantId, body.content.classId);
        if (!mayWriteFor(c.caller, cls)) throw forbidden('records.classOutOfScope');
        await runCommand(c, 'week', id, {
          type: 'CreateRecord',
          actor: c.actor,
          at: c.at,
          header: { kind: 'week', deptId: cls.deptId, classId: cls.id, semester: semesterOf(body.content.startDate) },
          content: body.content,
          coAuthorIds: body.coAuthorIds,
        });
      });
      return ok(await weekDetail(request, id), request.lang, 'records.saved');
    },
  );

  r.post(
    `${base}/updateWeek`,
    {
      config: { buttons: ['week_edit'] },
      schema: { tags: ['weeks'], summary: 'Save a draft or returned week (version from the last read)' },
    },
    async (request) => {
      const body = input(request, UpdateWeekSchema);
      await write(request, async (c) => {
        requireButton(c.caller, 'week_edit');
        const { row, access } = await editableWeek(c, body.id);
        const header: { classId?: string; deptId?: string | null; semester?: string } = {};
        if (body.content.classId !== String(row.class_id)) {
          const cls = await classOf(c.trx, c.caller.ctx.tenantId, body.content.classId);
          if (!mayWriteFor(c.caller, cls)) throw forbidden('records.classOutOfScope');
          // Day plans belong to the week's class: moving the week would orphan them.
          const children = await childrenOf(c.trx, c.caller.ctx.tenantId, body.id);
          if (children.some((x) => x.kind === 'day_plan')) throw badRequest('records.classHasDayPlans');
          header.classId = cls.id;
          header.deptId = cls.deptId;
        }
        const semester = semesterOf(body.content.startDate);
        if (semester !== row.semester) header.semester = semester;
        await runCommand(
          c,
          'week',
          body.id,
          {
            type: 'UpdateDraft',
            actor: c.actor,
            at: c.at,
            content: body.content,
            coAuthorIds: body.coAuthorIds,
            header,
            team: access.team,
          },
          body.version,
        );
        await syncDoc(c.trx, c.caller.ctx.tenantId, body.id, body.content, c.caller.ctx.userId);
      });
      await docChanged(app.auth.kv, tenantOf(request).tenantId, body.id);
      return ok(await weekDetail(request, body.id), request.lang, 'records.saved');
    },
  );

  r.post(
    `${base}/submit`,
    {
      config: { buttons: ['week_submit'] },
      schema: { tags: ['weeks'], summary: 'Submit a week for review; its plans and day plans go along' },
    },
    async (request) => {
      const body = input(request, SubmitWeekSchema);
      await write(request, async (c) => {
        requireButton(c.caller, 'week_submit');
        const { access } = await editableWeek(c, body.id);
        // A co-edited week is submitted as its live document reads now, naming whose edits it holds.
        const live = await liveRevision(c.trx, c.caller.ctx.tenantId, body.id, request.lang);
        await runCommand(
          c,
          'week',
          body.id,
          live
            ? {
                type: 'SubmitRecord',
                actor: c.actor,
                at: c.at,
                team: access.team,
                content: live.content,
                authors: live.authorIds,
              }
            : { type: 'SubmitRecord', actor: c.actor, at: c.at, team: access.team },
          body.version,
        );
        if (live) await markRevision(c.trx, c.caller.ctx.tenantId, weekDoc(body.id), live.seq);
        for (const child of await childrenOf(c.trx, c.caller.ctx.tenantId, body.id))
          if (isEditableStatus(child.status))
            await runCommand(c, child.kind, String(child.id), {
              type: 'SubmitRecord',
              actor: c.actor,
              at: c.at,
              team: true,
            });
      });
      await docChanged(app.auth.kv, tenantOf(request).tenantId, body.id);
      return ok(await weekDetail(request, body.id), request.lang, 'records.submitted');
    },
  );

  r.post(
    `${base}/review`,
    {
      config: { buttons: ['week_review'] },
      schema: {
        tags: ['weeks'],
        summary: 'A reviewer approves or returns (with a comment) a trial week and its plans',
      },
    },
    async (request) => {
      const body = input(request, ReviewWeekSchema);
      await write(request, async (c) => {
        requireButton(c.caller, 'week_review');
        await editableWeek(c, body.id);
        const command =
          body.action === 'approve'
            ? ({ type: 'ApproveRecord', actor: c.actor, at: c.at, comment: body.comment } as const)
            : ({ type: 'ReturnRecord', actor: c.actor, at: c.at, comment: body.comment } as const);
        await runCommand(c, 'week', body.id, command);
        for (const child of await childrenOf(c.trx, c.caller.ctx.tenantId, body.id))
          if (child.status === 'trial') await runCommand(c, child.kind, String(child.id), command);
      });
      await docChanged(app.auth.kv, tenantOf(request).tenantId, body.id);
      return ok(
        await weekDetail(request, body.id),
        request.lang,
        body.action === 'approve' ? 'records.approved' : 'records.returned',
      );
    },
  );

  r.post(
    `${base}/bossupdateWeek`,
    {
      config: { buttons: ['week_boss_edit'] },
      schema: { tags: ['weeks'], summary: 'A reviewer’s edit of a week during review' },
    },
    async (request) => {
      const body = input(request, BossUpdateWeekSchema);
      await write(request, async (c) => {
        requireButton(c.caller, 'week_boss_edit');
        const { row } = await editableWeek(c, body.id);
        if (body.content.classId !== String(row.class_id)) throw badRequest('records.classFixedInReview');
        await runCommand(
          c,
          'week',
          body.id,
          { type: 'EditDuringReview', actor: c.actor, at: c.at, content: body.content },
          body.version,
        );
        await syncDoc(c.trx, c.caller.ctx.tenantId, body.id, body.content, c.caller.ctx.userId);
      });
      await docChanged(app.auth.kv, tenantOf(request).tenantId, body.id);
      return ok(await weekDetail(request, body.id), request.lang, 'records.saved');
    },
  );

  r.post(
    `${base}/newWeek`,
    {
      config: { buttons: ['week_copy', 'week_add'] },
      schema: {
        tags: ['weeks'],
        summary: 'Copy a week forward: a new draft for the next week with its plans and day plans',
      },
    },
    async (request) => {
      const { id } = input(request, IdBodySchema);
      const source = (await weekDetail(request, id)) as Awaited<ReturnType<typeof weekDetail>> & {
        classId: string;
        content: unknown;
      };
      const newId = nextId();
      await write(request, async (c) => {
        const cls = await classOf(c.trx, c.caller.ctx.tenantId, String(source.classId));
        if (!mayWriteFor(c.caller, cls)) throw forbidden('records.classOutOfScope');
        const week = source.content as WeekContent;
        const content: WeekContent = {
          ...week,
          weekNo: Math.min(30, week.weekNo + 1),
          startDate: addDays(week.startDate, 7),
          endDate: addDays(week.endDate, 7),
          days: week.days.map((d) => ({ ...d, date: addDays(d.date, 7) })),
          reflection: '',
        };
        await runCommand(c, 'week', newId, {
          type: 'CreateRecord',
          actor: c.actor,
          at: c.at,
          header: { kind: 'week', deptId: cls.deptId, classId: cls.id, semester: semesterOf(content.startDate) },
          content,
        });
        const header = { deptId: cls.deptId, classId: cls.id, semester: semesterOf(content.startDate) };
        for (const p of source.plans) {
          const plan = p.content as WeekPlanContent;
          await runCommand(c, 'week_plan', nextId(), {
            type: 'CreateRecord',
            actor: c.actor,
            at: c.at,
            header: { kind: 'week_plan', ...header },
            content: { ...plan, weekId: newId, date: plan.date ? addDays(plan.date, 7) : null, reflection: '' },
          });
        }
        for (const p of source.dayPlans) {
          const plan = p.content as DayPlanContent;
          await runCommand(c, 'day_plan', nextId(), {
            type: 'CreateRecord',
            actor: c.actor,
            at: c.at,
            header: { kind: 'day_plan', ...header },
            content: { ...plan, weekId: newId, date: addDays(plan.date, 7) },
          });
        }
      });
      return ok(await weekDetail(request, newId), request.lang, 'records.copied');
    },
  );

  r.post(
    `${base}/saveRevision`,
    {
      config: { buttons: ['week_edit'] },
      schema: {
        tags: ['weeks'],
        summary: 'Save the live co-edited document of a week as a revision (an event naming its authors)',
      },
    },
    async (request) => {
      const { id } = input(request, IdBodySchema);
      await write(request, async (c) => {
        requireButton(c.caller, 'week_edit');
        const { row, access } = await editableWeek(c, id);
        if (!isEditableStatus(row.status)) throw new AppError('conflict', 'record.editInTrial');
        if (!access.author && !access.team) throw forbidden('record.notAuthor');
        await saveRevisionIn(c.trx, {
          tenantId: c.caller.ctx.tenantId,
          weekId: id,
          actorId: c.caller.ctx.userId,
          timeZone: c.caller.tz,
          lang: request.lang,
          strict: true,
        });
      });
      return ok(await weekDetail(request, id), request.lang, 'records.saved');
    },
  );

  const remove = async (request: FastifyRequest, ids: string[]) => {
    if (!ids.length) throw badRequest('records.selectOne');
    await write(request, async (c) => {
      requireButton(c.caller, 'week_delete');
      await requireKnownRecords(c.trx, c.caller, RESOURCE, 'week', ids);
      for (const id of ids) {
        const { access } = await editableWeek(c, id);
        await runCommand(c, 'week', id, { type: 'DeleteRecord', actor: c.actor, at: c.at, team: access.team });
        for (const child of await childrenOf(c.trx, c.caller.ctx.tenantId, id))
          if (isEditableStatus(child.status))
            await runCommand(c, child.kind, String(child.id), {
              type: 'DeleteRecord',
              actor: c.actor,
              at: c.at,
              team: true,
            });
      }
    });
    for (const id of ids) await docChanged(app.auth.kv, tenantOf(request).tenantId, id);
  };

  r.post(
    `${base}/remove`,
    {
      config: { buttons: ['week_delete'] },
      schema: { tags: ['weeks'], summary: 'Delete draft or returned weeks (ids) with their plans' },
    },
    async (request) => {
      const { ids } = input(request, z.object({ ids: IdListSchema }));
      await remove(request, ids);
      return ok(null, request.lang, 'records.deleted');
    },
  );

  r.get(
    `${base}/removeId`,
    {
      config: { buttons: ['week_delete'] },
      schema: {
        tags: ['weeks'],
        summary: 'Delete one draft or returned week',
        querystring: z.object({ id: IdSchema }),
      },
    },
    async (request) => {
      await remove(request, [request.query.id]);
      return ok(null, request.lang, 'records.deleted');
    },
  );
}

export { weekDetail };
