import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { isEditableStatus, SavePlanSchema } from '@sprout/contracts';
import { badRequest, forbidden } from '@sprout/core/errors';
import {
  type CommandContext,
  lockRecord,
  RecordFilterSchema,
  runCommand,
  type RecordFamily,
  recordListRoutes,
  recordTableRoutes,
  saveRecord,
  recordRemoveRoute,
} from '../records';
import { IdSchema } from '../../http/params';
import { editableWeek, planSave, RESOURCE } from './weeks';

const KIND = 'week_plan';
const PlanFilterSchema = RecordFilterSchema.extend({
  domain: z.union([z.coerce.number().int().min(1).max(5), z.literal('')]).optional(),
  activityType: z.union([z.coerce.number().int().min(1).max(4), z.literal('')]).optional(),
});
/** Lesson plans list by the common filter plus domain and activity type. */
export const PLANS: RecordFamily<z.output<typeof PlanFilterSchema>> = {
  base: '/api/week_plan/weekplan',
  tag: 'week plans',
  resource: RESOURCE,
  kind: KIND,
  filter: PlanFilterSchema,
  narrow: (qb, f) => {
    let out = qb;
    if (f.domain) out = out.where(sql<boolean>`(r.content ->> 'domain')::int = ${f.domain}`);
    if (f.activityType) out = out.where(sql<boolean>`(r.content ->> 'activityType')::int = ${f.activityType}`);
    return out;
  },
};

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

const SAVE = { kind: KIND, resource: RESOURCE, buttons: { add: 'week_add', edit: 'week_edit' } };

export async function planRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/week_plan/weekplan';

  r.post(
    `${base}/add`,
    planSave('week plans', 'Create or save a lesson plan in an editable week', SavePlanSchema),
    async (request) => {
      const body = request.body;
      return saveRecord(
        request,
        { ...SAVE, id: body.id, version: body.version, content: body.content },
        {
          place: async (c) => (await parentWeek(c, body.content.weekId)).header,
          update: async (_c, row) => {
            // A plan stays in its week; moving it is deleting and adding.
            if (String(row.parent_id) !== body.content.weekId) throw badRequest('records.weekNotEditable');
            return { team: true };
          },
        },
      );
    },
  );

  const remove = { ...PLANS, button: 'week_delete', summary: 'Delete lesson plans of editable weeks (ids)' };
  recordRemoveRoute(app, remove, async (c, id) => {
    const row = await lockRecord(c.trx, c.caller, RESOURCE, KIND, id);
    await parentWeek(c, row.parent_id === null ? null : String(row.parent_id));
    await runCommand(c, KIND, id, { type: 'DeleteRecord', actor: c.actor, at: c.at, team: true });
  });

  // The week plan's own lists (a week's plans, one class's excellent plans).
  recordListRoutes(app, PLANS, [
    {
      url: 'secondWeek',
      summary: 'The lesson plans of a week (weekId)',
      filter: PlanFilterSchema.extend({ weekId: IdSchema }),
      where: (qb, f) => qb.where('r.parent_id', '=', f.weekId as string),
    },
    {
      url: 'ExcellentClassList',
      summary: 'Excellent lesson plans of one class (classId), shared with the whole kindergarten',
      filter: PlanFilterSchema.extend({ classId: IdSchema }),
      list: 'excellent',
    },
  ]);

  // The rest is the records kit's table. A whole week can be marked excellent too
  // (alllistForTrial3Success lists those).
  recordTableRoutes(app, { ...PLANS, kinds: [KIND, 'week'], excellentButton: 'week_excellent' }, [
    {
      method: 'POST',
      url: 'trialPlan',
      op: 'scope',
      filter: { status: 'trial' },
      summary: 'Lesson plans awaiting review in scope',
    },
    {
      method: 'POST',
      url: 'ExcellentPlan',
      op: 'excellent',
      summary: 'Excellent lesson plans of the whole kindergarten (shared whatever the data scope)',
    },
    { method: 'POST', url: 'collectionByUserId', op: 'myCollection', summary: 'My favourite lesson plans' },
    {
      method: 'POST',
      url: 'addExcellent',
      op: 'excellentMark',
      summary: 'Mark an approved lesson plan excellent (reviewers)',
    },
    {
      method: 'POST',
      url: 'DelExcellentPlan',
      op: 'excellentUnmark',
      summary: 'Remove the excellent mark of a lesson plan',
    },
    { method: 'POST', url: 'Collection', op: 'collect', summary: 'Add an excellent lesson plan to my favourites' },
    {
      method: 'POST',
      url: 'cancelCollection',
      op: 'cancelCollect',
      summary: 'Remove a lesson plan from my favourites',
    },
  ]);
}
