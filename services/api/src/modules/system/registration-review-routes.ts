import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '@sprout/core/errors';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
import { originOf } from '../../plugins/auth';
import { pageSchema } from '../../plugins/serialization';
import { tenantOf } from '../../plugins/context';
import { routesOf } from './shapes';
import { presentUser, UserSchema } from './user-list';
import { pendingUsers } from './user-repo';

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
  const route = routesOf(app, 'users');
  const tz = app.config.TIME_ZONE;

  for (const [path, approve] of [
    ['/api/blade-user/audit-pass', true],
    ['/api/blade-user/audit-refuse', false],
  ] as const) {
    route.post(path, {
      summary: approve ? 'Approves pending registrations' : 'Rejects pending registrations',
      query: UserIdsSchema,
      data: z.null(),
      done: approve ? 'auth.approved' : 'auth.rejected',
      handler: async (request, q) => {
        if (!request.user) throw new AppError('unauthorized', 'error.unauthorized');
        await app.auth.reviewRegistrations(request.user, q.userIds, approve, originOf(request));
        return null;
      },
    });
  }

  route.get('/api/blade-user/audit-list', {
    summary: 'Registrations awaiting approval, paged',
    query: PageQuerySchema,
    data: pageSchema(UserSchema),
    handler: async (request, q) => {
      const ctx = tenantOf(request);
      return findPage(app.database, ctx, pendingUsers(app.database.db, ctx.tenantId, tz), q, (u) => presentUser(u, tz));
    },
  });
}
