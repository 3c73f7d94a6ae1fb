import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '@sprout/core/http/envelope';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
import { tenantOf } from '../../plugins/context';
import { createTimeRange } from '../../http/query';
import { okSchema, pageSchema } from '../../plugins/serialization';
import { presentSecurityLog, SecurityLogEntrySchema } from './presenters';

export const SecurityLogQuerySchema = PageQuerySchema.extend({
  account: z.string().trim().max(64).optional(),
  event: z.string().trim().max(32).optional(),
  result: z.enum(['success', 'failure']).optional(),
  ip: z.string().trim().max(64).optional(),
});

export async function securityLogRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = app.config.TIME_ZONE;

  r.get(
    '/api/blade-log/security/list',
    {
      schema: {
        tags: ['logs'],
        summary:
          'Security log of the caller’s tenant: sign-ins, failures, locks, refresh reuse, sign-outs (newest first)',
        querystring: SecurityLogQuerySchema,
        response: { 200: okSchema(pageSchema(SecurityLogEntrySchema)) },
      },
    },
    async (request) => {
      const q = request.query;
      const ctx = tenantOf(request);
      let base = app.database.db.selectFrom('security_log').where('tenant_id', '=', ctx.tenantId);
      if (q.account) base = base.where('account', '=', q.account);
      if (q.event) base = base.where('event', '=', q.event);
      if (q.result) base = base.where('result', '=', q.result);
      if (q.ip) base = base.where('ip', '=', q.ip);
      const qb = createTimeRange(base, q, tz).selectAll().orderBy('create_time', 'desc').orderBy('id', 'desc');
      return ok(await findPage(app.database, ctx, qb, q, (row) => presentSecurityLog(row, tz)), request.lang);
    },
  );
}
