import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { USER_PENDING } from '@sprout/core/auth/subject';
import { AppError } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
import { originOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { presentUser, userListQuery } from './user-list';

const UserIdsSchema = z.object({
  userIds: z
    .string()
    .trim()
    .regex(/^\d{1,19}(,\d{1,19}){0,199}$/, '$validation.required')
    .transform((v) => [...new Set(v.split(','))]),
});

/**
 * The administrator's side of self-registration (spec §2, 账号注册): the accounts that
 * social sign-ins asked for, awaiting approval, and their approval or rejection. The
 * guest's own request (`register-guest`) belongs to sign-in (modules/auth).
 */
export async function registrationReviewRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = app.config.TIME_ZONE;

  for (const [path, approve] of [
    ['/api/blade-user/audit-pass', true],
    ['/api/blade-user/audit-refuse', false],
  ] as const) {
    r.post(
      path,
      {
        schema: {
          tags: ['users'],
          summary: approve ? 'Approves pending registrations' : 'Rejects pending registrations',
          querystring: UserIdsSchema,
        },
      },
      async (request) => {
        if (!request.user) throw new AppError('unauthorized', 'error.unauthorized');
        await app.auth.reviewRegistrations(request.user, request.query.userIds, approve, originOf(request));
        return ok(null, request.lang, approve ? 'auth.approved' : 'auth.rejected');
      },
    );
  }

  r.get(
    '/api/blade-user/audit-list',
    {
      schema: { tags: ['users'], summary: 'Registrations awaiting approval, paged', querystring: PageQuerySchema },
    },
    async (request) => {
      const ctx = tenantOf(request);
      const qb = userListQuery(app.database.db, ctx.tenantId, {}, tz).where('u.status', '=', USER_PENDING);
      return ok(await findPage(app.database, ctx, qb, request.query, (u) => presentUser(u, tz)), request.lang);
    },
  );
}
