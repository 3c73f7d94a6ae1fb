import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { originOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { okSchema } from '../../plugins/serialization';
import { PHONE } from '../../http/params';
import { paramsAsBody } from './params';
import { OwnUserSchema, presentOwnUser } from './presenters';
import { loadOwnUser } from './queries';

/** Mainland mobile numbers: 11 digits starting with 1 (spec §9: phone length 11). */
const AVATAR = /^(https?:\/\/[^\s]+|\/[^\s]*)$/;

/**
 * Optional text: absent → unchanged; blank or null → cleared (null). Null is what `info`
 * answers for an empty field, so a client can send back the object it read.
 */
const clearable = (max: number, check?: (v: string) => boolean, message?: string) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((v) => v === '' || !check || check(v), { message: message ?? '$validation.required' })
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

/** Personal info (spec §2, 个人信息): name, realName, phone, email, avatar. */
export const UpdateInfoSchema = z.object({
  name: z.string().trim().min(1, '$validation.required').max(64).optional(),
  realName: z.string().trim().min(1, '$validation.required').max(64).optional(),
  phone: clearable(11, (v) => PHONE.test(v), '$validation.phone'),
  email: clearable(255, (v) => z.email().safeParse(v).success, '$validation.email'),
  avatar: clearable(1000, (v) => AVATAR.test(v), '$validation.avatar'),
});

/** Password change (spec §2, 修改密码); values as the client sends them (md5 in user mode). */
export const UpdatePasswordSchema = z.object({
  oldPassword: z.string().min(1, '$validation.password').max(512),
  newPassword: z.string().min(1, '$validation.password').max(512),
  newPassword1: z.string().min(1, '$validation.password').max(512),
});

const OWN_USER = { 200: okSchema(OwnUserSchema) };

export async function accountRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = app.config.TIME_ZONE;

  r.get(
    '/api/blade-user/info',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['users'], summary: 'The signed-in user’s own record', response: OWN_USER },
    },
    async (request) => {
      const u = await loadOwnUser(app.database, tenantOf(request));
      if (!u) throw notFound('auth.userNotFound');
      return ok(presentOwnUser(u, tz), request.lang);
    },
  );

  r.post(
    '/api/blade-user/update-info',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: 'Updates the signed-in user’s personal info',
        body: UpdateInfoSchema,
        response: OWN_USER,
      },
    },
    async (request) => {
      const b = request.body;
      const ctx = tenantOf(request);
      const values = {
        ...(b.name !== undefined ? { name: b.name } : {}),
        ...(b.realName !== undefined ? { real_name: b.realName } : {}),
        ...(b.phone !== undefined ? { phone: b.phone } : {}),
        ...(b.email !== undefined ? { email: b.email } : {}),
        ...(b.avatar !== undefined ? { avatar: b.avatar } : {}),
      };
      const updated = await request.tx((trx) =>
        trx
          .updateTable('app_user')
          .set({ ...values, update_user: ctx.userId, update_time: new Date() })
          .where('tenant_id', '=', ctx.tenantId)
          .where('id', '=', ctx.userId as string)
          .where('is_deleted', '=', 0)
          .executeTakeFirst(),
      );
      if (!updated.numUpdatedRows) throw notFound('auth.userNotFound');
      const u = await loadOwnUser(app.database, ctx);
      if (!u) throw notFound('auth.userNotFound');
      return ok(presentOwnUser(u, tz), request.lang);
    },
  );

  r.post(
    '/api/blade-user/update-password',
    {
      ...paramsAsBody,
      config: { access: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: 'Changes the signed-in user’s password and signs out their other sessions',
        description: 'oldPassword, newPassword, newPassword1 in the query string (Saber) or the body.',
        body: UpdatePasswordSchema,
        response: { 200: okSchema(z.null()) },
      },
    },
    async (request) => {
      const p = request.body;
      if (!request.user) throw new AppError('unauthorized', 'error.unauthorized');
      await app.auth.changePassword(request.user, p.oldPassword, p.newPassword, p.newPassword1, originOf(request));
      return ok(null, request.lang, 'auth.passwordChanged');
    },
  );
}
