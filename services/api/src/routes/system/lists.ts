import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { z } from 'zod';
import { containsPattern, type DB } from '@sprout/core/db';
import { ok } from '@sprout/core/http/envelope';
import { offsetOf, type PageQuery, PageQuerySchema, pageOf } from '@sprout/core/http/paging';
import { parseDateTime } from '@sprout/core/time';
import { requirePlatformAdmin, requireRole } from '../../plugins/auth';
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

/** The users page: tenant-scoped by row-level security; count and rows in one transaction. */
export async function findUserPage(trx: Kysely<DB>, q: UserPageQuery, tz: string) {
  let base = trx.selectFrom('app_user').where('is_deleted', '=', 0);
  if (q.account) base = base.where('account', 'like', containsPattern(q.account));
  if (q.realName) base = base.where('real_name', 'like', containsPattern(q.realName));
  if (q.deptId) base = base.where('dept_id', '=', q.deptId);
  base = createTimeRange(base, q, tz);
  const { total } = await base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('create_time', 'desc')
    .orderBy('id', 'desc')
    .limit(q.size)
    .offset(offsetOf(q))
    .execute();
  return pageOf(
    rows.map((r) => presentUser(r, tz)),
    Number(total),
    q,
  );
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
    async (request) => ok(await request.tx((trx) => findUserPage(trx, request.query, tz)), request.lang),
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
      const page = await request.tx(async (trx) => {
        let base = trx.selectFrom('tenant').where('is_deleted', '=', 0);
        if (q.tenantId) base = base.where('tenant_id', 'like', containsPattern(q.tenantId));
        if (q.tenantName) base = base.where('tenant_name', 'like', containsPattern(q.tenantName));
        base = createTimeRange(base, q, tz);
        const { total } = await base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow();
        const rows = await base.selectAll().orderBy('tenant_id').limit(q.size).offset(offsetOf(q)).execute();
        return pageOf(
          rows.map((t) => presentTenant(t, tz)),
          Number(total),
          q,
        );
      });
      return ok(page, request.lang);
    },
  );
}
