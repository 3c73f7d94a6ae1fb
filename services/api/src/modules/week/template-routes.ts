import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import {
  DayPlanContentSchema,
  RichTextSchema,
  TEMPLATE_KINDS,
  type Template,
  TemplateSchema,
  WeekDaySchema,
} from '@sprout/contracts';
import { inTenant, readInTenant } from '@sprout/core/db';
import { forbidden } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { nextId } from '@sprout/core/ids';
import { formatDateTime } from '@sprout/core/time';
import { actorIn, callerOf, can, IdParamSchema, NO_DATA, postOptions } from '../records';
import { okSchema } from '../../plugins/serialization';
import { unknownIds } from '../../http/known';

const Kind = z.enum(TEMPLATE_KINDS);

/**
 * A template keeps a plan's structure, not its occasion: a week's class, dates and week
 * number and a day plan's class, date and week are dropped; what teachers wrote stays.
 */
const WeekTemplateSchema = z
  .object({
    theme: z.string().trim().max(100).default(''),
    // Rich fields as a week holds them, sanitised like a week's (a template is copied into weeks).
    weeklyGoals: RichTextSchema.optional(),
    environment: RichTextSchema.optional(),
    homeCooperation: RichTextSchema.optional(),
    days: z
      .array(WeekDaySchema.omit({ date: true }).partial())
      .max(5)
      .default([]),
    reflection: RichTextSchema.optional(),
  })
  .strip();
const DayTemplateSchema = z.object({ segments: DayPlanContentSchema.shape.segments }).strip();

const AddTemplateSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('week'),
    name: z.string().trim().min(1, '$validation.required').max(100),
    shared: z.coerce.boolean().default(false),
    content: WeekTemplateSchema,
  }),
  z.object({
    kind: z.literal('half'),
    name: z.string().trim().min(1, '$validation.required').max(100),
    shared: z.coerce.boolean().default(false),
    content: DayTemplateSchema,
  }),
  z.object({
    kind: z.literal('full'),
    name: z.string().trim().min(1, '$validation.required').max(100),
    shared: z.coerce.boolean().default(false),
    content: DayTemplateSchema,
  }),
]);

interface TemplateRow {
  id: string;
  name: string;
  kind: string;
  content: unknown;
  shared: boolean;
  create_user: string;
  create_user_name: string;
  create_time: Date;
}

export async function templateRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/t_week_template/template';
  const tz = app.config.TIME_ZONE;
  const present = (t: TemplateRow, me: string): Template => ({
    id: String(t.id),
    name: t.name,
    kind: t.kind as Template['kind'],
    content: t.content as Template['content'],
    shared: t.shared,
    mine: String(t.create_user) === me,
    createUser: String(t.create_user),
    createUserName: t.create_user_name,
    createTime: formatDateTime(t.create_time, tz) ?? '',
  });

  r.post(
    `${base}/addTemplate`,
    postOptions({
      tag: 'templates',
      summary: 'Save a template (shared needs template_add; else personal)',
      body: AddTemplateSchema,
      response: { 200: okSchema(TemplateSchema) },
    }),
    async (request) => {
      const body = request.body;
      const caller = await callerOf(request);
      if (body.shared && !can(caller, 'template_add')) throw forbidden();
      const id = nextId();
      const row = await inTenant(app.database, caller.ctx, async (trx) => {
        const actor = await actorIn(trx, caller.ctx);
        return trx
          .insertInto('record_template')
          .values({
            tenant_id: caller.ctx.tenantId,
            id,
            name: body.name,
            kind: body.kind,
            content: JSON.stringify(body.content),
            shared: body.shared,
            create_user: caller.ctx.userId,
            create_user_name: actor.name,
          })
          .returning(['id', 'name', 'kind', 'content', 'shared', 'create_user', 'create_user_name', 'create_time'])
          .executeTakeFirstOrThrow();
      });
      return ok(present(row as unknown as TemplateRow, caller.ctx.userId), request.lang, 'records.saved');
    },
  );

  r.get(
    `${base}/listTemplate`,
    {
      schema: {
        tags: ['templates'],
        summary: 'Templates I may use: the tenant’s shared ones and my own',
        querystring: z.object({ kind: z.union([Kind, z.literal('')]).optional() }),
        response: { 200: okSchema(z.array(TemplateSchema)) },
      },
    },
    async (request) => {
      const caller = await callerOf(request);
      let qb = app.database.db
        .selectFrom('record_template')
        .select(['id', 'name', 'kind', 'content', 'shared', 'create_user', 'create_user_name', 'create_time'])
        .where('tenant_id', '=', caller.ctx.tenantId)
        .where('is_deleted', '=', 0)
        .where(sql<boolean>`(shared or create_user = ${caller.ctx.userId})`)
        .orderBy('create_time', 'desc')
        .limit(500);
      if (request.query.kind) qb = qb.where('kind', '=', request.query.kind);
      const rows = await readInTenant<TemplateRow>(app.database, caller.ctx, qb.compile());
      return ok(
        rows.map((t) => present(t, caller.ctx.userId)),
        request.lang,
      );
    },
  );

  r.get(
    `${base}/deletedById`,
    {
      schema: {
        tags: ['templates'],
        summary: 'Delete a template: my own, or a shared one with template_delete',
        querystring: IdParamSchema,
        response: NO_DATA,
      },
    },
    async (request) => {
      const caller = await callerOf(request);
      await inTenant(app.database, caller.ctx, async (trx) => {
        const t = await trx
          .selectFrom('record_template')
          .select(['create_user', 'shared'])
          .where('tenant_id', '=', caller.ctx.tenantId)
          .where('id', '=', request.query.id)
          .where('is_deleted', '=', 0)
          .where(sql<boolean>`(shared or create_user = ${caller.ctx.userId})`)
          .forUpdate()
          .executeTakeFirst();
        if (!t) throw unknownIds([request.query.id]);
        const mine = String(t.create_user) === caller.ctx.userId;
        if (!mine && !can(caller, 'template_delete')) throw forbidden('records.templateNotYours');
        await trx
          .updateTable('record_template')
          .set({ is_deleted: 1, update_time: new Date() })
          .where('tenant_id', '=', caller.ctx.tenantId)
          .where('id', '=', request.query.id)
          .execute();
      });
      return ok(null, request.lang, 'records.deleted');
    },
  );
}
