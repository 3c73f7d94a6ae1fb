import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';
import {
  DAY_PLAN_LAYOUTS,
  DayPlansOfWeekSchema,
  type DayPlanWeekHeader,
  DayPlanWithWeekSchema,
  FullRecordSchema,
  type RecordStatus,
  SaveDayPlanSchema,
} from '@sprout/contracts';
import { readInTenant } from '@sprout/core/db';
import { badRequest, forbidden } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import {
  accessTo,
  callerOf,
  IdParamSchema,
  loadFull,
  lockRecord,
  loadRecord,
  presentFull,
  RECORD_ANSWER,
  type RecordRow,
  RecordFilterSchema,
  recordQuery,
  runCommand,
  semesterOf,
  postOptions,
  type RecordFamily,
  recordListRoutes,
  saveRecord,
  recordRemoveRoute,
  tenantLayoutRoute,
} from '../records';
import { okSchema } from '../../plugins/serialization';
import { DateSchema, IdSchema } from '../../http/params';
import { parentWeek } from './plan-routes';
import { classOf, planSave, RESOURCE } from './weeks';

const KIND = 'day_plan';
export const LAYOUT_PARAM = 'week.halfPlanLayout';

const Variant = z.enum(['half', 'full']);
const DayPlanFilterSchema = RecordFilterSchema.extend({
  variant: Variant.optional(),
  weekId: IdSchema.optional(),
  date: DateSchema.optional(),
});
const DAY_PLANS: RecordFamily<z.output<typeof DayPlanFilterSchema>> = {
  base: '/api/half_plan/halfplan',
  tag: 'day plans',
  resource: RESOURCE,
  kind: KIND,
  filter: DayPlanFilterSchema,
};

const SAVE = { kind: KIND, resource: RESOURCE, buttons: { add: 'week_add', edit: 'week_edit' } };

export async function dayPlanRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/half_plan/halfplan';
  const tz = app.config.TIME_ZONE;

  const ofWeek = async (request: FastifyRequest, weekId: string, variant?: 'half' | 'full') => {
    const caller = await callerOf(request);
    // The week must be readable: its day plans are as visible as it is.
    const week = await loadRecord(app.database, caller, RESOURCE, 'week', weekId);
    let qb = recordQuery(app.database.db, caller.ctx, KIND, { content: true })
      .where('r.parent_id', '=', weekId)
      .orderBy('r.title')
      .orderBy('r.id');
    if (variant) qb = qb.where('r.content', '@>', JSON.stringify({ variant }) as never);
    const rows = await readInTenant<RecordRow>(app.database, caller.ctx, qb.compile());
    return { week, records: rows.map((row) => presentFull(row, tz)) };
  };
  const header = (w: RecordRow): DayPlanWeekHeader => {
    const c = (w.content ?? {}) as { theme?: string; weekNo?: number; startDate?: string; endDate?: string };
    return {
      id: String(w.id),
      theme: c.theme ?? '',
      weekNo: c.weekNo ?? null,
      startDate: c.startDate ?? '',
      endDate: c.endDate ?? '',
      classId: w.class_id === null ? '' : String(w.class_id),
      className: w.class_name ?? '',
      status: w.status as RecordStatus,
    };
  };

  recordListRoutes(app, DAY_PLANS, [
    {
      method: 'GET',
      url: 'list',
      summary: 'Half-day or full-day plans in scope',
      values: (f) => ({
        variantJson: f.variant ? JSON.stringify({ variant: f.variant }) : undefined,
        dateJson: f.date ? JSON.stringify({ date: f.date }) : undefined,
      }),
      where: (qb, v) => {
        let out = qb;
        if (v.variantJson) out = out.where('r.content', '@>', v.variantJson as never);
        if (v.weekId) out = out.where('r.parent_id', '=', v.weekId);
        if (v.dateJson) out = out.where('r.content', '@>', v.dateJson as never);
        return out;
      },
    },
  ]);

  r.post(
    `${base}/save`,
    planSave('day plans', 'Create or save a half-day or full-day plan', SaveDayPlanSchema),
    async (request) => {
      const body = request.body;
      const inWeek = Boolean(body.content.weekId);
      return saveRecord(
        request,
        { ...SAVE, id: body.id, version: body.version, content: body.content },
        {
          place: async (c) => {
            if (body.content.weekId) {
              const week = await parentWeek(c, body.content.weekId);
              if (String(week.row.class_id) !== body.content.classId) throw badRequest('records.classFixedInReview');
              return week.header;
            }
            const cls = await classOf(c.trx, c.caller.ctx.tenantId, body.content.classId);
            return { deptId: cls.deptId, classId: cls.id, semester: semesterOf(body.content.date) };
          },
          create: async (c, place) => {
            const probe = {
              tenant_id: c.caller.ctx.tenantId,
              id: '0',
              author_id: c.caller.ctx.userId,
              co_author_ids: [],
            };
            if (
              !accessTo(c.caller, RESOURCE, { ...probe, dept_id: place.deptId, class_id: place.classId } as never)
                .update
            )
              throw forbidden('records.classOutOfScope');
          },
          update: async (c, row, place) => {
            const access = accessTo(c.caller, RESOURCE, row);
            if (!access.update) throw forbidden('record.notAuthor');
            return { team: access.team || inWeek, header: place };
          },
        },
      );
    },
  );

  const read = (summary: string, response: Record<number, ZodType>) => ({
    schema: { tags: ['day plans'], summary, querystring: IdParamSchema, response },
  });
  const post = <B extends ZodType, R extends Record<number, ZodType>>(summary: string, body: B, response: R) =>
    postOptions({ tag: 'day plans', summary, body, response });
  const RECORDS = { 200: okSchema(z.array(FullRecordSchema)) };
  r.post(
    `${base}/ForWeek`,
    post(
      'The day plans of a week (weekId, variant?)',
      z.object({ weekId: IdSchema, variant: Variant.optional() }),
      RECORDS,
    ),
    async (request) => {
      const q = request.body;
      return ok((await ofWeek(request, q.weekId, q.variant)).records, request.lang);
    },
  );

  r.get(`${base}/ForWeekHalfPlanId`, read('Half-day plans of week id', RECORDS), async (request) =>
    ok((await ofWeek(request, request.query.id, 'half')).records, request.lang),
  );
  r.get(`${base}/ForWeekPlanId`, read('Full-day plans of week id', RECORDS), async (request) =>
    ok((await ofWeek(request, request.query.id, 'full')).records, request.lang),
  );
  r.post(
    `${base}/ForWeekPlanTongXingId`,
    post('Full-day plans of week id with the week header (TongXing layout)', IdParamSchema, {
      200: okSchema(DayPlansOfWeekSchema),
    }),
    async (request) => {
      const { id } = request.body;
      const { week, records } = await ofWeek(request, id, 'full');
      return ok({ week: header(week), records }, request.lang);
    },
  );
  r.get(`${base}/ForId`, read('One day plan', RECORD_ANSWER), async (request) =>
    ok(await loadFull(request, RESOURCE, KIND, request.query.id), request.lang),
  );
  r.get(
    `${base}/ForHalfPlanId`,
    read('One day plan with its week’s header', { 200: okSchema(DayPlanWithWeekSchema) }),
    async (request) => {
      const caller = await callerOf(request);
      const plan = await loadRecord(app.database, caller, RESOURCE, KIND, request.query.id);
      const week = plan.parent_id
        ? await loadRecord(app.database, caller, RESOURCE, 'week', String(plan.parent_id)).catch(() => null)
        : null;
      return ok({ ...presentFull(plan, tz), week: week ? header(week) : null }, request.lang);
    },
  );

  const remove = { ...DAY_PLANS, button: 'week_delete', summary: 'Delete day plans (ids) of editable weeks' };
  recordRemoveRoute(app, remove, async (c, id) => {
    const row = await lockRecord(c.trx, c.caller, RESOURCE, KIND, id);
    const access = accessTo(c.caller, RESOURCE, row);
    if (!access.update) throw forbidden('record.notAuthor');
    if (row.parent_id !== null) await parentWeek(c, String(row.parent_id));
    await runCommand(c, KIND, id, { type: 'DeleteRecord', actor: c.actor, at: c.at, team: true });
  });

  tenantLayoutRoute(app, {
    url: `${base}/layout`,
    tag: 'day plans',
    summary: 'The tenant’s layout of the day-plan pages (tianyuan | tongxing)',
    param: LAYOUT_PARAM,
    layouts: DAY_PLAN_LAYOUTS,
  });
}
