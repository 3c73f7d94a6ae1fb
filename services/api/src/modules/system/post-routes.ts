import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Post } from '@sprout/core/db/tables-permissions';
import { badRequest } from '@sprout/core/errors';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
import { formatDateTime } from '@sprout/core/time';
import { pageSchema } from '../../plugins/serialization';
import { tenantOf } from '../../plugins/context';
import { IdSchema, intEnum, optionalText } from '../../http/params';
import { detailRoute, getRoute } from '../../http/routes';
import { findPost, heldPostNames, postList, postWithCode, savePost } from './post-repo';
import { removeRoute, submitRoute, tzOf } from './shapes';

/** A post as lists and details show it. */
export const PostSchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  category: z.number().int(),
  postCode: z.string(),
  postName: z.string(),
  sort: z.number().int(),
  remark: z.string(),
  createTime: z.string().nullable(),
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

const PostPageQuerySchema = PageQuerySchema.extend({
  postCode: z.string().trim().max(64).optional(),
  postName: z.string().trim().max(64).optional(),
  category: z.coerce.number().int().optional(),
});

const tags = ['posts'];

export async function postRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = app.config.TIME_ZONE;

  getRoute(
    r,
    '/api/blade-system/post/list',
    {
      tags,
      summary: 'Posts of the tenant, paged (filters postCode, postName, category)',
      query: PostPageQuerySchema,
      data: pageSchema(PostSchema),
    },
    (request, q) => {
      const ctx = tenantOf(request);
      return findPage(app.database, ctx, postList(app.database.db, ctx.tenantId, q), q, (p) => presentPost(p, tz));
    },
  );

  getRoute(
    r,
    '/api/blade-system/post/select',
    {
      tags,
      summary: 'Every post of the tenant (selects)',
      query: z.object({ tenantId: z.string().trim().max(12).optional() }),
      data: z.array(PostSchema),
    },
    async (request) => {
      const rows = await request.tx((trx) => postList(trx, tenantOf(request).tenantId).execute());
      return rows.map((p) => presentPost(p, tz));
    },
  );

  detailRoute(
    r,
    '/api/blade-system/post/detail',
    { tags, summary: 'One post', data: PostSchema },
    async (request, id) => {
      const p = await request.tx((trx) => findPost(trx, tenantOf(request).tenantId, id));
      return p && presentPost(p, tz);
    },
  );

  submitRoute(
    r,
    '/api/blade-system/post/submit',
    { tags, summary: 'Adds (no id) or updates a post', body: PostSubmitSchema, data: PostSchema },
    async (request, b) => {
      const ctx = tenantOf(request);
      const saved = await request.tx(async (trx) => {
        const clash = await postWithCode(trx, ctx.tenantId, b.postCode);
        if (clash && String(clash.id) !== b.id) throw badRequest('system.postCodeExists', { code: b.postCode });
        return savePost(trx, ctx.tenantId, b.id, {
          category: b.category,
          post_code: b.postCode,
          post_name: b.postName,
          sort: b.sort,
          remark: b.remark,
          update_user: ctx.userId ?? null,
          update_time: new Date(),
        });
      });
      return presentPost(saved, tzOf(request));
    },
  );

  removeRoute(r, '/api/blade-system/post/remove', {
    tags,
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
