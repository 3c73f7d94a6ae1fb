import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { USER_PENDING } from '@sprout/core/auth/subject';
import { AppError } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
import { originOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { RequestValidationError, validationError } from '../../plugins/validation';
import { presentUser, userListQuery } from '../system/user-routes';
import { mergedParams } from './params';

/** Registration dialog (spec §2, 账号注册): tenantId, name, account, password, oauthId. */
export const RegisterGuestSchema = z.object({
  tenantId: z.string().trim().max(12).optional(),
  oauthId: z.string().trim().max(20).optional(),
  name: z.string().trim().min(1, '$validation.required').max(64),
  account: z
    .string()
    .trim()
    .min(1, '$validation.required')
    .regex(/^[A-Za-z0-9_.@-]{1,64}$/, '$validation.account'),
  password: z.string().min(1, '$validation.password').max(512),
});

const UserIdsSchema = z.object({
  userIds: z
    .string()
    .trim()
    .regex(/^\d{1,19}(,\d{1,19}){0,199}$/, '$validation.required')
    .transform((v) => [...new Set(v.split(','))]),
});

export async function registrationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = app.config.TIME_ZONE;

  r.post(
    '/api/blade-user/register-guest',
    {
      config: { allowGuest: true, limit: 'sensitive' },
      schema: {
        tags: ['users'],
        summary: 'A social account asks for a local account (pending approval, 待审核)',
        description:
          'Needs the guest token of the social sign-in. tenantId, name, account, password, oauthId in the query string (Saber) or the body.',
      },
    },
    async (request) => {
      const parsed = RegisterGuestSchema.safeParse(mergedParams(request));
      if (!parsed.success) throw validationError(new RequestValidationError(parsed.error.issues, 'body'), request.lang);
      if (!request.user) throw new AppError('unauthorized', 'error.unauthorized');
      const { userId } = await app.auth.registerGuest(request.user, parsed.data, originOf(request));
      return ok({ userId }, request.lang, 'auth.registered');
    },
  );

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
