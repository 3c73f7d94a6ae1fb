import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Kysely } from 'kysely';
import { containsPattern, type DB } from '@sprout/core/db';
import type { Post } from '@sprout/core/db/tables-permissions';
import { badRequest, notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
import { nextId } from '@sprout/core/ids';
import { formatDateTime } from '@sprout/core/time';
import { tenantOf } from '../../plugins/context';
import { requireKnownIds } from '../../http/known';
import { IdSchema, intEnum, optionalText, RequiredIdListSchema } from '../../http/params';

export const presentPost = (p: Post, tz: string) => ({
  id: String(p.id),
  tenantId: p.tenant_id,
  category: p.category,
  postCode: p.post_code,
  postName: p.post_name,
  sort: p.sort,
  remark: p.remark ?? '',
  createTime: formatDateTime(p.create_time, tz),
});

export const PostSubmitSchema = z.object({
  id: IdSchema.optional(),
  category: intEnum([1, 2, 3, 4] as const).default(3),
  postCode: z
    .string()
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, '$validation.code'),
  postName: z.string().trim().min(1, '$validation.required').max(64),
  sort: z.coerce.number().int().min(0).max(100_000).default(0),
  remark: optionalText(255),
});

export async function postRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = app.config.TIME_ZONE;
  /** Live posts of the tenant on `db`: the request's transaction when executed, the root handle only to compile. */
  const base = (tenantId: string, db: Kysely<DB> = app.database.db) =>
    db.selectFrom('post').selectAll().where('tenant_id', '=', tenantId).where('is_deleted', '=', 0);

  r.get(
    '/api/blade-system/post/list',
    {
      schema: {
        tags: ['posts'],
        summary: 'Posts of the tenant, paged (filters postCode, postName, category)',
        querystring: PageQuerySchema.extend({
          postCode: z.string().trim().max(64).optional(),
          postName: z.string().trim().max(64).optional(),
          category: z.coerce.number().int().optional(),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const ctx = tenantOf(request);
      let qb = base(ctx.tenantId);
      if (q.postCode) qb = qb.where('post_code', 'like', containsPattern(q.postCode));
      if (q.postName) qb = qb.where('post_name', 'like', containsPattern(q.postName));
      if (q.category) qb = qb.where('category', '=', q.category);
      const page = await findPage(app.database, ctx, qb.orderBy('sort').orderBy('id'), q, (p) => presentPost(p, tz));
      return ok(page, request.lang);
    },
  );

  r.get(
    '/api/blade-system/post/select',
    {
      schema: {
        tags: ['posts'],
        summary: 'Every post of the tenant (selects)',
        querystring: z.object({ tenantId: z.string().trim().max(12).optional() }),
      },
    },
    async (request) => {
      const ctx = tenantOf(request);
      const rows = await request.tx((trx) =>
        trx
          .selectFrom('post')
          .selectAll()
          .where('tenant_id', '=', ctx.tenantId)
          .where('is_deleted', '=', 0)
          .orderBy('sort')
          .orderBy('id')
          .execute(),
      );
      return ok(
        rows.map((p) => presentPost(p, tz)),
        request.lang,
      );
    },
  );

  r.get(
    '/api/blade-system/post/detail',
    { schema: { tags: ['posts'], summary: 'One post', querystring: z.object({ id: IdSchema }) } },
    async (request) => {
      const ctx = tenantOf(request);
      const p = await request.tx((trx) =>
        base(ctx.tenantId, trx).where('id', '=', request.query.id).executeTakeFirst(),
      );
      if (!p) throw notFound();
      return ok(presentPost(p, tz), request.lang);
    },
  );

  r.post(
    '/api/blade-system/post/submit',
    { schema: { tags: ['posts'], summary: 'Adds (no id) or updates a post', body: PostSubmitSchema } },
    async (request) => {
      const b = request.body;
      const ctx = tenantOf(request);
      const saved = await request.tx(async (trx) => {
        const clash = await trx
          .selectFrom('post')
          .select('id')
          .where('tenant_id', '=', ctx.tenantId)
          .where('is_deleted', '=', 0)
          .where('post_code', '=', b.postCode)
          .executeTakeFirst();
        if (clash && String(clash.id) !== b.id) throw badRequest('system.postCodeExists', { code: b.postCode });
        const values = {
          category: b.category,
          post_code: b.postCode,
          post_name: b.postName,
          sort: b.sort,
          remark: b.remark,
          update_user: ctx.userId ?? null,
          update_time: new Date(),
        };
        if (b.id) {
          const row = await trx
            .updateTable('post')
            .set(values)
            .where('tenant_id', '=', ctx.tenantId)
            .where('id', '=', b.id)
            .where('is_deleted', '=', 0)
            .returningAll()
            .executeTakeFirst();
          if (!row) throw notFound();
          return row;
        }
        return trx
          .insertInto('post')
          .values({ ...values, tenant_id: ctx.tenantId, id: nextId(), create_user: ctx.userId ?? null })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      return ok(presentPost(saved, tz), request.lang, b.id ? 'system.updated' : 'system.added');
    },
  );

  r.post(
    '/api/blade-system/post/remove',
    {
      schema: {
        tags: ['posts'],
        summary: 'Deletes posts (ids); refused while users hold them',
        querystring: z.object({ ids: RequiredIdListSchema }),
      },
    },
    async (request) => {
      const ids = request.query.ids;
      const ctx = tenantOf(request);
      await request.tx(async (trx) => {
        await requireKnownIds(trx, { table: 'post', alias: 'p', tenantId: ctx.tenantId, ids });
        const held = await trx
          .selectFrom('app_user as u')
          .innerJoin('post as p', (j) => j.onRef('p.tenant_id', '=', 'u.tenant_id').onRef('p.id', '=', 'u.post_id'))
          .select('p.post_name')
          .distinct()
          .where('u.tenant_id', '=', ctx.tenantId)
          .where('u.is_deleted', '=', 0)
          .where('u.post_id', 'in', ids)
          .execute();
        if (held.length) throw badRequest('system.postInUse', { names: held.map((h) => h.post_name).join('、') });
        await trx
          .updateTable('post')
          .set({ is_deleted: 1, update_user: ctx.userId ?? null, update_time: new Date() })
          .where('tenant_id', '=', ctx.tenantId)
          .where('id', 'in', ids)
          .execute();
      });
      return ok(null, request.lang, 'system.removed');
    },
  );
}
