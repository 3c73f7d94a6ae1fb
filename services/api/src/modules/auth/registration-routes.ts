import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { originOf } from '../../plugins/auth';
import { okSchema } from '../../plugins/serialization';
import { paramsAsBody } from './params';

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

export async function registrationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/blade-user/register-guest',
    {
      ...paramsAsBody,
      config: { allowGuest: true, limit: 'sensitive' },
      schema: {
        tags: ['users'],
        summary: 'A social account asks for a local account (pending approval, 待审核)',
        description:
          'Needs the guest token of the social sign-in. tenantId, name, account, password, oauthId in the query string (Saber) or the body.',
        body: RegisterGuestSchema,
        response: { 200: okSchema(z.object({ userId: z.string() })) },
      },
    },
    async (request) => {
      if (!request.user) throw new AppError('unauthorized', 'error.unauthorized');
      const { userId } = await app.auth.registerGuest(request.user, request.body, originOf(request));
      return ok({ userId }, request.lang, 'auth.registered');
    },
  );
}
