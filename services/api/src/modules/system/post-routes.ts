import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Post } from '@sprout/core/db/tables-permissions';
import { badRequest } from '@sprout/core/errors';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
import { formatDateTime } from '@sprout/core/time';
import { pageSchema } from '../../plugins/serialization';
import { tenantOf } from '../../plugins/context';
import { int, text, time } from '../../http/answer';
import { refuseTaken } from '../../http/known';
import { IdSchema, intEnum, optionalText } from '../../http/params';
import { saveRow } from '../../http/query';
import { findPost, heldPostNames, PostFilterSchema, postList } from './post-repo';
import { routesOf, tzOf } from './shapes';

/** A post as lists and details show it. */
export const PostSchema = z.object({
  id: text,
  tenantId: text,
  category: int,
  postCode: text,
  postName: text,
  sort: int,
  remark: text,
  createTime: time,
});

export const presentPost = (p: Post, tz: string): z.output<typeof PostSchema> => ({
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

const PostPageQuerySchema = PageQuerySchema.extend(PostFilterSchema.shape);

/** Posts: list, select, detail, add or update, remove. */
export async function postRoutes(app: FastifyInstance) {
  const route = routesOf(app, 'posts');

  route.get('/api/blade-system/post/list', {
    summary: 'Posts of the tenant, paged (filters postCode, postName, category)',
    query: PostPageQuerySchema,
    data: pageSchema(PostSchema),
    handler: (request, q) => {
      const ctx = tenantOf(request);
      const tz = tzOf(request);
      return findPage(app.database, ctx, postList(app.database.db, ctx.tenantId, q), q, (p) => presentPost(p, tz));
    },
  });

  route.get('/api/blade-system/post/select', {
    summary: 'Every post of the tenant (selects)',
    query: z.object({ tenantId: z.string().trim().max(12).optional() }),
    data: z.array(PostSchema),
    handler: async (request) => {
      const rows = await request.tx((trx) => postList(trx, tenantOf(request).tenantId).execute());
      return rows.map((p) => presentPost(p, tzOf(request)));
    },
  });

  route.detail('/api/blade-system/post/detail', {
    summary: 'One post',
    data: PostSchema,
    find: async (request, id) => {
      const p = await request.tx((trx) => findPost(trx, tenantOf(request).tenantId, id));
      return p && presentPost(p, tzOf(request));
    },
  });

  route.submit('/api/blade-system/post/submit', {
    summary: 'Adds (no id) or updates a post',
    body: PostSubmitSchema,
    data: PostSchema,
    save: async (request, b, ctx) => {
      const by = ctx.userId ?? null;
      const saved = await request.tx(async (trx) => {
        const taken = { table: 'post', tenantId: ctx.tenantId, values: { post_code: b.postCode }, id: b.id } as const;
        await refuseTaken(trx, taken, 'system.postCodeExists', { code: b.postCode });
        const values = {
          category: b.category,
          post_code: b.postCode,
          post_name: b.postName,
          sort: b.sort,
          remark: b.remark,
          update_user: by,
          update_time: new Date(),
        };
        return saveRow(trx, 'post', ctx.tenantId, b.id, values, { create_user: by });
      });
      return presentPost(saved, tzOf(request));
    },
  });

  route.remove('/api/blade-system/post/remove', {
    summary: 'Deletes posts (ids); refused while users hold them',
    table: 'post',
    alias: 'p',
    stamped: true,
    refuse: async (trx, tenantId, ids) => {
      const held = await heldPostNames(trx, tenantId, ids);
      if (held.length) throw badRequest('system.postInUse', { names: held.join('、') });
    },
  });
}
