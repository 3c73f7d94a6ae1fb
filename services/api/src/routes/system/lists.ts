import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { z } from 'zod';
import { containsPattern, type DB } from '@sprout/core/db';
import { ok } from '@sprout/core/http/envelope';
import { findPage, type PageQuery, PageQuerySchema } from '@sprout/core/http/paging';
import { parseDateTime } from '@sprout/core/time';
import { requirePlatformAdmin, requireRole } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { presentTenant, presentUser } from './presenters';

/** Applies the spec's create-time range filters to a query with a `create_time` column. */
export function createTimeRange<QB extends SelectQueryBuilder<DB, keyof DB, object>>(
  qb: QB,
  q: Pick<PageQuery, 'createTime_dategt' | 'createTime_datelt'>,
  tz: string,
  column = 'create_time',
): QB {
  let out = qb;
  if (q.createTime_dategt) out = out.where(column as never, '>', parseDateTime(q.createTime_dategt, tz) as never) as QB;
  if (q.createTime_datelt) out = out.where(column as never, '<', parseDateTime(q.createTime_datelt, tz) as never) as QB;
  return out;
}

export const UserPageQuerySchema = PageQuerySchema.extend({
  account: z.string().trim().max(64).optional(),
  realName: z.string().trim().max(64).optional(),
  deptId: z
    .string()
    .regex(/^\d{1,19}$/)
    .optional(),
});
export type UserPageQuery = z.output<typeof UserPageQuerySchema>;

/**
 * The users of one tenant as a list query: filtered by tenant explicitly (so the planner
 * uses the tenant index) and by row-level security underneath.
 */
/** What a user list shows; never the password hash. */
export const USER_LIST_COLUMNS = [
  'id',
  'tenant_id',
  'account',
  'name',
  'real_name',
  'email',
  'phone',
  'avatar',
  'sex',
  'dept_id',
  'post_id',
  'user_type',
  'status',
  'create_time',
  'update_time',
] as const;

export function userListQuery(db: Kysely<DB>, tenantId: string, q: UserPageQuery, tz: string) {
  let base = db.selectFrom('app_user').where('tenant_id', '=', tenantId).where('is_deleted', '=', 0);
  if (q.account) base = base.where('account', 'like', containsPattern(q.account));
  if (q.realName) base = base.where('real_name', 'like', containsPattern(q.realName));
  if (q.deptId) base = base.where('dept_id', '=', q.deptId);
  return createTimeRange(base, q, tz).select(USER_LIST_COLUMNS).orderBy('create_time', 'desc').orderBy('id', 'desc');
}

export async function systemListRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = app.config.TIME_ZONE;

  r.get(
    '/api/blade-user/page',
    {
      preHandler: requireRole('administrator', 'admin'),
      schema: { tags: ['users'], summary: 'Users of the caller’s tenant, paged', querystring: UserPageQuerySchema },
    },
    async (request) => {
      const ctx = tenantOf(request);
      const page = await findPage(
        app.database,
        ctx,
        userListQuery(app.database.db, ctx.tenantId, request.query, tz),
        request.query,
        (u) => presentUser(u, tz),
      );
      return ok(page, request.lang);
    },
  );

  r.get(
    '/api/blade-system/tenant/list',
    {
      preHandler: requirePlatformAdmin(),
      schema: {
        tags: ['tenants'],
        summary: 'Tenants (the platform tenant sees all), paged',
        querystring: PageQuerySchema.extend({
          tenantId: z.string().trim().max(12).optional(),
          tenantName: z.string().trim().max(100).optional(),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      let base = app.database.db.selectFrom('tenant').where('is_deleted', '=', 0);
      if (q.tenantId) base = base.where('tenant_id', 'like', containsPattern(q.tenantId));
      if (q.tenantName) base = base.where('tenant_name', 'like', containsPattern(q.tenantName));
      const qb = createTimeRange(base, q, tz).selectAll().orderBy('tenant_id');
      const page = await findPage(app.database, tenantOf(request), qb, q, (t) => presentTenant(t, tz));
      return ok(page, request.lang);
    },
  );
}
