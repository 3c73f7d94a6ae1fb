import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { isEditableStatus, SavePlanSchema } from '@sprout/contracts';
import { badRequest, forbidden } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { nextId } from '@sprout/core/ids';
import {
  accessTo,
  applyRecordFilter,
  type CommandContext,
  callerOf,
  IdBodySchema,
  lockRecord,
  loadRecord,
  presentRecord,
  RecordFilterSchema,
  recordPage,
  recordQuery,
  requireButton,
  requireKnownRecords,
  runCommand,
  write,
} from '../records/engine';
import { IdListSchema, IdSchema, input } from '../system/params';
import { editableWeek, RESOURCE } from './week-routes';

const KIND = 'week_plan';
const PlanFilterSchema = RecordFilterSchema.extend({
  domain: z.union([z.coerce.number().int().min(1).max(5), z.literal('')]).optional(),
  activityType: z.union([z.coerce.number().int().min(1).max(4), z.literal('')]).optional(),
});

/**
 * The week a plan or day plan belongs to, locked and editable by the caller (draft or
 * returned, in the update scope, an author or the class's team); its header is the child's.
 */
export async function parentWeek(c: CommandContext, weekId: string | null) {
  if (!weekId) throw badRequest('records.weekRequired');
  const { row, access } = await editableWeek(c, weekId);
  if (!isEditableStatus(row.status)) throw badRequest('records.weekNotEditable');
  if (!access.author && !access.team) throw forbidden('record.notAuthor');
  return {
    row,
    access,
    header: {
      deptId: row.dept_id === null ? null : String(row.dept_id),
      classId: row.class_id === null ? null : String(row.class_id),
      semester: row.semester,
    },
  };
}

export async function planRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/week_plan/weekplan';
  const tz = app.config.TIME_ZONE;

  r.post(
    `${base}/add`,
    {
      // Creating needs week_add, saving an existing plan week_edit (checked in the handler).
      config: { buttons: ['week_add', 'week_edit'] },
      schema: { tags: ['week plans'], summary: 'Create or save a lesson plan in an editable week' },
    },
    async (request) => {
      const body = input(request, SavePlanSchema);
      const id = body.id ?? nextId();
      await write(request, async (c) => {
        const week = await parentWeek(c, body.content.weekId);
        if (!body.id) {
          requireButton(c.caller, 'week_add');
          await runCommand(c, KIND, id, {
            type: 'CreateRecord',
            actor: c.actor,
            at: c.at,
            header: { kind: KIND, ...week.header },
            content: body.content,
          });
          return;
        }
        requireButton(c.caller, 'week_edit');
        const row = await lockRecord(c.trx, c.caller, RESOURCE, KIND, id);
        // A plan stays in its week; moving it is deleting and adding.
        if (String(row.parent_id) !== body.content.weekId) throw badRequest('records.weekNotEditable');
        await runCommand(
          c,
          KIND,
          id,
          { type: 'UpdateDraft', actor: c.actor, at: c.at, content: body.content, team: true },
          body.version,
        );
      });
      const caller = await callerOf(request);
      return ok(
        presentRecord(await loadRecord(app.database, caller, RESOURCE, KIND, id), tz),
        request.lang,
        'records.saved',
      );
    },
  );

  r.post(
    `${base}/remove`,
    {
      config: { buttons: ['week_delete'] },
      schema: { tags: ['week plans'], summary: 'Delete lesson plans of editable weeks (ids)' },
    },
    async (request) => {
      const { ids } = input(request, z.object({ ids: IdListSchema }));
      if (!ids.length) throw badRequest('records.selectOne');
      await write(request, async (c) => {
        requireButton(c.caller, 'week_delete');
        await requireKnownRecords(c.trx, c.caller, RESOURCE, KIND, ids);
        for (const id of ids) {
          const row = await lockRecord(c.trx, c.caller, RESOURCE, KIND, id);
          await parentWeek(c, row.parent_id === null ? null : String(row.parent_id));
          await runCommand(c, KIND, id, { type: 'DeleteRecord', actor: c.actor, at: c.at, team: true });
        }
      });
      return ok(null, request.lang, 'records.deleted');
    },
  );

  r.post(
    `${base}/secondWeek`,
    { schema: { tags: ['week plans'], summary: 'The lesson plans of a week (weekId)' } },
    async (request) => {
      const f = input(request, PlanFilterSchema.extend({ weekId: IdSchema }));
      const caller = await callerOf(request);
      const qb = applyRecordFilter(recordQuery(app.database.db, caller.ctx, KIND), f, tz).where(
        'r.parent_id',
        '=',
        f.weekId,
      );
      return ok(await recordPage(app.database, caller, RESOURCE, qb, f), request.lang);
    },
  );

  const planList = (qb: ReturnType<typeof recordQuery>, f: z.output<typeof PlanFilterSchema>) => {
    let out = applyRecordFilter(qb, f, tz);
    if (f.domain) out = out.where(sql<boolean>`(r.content ->> 'domain')::int = ${f.domain}`);
    if (f.activityType) out = out.where(sql<boolean>`(r.content ->> 'activityType')::int = ${f.activityType}`);
    return out;
  };

  r.post(
    `${base}/trialPlan`,
    { schema: { tags: ['week plans'], summary: 'Lesson plans awaiting review in scope' } },
    async (request) => {
      const f = input(request, PlanFilterSchema);
      const caller = await callerOf(request);
      const qb = planList(recordQuery(app.database.db, caller.ctx, KIND), f).where('r.status', '=', 'trial');
      return ok(await recordPage(app.database, caller, RESOURCE, qb, f), request.lang);
    },
  );

  r.post(
    `${base}/ExcellentPlan`,
    { schema: { tags: ['week plans'], summary: 'Excellent lesson plans in scope' } },
    async (request) => {
      const f = input(request, PlanFilterSchema);
      const caller = await callerOf(request);
      const qb = planList(recordQuery(app.database.db, caller.ctx, KIND), f).where('r.excellent', '=', true);
      return ok(await recordPage(app.database, caller, RESOURCE, qb, f), request.lang);
    },
  );

  r.post(
    `${base}/ExcellentClassList`,
    { schema: { tags: ['week plans'], summary: 'Excellent lesson plans of one class (classId)' } },
    async (request) => {
      const f = input(request, PlanFilterSchema.extend({ classId: IdSchema }));
      const caller = await callerOf(request);
      const qb = planList(recordQuery(app.database.db, caller.ctx, KIND), f).where('r.excellent', '=', true);
      return ok(await recordPage(app.database, caller, RESOURCE, qb, f), request.lang);
    },
  );

  r.post(
    `${base}/collectionByUserId`,
    { schema: { tags: ['week plans'], summary: 'My favourite lesson plans' } },
    async (request) => {
      const f = input(request, PlanFilterSchema);
      const caller = await callerOf(request);
      const qb = planList(recordQuery(app.database.db, caller.ctx, KIND), f).where(
        sql<boolean>`exists (select 1 from record_favorite f where f.tenant_id = r.tenant_id
          and f.user_id = ${caller.ctx.userId} and f.record_id = r.id)`,
      );
      return ok(await recordPage(app.database, caller, RESOURCE, qb, f), request.lang);
    },
  );

  /** Reviewer acts and reader acts on one plan: scope first, then the lifecycle's rules. */
  const act = (
    url: string,
    summary: string,
    type: 'MarkExcellent' | 'UnmarkExcellent' | 'CollectRecord' | 'CancelCollection',
    msg: string,
    buttons: string[] = [],
  ) =>
    r.post(`${base}/${url}`, { config: { buttons }, schema: { tags: ['week plans'], summary } }, async (request) => {
      const { id } = input(request, IdBodySchema);
      let kind = KIND;
      await write(request, async (c) => {
        // A whole week can be marked excellent too (alllistForTrial3Success lists those).
        const row = await lockRecord(c.trx, c.caller, RESOURCE, [KIND, 'week'], id);
        kind = row.kind;
        if (type === 'MarkExcellent' || type === 'UnmarkExcellent') {
          requireButton(c.caller, 'week_excellent');
          if (!accessTo(c.caller, RESOURCE, row).update) throw forbidden();
        }
        await runCommand(c, row.kind, id, { type, actor: c.actor, at: c.at });
      });
      const caller = await callerOf(request);
      return ok(presentRecord(await loadRecord(app.database, caller, RESOURCE, kind, id), tz), request.lang, msg);
    });

  act(
    'addExcellent',
    'Mark an approved lesson plan excellent (reviewers)',
    'MarkExcellent',
    'records.markedExcellent',
    ['week_excellent'],
  );
  act(
    'DelExcellentPlan',
    'Remove the excellent mark of a lesson plan',
    'UnmarkExcellent',
    'records.unmarkedExcellent',
    ['week_excellent'],
  );
  act('Collection', 'Add an excellent lesson plan to my favourites', 'CollectRecord', 'records.collected');
  act('cancelCollection', 'Remove a lesson plan from my favourites', 'CancelCollection', 'records.collectionCancelled');
}
