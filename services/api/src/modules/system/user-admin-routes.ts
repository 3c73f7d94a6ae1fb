import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { hashPassword, md5 } from '@sprout/core/auth/password';
import { fieldFilter } from '@sprout/core/permissions/fields';
import { scopeWhere } from '@sprout/core/permissions/sql';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { int, text, textOrNull } from '../../http/answer';
import { IdListSchema, IdSchema, intEnum, optionalText, PHONE, RequiredIdListSchema } from '../../http/params';
import { readIn } from '../../http/query';
import { refuseUnknownRoles } from './role-repo';
import { routesOf } from './shapes';
import { USER_COLUMNS } from './user-list';
import { platformOf, setUserRoles, updateUser, userWithPhone } from './user-repo';
import { usersInScope } from './user-routes';
import { logUsual } from '@sprout/core/usual-log';

export const UserGrantSchema = z.object({ userIds: RequiredIdListSchema, roleIds: IdListSchema.default([]) });

const PlatformSchema = z.object({
  userId: IdSchema,
  userType: intEnum([1, 2, 3] as const),
  userExt: optionalText(2000),
});

/** A user's platform type and extension. */
const UserPlatformSchema = z.object({
  id: text,
  account: text,
  realName: text,
  userType: int,
  userExt: text,
});

/** Who holds a phone number (as the caller may see them). */
const PhoneHolderSchema = z.object({
  id: text,
  tenantId: text,
  account: text,
  name: textOrNull,
  realName: textOrNull,
  avatar: textOrNull,
  phone: textOrNull,
  deptId: text,
  status: int,
});

/** New passwords, shown once. */
const NewPasswordsSchema = z.array(z.object({ userId: text, account: text, password: text }));

const NEW_PASSWORD_CHARS = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const newPassword = () =>
  Array.from({ length: 10 }, () => NEW_PASSWORD_CHARS[randomInt(NEW_PASSWORD_CHARS.length)]).join('');

/** What a user administrator does to accounts: roles, passwords, platform type; and who holds a phone number. */
export async function userAdminRoutes(app: FastifyInstance) {
  const route = routesOf(app, 'users');

  route.post('/api/blade-user/grant', {
    summary: 'Replaces the roles of users (userIds, roleIds); unknown roles or users outside the scope → 400',
    description: 'Query string (Saber) or body; ids comma-separated or as arrays.',
    merged: UserGrantSchema,
    data: z.null(),
    done: 'system.granted',
    handler: async (request, g) => {
      const ctx = tenantOf(request);
      const perms = await permissionsOf(request);
      await request.tx(async (trx) => {
        if (g.roleIds.length) await refuseUnknownRoles(trx, ctx.tenantId, g.roleIds);
        await usersInScope(trx, ctx.tenantId, perms.ability, g.userIds, 'update');
        await setUserRoles(trx, ctx.tenantId, g.userIds, g.roleIds);
      });
      await app.permissions.invalidateTenant(ctx.tenantId);
      return null;
    },
  });

  route.post('/api/blade-user/reset-password', {
    summary: 'Gives users (userIds) a new random password, shown once in data, and signs them out',
    description: 'Query string (Saber) or body.',
    merged: z.object({ userIds: RequiredIdListSchema }),
    data: NewPasswordsSchema,
    done: 'system.passwordReset',
    handler: async (request, { userIds }) => {
      const ctx = tenantOf(request);
      const perms = await permissionsOf(request);
      const fresh = userIds.map((id) => ({ id, password: newPassword() }));
      const hashed = await Promise.all(fresh.map(async (f) => ({ ...f, hash: await hashPassword(md5(f.password)) })));
      const { rows, sids } = await request.tx(async (trx) => {
        const found = await usersInScope(trx, ctx.tenantId, perms.ability, userIds, 'update');
        const out: string[] = [];
        for (const h of hashed) {
          await updateUser(trx, ctx.tenantId, h.id, ctx.userId ?? null, { password_hash: h.hash });
          out.push(...(await app.auth.revokeUserSessions(trx, ctx.tenantId, h.id, 'password_reset')));
        }
        return { rows: found, sids: out };
      });
      await app.auth.revocations.announce(sids);
      const accounts = new Map(rows.map((u) => [String(u.id), u.account]));
      logUsual(
        {
          tenantId: ctx.tenantId,
          userId: ctx.userId,
          account: request.user?.account as string | undefined,
          title: 'password reset',
          data: { accounts: rows.map((u) => u.account) },
          request: { method: request.method, url: request.url, ip: request.ip },
        },
        app.database,
      );
      return fresh.map((f) => ({ userId: f.id, account: accounts.get(f.id) ?? '', password: f.password }));
    },
  });

  route.post('/api/blade-user/update-platform', {
    summary: 'Sets a user’s platform type and extension (userId, userType, userExt)',
    description: 'Query string (Saber) or body.',
    merged: PlatformSchema,
    data: z.null(),
    done: 'system.updated',
    handler: async (request, b) => {
      const ctx = tenantOf(request);
      const perms = await permissionsOf(request);
      await request.tx(async (trx) => {
        await usersInScope(trx, ctx.tenantId, perms.ability, [b.userId], 'update');
        await updateUser(trx, ctx.tenantId, b.userId, ctx.userId ?? null, {
          user_type: b.userType,
          user_ext: b.userExt,
        });
      });
      return null;
    },
  });

  route.detail('/api/blade-user/platform-detail', {
    summary: 'A user’s platform type and extension',
    data: UserPlatformSchema,
    find: async (request, id) => {
      const inScope = scopeWhere((await permissionsOf(request)).ability, 'read', 'user', USER_COLUMNS);
      const [u] = await readIn(request, (db, ctx) => platformOf(db, ctx.tenantId, id, inScope));
      return (
        u && {
          id: String(u.id),
          account: u.account,
          realName: u.real_name ?? '',
          userType: u.user_type,
          userExt: u.user_ext ?? '',
        }
      );
    },
  });

  route.get('/api/blade-user/infoByPhone', {
    summary: 'A user by phone number (null when none): user administrators, within their data scope',
    query: z.object({ phone: z.string().trim().regex(PHONE, '$validation.phone') }),
    data: PhoneHolderSchema.nullable(),
    handler: async (request, q) => {
      const ctx = tenantOf(request);
      const perms = await permissionsOf(request);
      // It reveals who owns a number: the user screen's holders only (API scope), and only
      // users they could list (tenant and data scope).
      const inScope = scopeWhere(perms.ability, 'read', 'user', USER_COLUMNS);
      const [u] = await readIn(request, (db) => userWithPhone(db, ctx.tenantId, q.phone, inScope));
      if (!u) return null;
      return fieldFilter<z.output<typeof PhoneHolderSchema>>(
        perms.ability,
        'read',
        'user',
      )({
        id: String(u.id),
        tenantId: ctx.tenantId,
        account: u.account,
        name: u.name,
        realName: u.real_name,
        avatar: u.avatar,
        phone: u.phone,
        deptId: u.dept_id === null ? '' : String(u.dept_id),
        status: u.status,
      });
    },
  });
}
