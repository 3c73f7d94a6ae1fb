import { randomInt } from 'node:crypto';
import { subject } from '@casl/ability';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { hashPassword, md5 } from '@sprout/core/auth/password';
import { type DB, readInTenant } from '@sprout/core/db';
import { badRequest, notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { nextId } from '@sprout/core/ids';
import type { AppAbility } from '@sprout/core/permissions/ability';
import { fieldFilter } from '@sprout/core/permissions/fields';
import { findScopedListPage } from '@sprout/core/permissions/scoped';
import { scopeWhere } from '@sprout/core/permissions/sql';
import { permissionsOf } from '../../plugins/auth';
import { okSchema, pageSchema } from '../../plugins/serialization';
import { tenantOf } from '../../plugins/context';
import { requireKnownIds } from '../../http/known';
import { IdListSchema, IdSchema, input, intEnum, optionalText, PHONE, RequiredIdListSchema } from '../../http/params';
import {
  USER_COLUMNS,
  type UserListRow,
  UserPageQuerySchema,
  presentUser,
  UserSchema,
  userList,
  userListQuery,
  userListValues,
} from './user-list';

/** Comma-separated ids (Saber's multi-selects); the first is what a single column keeps. */
const firstId = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v === null || v === undefined ? null : String(v).split(',')[0]?.trim() || null))
  .pipe(
    z
      .string()
      .regex(/^[1-9]\d{0,18}$/, '$validation.id')
      .nullable(),
  );

/** User add/update (BladeX User); roleId, deptId, postId as Saber's comma-separated ids. */
export const UserSubmitSchema = z
  .object({
    id: IdSchema.optional(),
    account: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_.@-]{1,64}$/, '$validation.account'),
    password: z.string().min(1, '$validation.password').max(128).optional(),
    name: optionalText(64),
    realName: z.string().trim().min(1, '$validation.required').max(64),
    email: optionalText(255).refine((v) => !v || z.email().safeParse(v).success, '$validation.email'),
    phone: optionalText(11).refine((v) => !v || PHONE.test(v), '$validation.phone'),
    sex: intEnum([1, 2, 3] as const).nullish(),
    birthday: optionalText(10).refine((v) => !v || /^\d{4}-\d{2}-\d{2}$/.test(v), '$validation.date'),
    deptId: firstId,
    postId: firstId,
    roleId: IdListSchema.optional(),
    userType: intEnum([1, 2, 3] as const).default(1),
    status: intEnum([0, 1] as const).optional(),
  })
  .superRefine((b, ctx) => {
    // A new user needs a password; an update never changes it here (reset-password does).
    if (!b.id && !b.password) ctx.addIssue({ code: 'custom', path: ['password'], message: '$validation.required' });
  });

export const UserGrantSchema = z.object({ userIds: RequiredIdListSchema, roleIds: IdListSchema.default([]) });

const NEW_PASSWORD_CHARS = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const newPassword = () =>
  Array.from({ length: 10 }, () => NEW_PASSWORD_CHARS[randomInt(NEW_PASSWORD_CHARS.length)]).join('');

export async function userRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = app.config.TIME_ZONE;

  /** One user in the caller's `action` scope, or undefined (existence is not told apart). */
  const findUser = async (
    request: Parameters<typeof tenantOf>[0],
    ability: AppAbility,
    id: string,
    action: 'read' | 'update',
  ) => {
    const ctx = tenantOf(request);
    const qb = userListQuery(app.database.db, ctx.tenantId, {}, tz)
      .where('u.id', '=', id)
      .where(scopeWhere(ability, action, 'user', USER_COLUMNS));
    const [row] = await readInTenant<UserListRow>(app.database, ctx, qb.compile());
    return row;
  };

  /** Users of `ids` within the caller's `action` scope; 400 naming the others. */
  const usersInScope = async (
    trx: Kysely<DB>,
    tenantId: string,
    ability: AppAbility,
    ids: string[],
    action: 'update' | 'delete',
  ) => {
    const rows = await trx
      .selectFrom('app_user as u')
      .select(['u.id', 'u.account'])
      .where('u.tenant_id', '=', tenantId)
      .where('u.is_deleted', '=', 0)
      .where('u.id', 'in', ids)
      .where(scopeWhere(ability, action, 'user', USER_COLUMNS))
      .execute();
    const found = new Set(rows.map((u) => String(u.id)));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) throw badRequest('system.unknownUsers', { ids: missing.join(',') });
    return rows;
  };

  const checkRoles = async (trx: Kysely<DB>, tenantId: string, roleIds: string[]) => {
    if (!roleIds.length) return;
    const rows = await trx
      .selectFrom('role')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('is_deleted', '=', 0)
      .where('id', 'in', roleIds)
      .execute();
    const have = new Set(rows.map((x) => String(x.id)));
    const missing = roleIds.filter((id) => !have.has(id));
    if (missing.length) throw badRequest('system.unknownRoles', { ids: missing.join(',') });
  };

  const setRoles = async (trx: Kysely<DB>, tenantId: string, userIds: string[], roleIds: string[]) => {
    await trx.deleteFrom('user_role').where('tenant_id', '=', tenantId).where('user_id', 'in', userIds).execute();
    const rows = userIds.flatMap((user_id) => roleIds.map((role_id) => ({ tenant_id: tenantId, user_id, role_id })));
    if (rows.length) await trx.insertInto('user_role').values(rows).execute();
  };

  /** Signs users out everywhere (removed, disabled, password reset). Call after the commit. */
  const announceRevoked = (sids: string[]) => app.auth.revocations.announce(sids);

  r.get(
    '/api/blade-user/page',
    {
      schema: {
        tags: ['users'],
        summary: 'Users in the caller’s data scope, paged (account, realName, deptId and below, create time)',
        querystring: UserPageQuerySchema,
        response: { 200: okSchema(pageSchema(UserSchema)) },
      },
    },
    async (request) => {
      const ctx = tenantOf(request);
      const perms = await permissionsOf(request);
      const page = await findScopedListPage(
        app.database,
        ctx,
        perms.ability,
        'user',
        USER_COLUMNS,
        userList,
        userListValues(ctx.tenantId, request.query, tz),
        request.query,
        (u) => presentUser(u, tz),
      );
      return ok(page, request.lang);
    },
  );

  r.get(
    '/api/blade-user/detail',
    {
      schema: {
        tags: ['users'],
        summary: 'One user (404 outside the caller’s data scope)',
        querystring: z.object({ id: IdSchema }),
      },
    },
    async (request) => {
      const perms = await permissionsOf(request);
      const u = await findUser(request, perms.ability, request.query.id, 'read');
      if (!u) throw notFound();
      return ok(fieldFilter(perms.ability, 'read', 'user')(presentUser(u, tz)), request.lang);
    },
  );

  const save = async (request: Parameters<typeof tenantOf>[0], b: z.output<typeof UserSubmitSchema>) => {
    const ctx = tenantOf(request);
    const { tenantId, userId: me = '' } = ctx;
    const perms = await permissionsOf(request);
    const passwordHash = !b.id && b.password ? await hashPassword(md5(b.password)) : undefined;
    let revoked: string[] = [];
    const id = await request.tx(async (trx) => {
      if (b.id) await usersInScope(trx, tenantId, perms.ability, [b.id], 'update');
      // The user as it will be must be in the caller's scope too (no moving users out of reach).
      const after = { tenantId, id: b.id ?? '0', createUser: b.id ? undefined : me, deptId: b.deptId };
      if (!b.id && !perms.ability.can('update', subject('user', after))) throw badRequest('system.outOfScope');
      if (b.id && b.deptId !== undefined) {
        const current = await trx
          .selectFrom('app_user')
          .select(['create_user'])
          .where('tenant_id', '=', tenantId)
          .where('id', '=', b.id)
          .executeTakeFirstOrThrow();
        if (
          !perms.ability.can(
            'update',
            subject('user', {
              ...after,
              createUser: current.create_user === null ? null : String(current.create_user),
            }),
          )
        )
          throw badRequest('system.outOfScope');
      }
      if (b.deptId) {
        const d = await trx
          .selectFrom('dept')
          .select('id')
          .where('tenant_id', '=', tenantId)
          .where('id', '=', b.deptId)
          .where('is_deleted', '=', 0)
          .executeTakeFirst();
        if (!d) throw badRequest('system.deptNotFound', { id: b.deptId });
      }
      if (b.postId) {
        const p = await trx
          .selectFrom('post')
          .select('id')
          .where('tenant_id', '=', tenantId)
          .where('id', '=', b.postId)
          .where('is_deleted', '=', 0)
          .executeTakeFirst();
        if (!p) throw badRequest('system.postNotFound', { id: b.postId });
      }
      if (b.roleId) await checkRoles(trx, tenantId, b.roleId);
      const clash = await trx
        .selectFrom('app_user')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('account', '=', b.account)
        .where('is_deleted', '=', 0)
        .executeTakeFirst();
      if (clash && String(clash.id) !== b.id) throw badRequest('auth.accountExists');
      const values = {
        account: b.account,
        name: b.name ?? b.realName,
        real_name: b.realName,
        email: b.email,
        phone: b.phone,
        sex: b.sex ?? null,
        birthday: b.birthday ? sql<Date>`${b.birthday}::date` : null,
        dept_id: b.deptId,
        post_id: b.postId,
        user_type: b.userType,
        update_user: me,
        update_time: new Date(),
        ...(b.status !== undefined ? { status: b.status } : {}),
      };
      let userId = b.id;
      if (userId) {
        await trx
          .updateTable('app_user')
          .set(values)
          .where('tenant_id', '=', tenantId)
          .where('id', '=', userId)
          .execute();
        if (b.status === 0) revoked = await app.auth.revokeUserSessions(trx, tenantId, userId, 'user_disabled');
      } else {
        const tenant = await trx
          .selectFrom('tenant')
          .select('account_number')
          .where('tenant_id', '=', tenantId)
          .executeTakeFirst();
        if (tenant && tenant.account_number >= 0) {
          const active = await trx
            .selectFrom('app_user')
            .select(sql<string>`count(*)`.as('n'))
            .where('tenant_id', '=', tenantId)
            .where('is_deleted', '=', 0)
            .where('status', '=', 1)
            .executeTakeFirstOrThrow();
          if (Number(active.n) + 1 > tenant.account_number) throw badRequest('auth.tenantQuota');
        }
        userId = nextId();
        await trx
          .insertInto('app_user')
          .values({
            ...values,
            tenant_id: tenantId,
            id: userId,
            password_hash: passwordHash as string,
            create_user: me,
          })
          .execute();
      }
      if (b.roleId) await setRoles(trx, tenantId, [userId], b.roleId);
      return userId;
    });
    await announceRevoked(revoked);
    // Roles, dept or status changed: the tenant's abilities are rebuilt.
    await app.permissions.invalidateTenant(tenantId);
    const u = await findUser(request, perms.ability, id, 'read');
    return u ? fieldFilter(perms.ability, 'read', 'user')(presentUser(u, tz)) : { id };
  };

  r.post(
    '/api/blade-user/submit',
    {
      schema: {
        tags: ['users'],
        summary: 'Adds (no id; password as typed) or updates a user; roleId, deptId, postId as comma-separated ids',
        body: UserSubmitSchema,
      },
    },
    async (request) =>
      ok(await save(request, request.body), request.lang, request.body.id ? 'system.updated' : 'system.added'),
  );

  r.post(
    '/api/blade-user/update',
    { schema: { tags: ['users'], summary: 'Updates a user (id required)', body: UserSubmitSchema } },
    async (request) => {
      if (!request.body.id) throw notFound();
      return ok(await save(request, request.body), request.lang, 'system.updated');
    },
  );

  r.post(
    '/api/blade-user/remove',
    {
      schema: {
        tags: ['users'],
        summary: 'Deletes users (ids) in the caller’s data scope and signs them out',
        querystring: z.object({ ids: RequiredIdListSchema }),
      },
    },
    async (request) => {
      const ids = request.query.ids;
      const ctx = tenantOf(request);
      if (ids.includes(ctx.userId ?? '')) throw badRequest('system.cannotRemoveSelf');
      const perms = await permissionsOf(request);
      const sids = await request.tx(async (trx) => {
        const scope = scopeWhere(perms.ability, 'delete', 'user', USER_COLUMNS);
        await requireKnownIds(trx, { table: 'app_user', alias: 'u', tenantId: ctx.tenantId, ids, scope });
        await trx
          .updateTable('app_user')
          .set({ is_deleted: 1, update_user: ctx.userId ?? null, update_time: new Date() })
          .where('tenant_id', '=', ctx.tenantId)
          .where('id', 'in', ids)
          .execute();
        await trx.deleteFrom('user_role').where('tenant_id', '=', ctx.tenantId).where('user_id', 'in', ids).execute();
        const out: string[] = [];
        for (const id of ids) out.push(...(await app.auth.revokeUserSessions(trx, ctx.tenantId, id, 'user_removed')));
        return out;
      });
      await announceRevoked(sids);
      await app.permissions.invalidateTenant(ctx.tenantId);
      return ok(null, request.lang, 'system.removed');
    },
  );

  r.post(
    '/api/blade-user/grant',
    {
      schema: {
        tags: ['users'],
        summary: 'Replaces the roles of users (userIds, roleIds); unknown roles or users outside the scope → 400',
        description: 'Query string (Saber) or body; ids comma-separated or as arrays.',
      },
    },
    async (request) => {
      const g = input(request, UserGrantSchema);
      const ctx = tenantOf(request);
      const perms = await permissionsOf(request);
      await request.tx(async (trx) => {
        await checkRoles(trx, ctx.tenantId, g.roleIds);
        await usersInScope(trx, ctx.tenantId, perms.ability, g.userIds, 'update');
        await setRoles(trx, ctx.tenantId, g.userIds, g.roleIds);
      });
      await app.permissions.invalidateTenant(ctx.tenantId);
      return ok(null, request.lang, 'system.granted');
    },
  );

  r.post(
    '/api/blade-user/reset-password',
    {
      schema: {
        tags: ['users'],
        summary: 'Gives users (userIds) a new random password, shown once in data, and signs them out',
      },
    },
    async (request) => {
      const { userIds } = input(request, z.object({ userIds: RequiredIdListSchema }));
      const ctx = tenantOf(request);
      const perms = await permissionsOf(request);
      const fresh = await Promise.all(userIds.map(async (id) => ({ id, password: newPassword() })));
      const hashed = await Promise.all(fresh.map(async (f) => ({ ...f, hash: await hashPassword(md5(f.password)) })));
      const { rows, sids } = await request.tx(async (trx) => {
        const found = await usersInScope(trx, ctx.tenantId, perms.ability, userIds, 'update');
        const out: string[] = [];
        for (const h of hashed) {
          await trx
            .updateTable('app_user')
            .set({ password_hash: h.hash, update_user: ctx.userId ?? null, update_time: new Date() })
            .where('tenant_id', '=', ctx.tenantId)
            .where('id', '=', h.id)
            .execute();
          out.push(...(await app.auth.revokeUserSessions(trx, ctx.tenantId, h.id, 'password_reset')));
        }
        return { rows: found, sids: out };
      });
      await announceRevoked(sids);
      const accounts = new Map(rows.map((u) => [String(u.id), u.account]));
      return ok(
        fresh.map((f) => ({ userId: f.id, account: accounts.get(f.id) ?? '', password: f.password })),
        request.lang,
        'system.passwordReset',
      );
    },
  );

  r.post(
    '/api/blade-user/update-platform',
    {
      schema: {
        tags: ['users'],
        summary: 'Sets a user’s platform type and extension (userId, userType, userExt)',
      },
    },
    async (request) => {
      const b = input(
        request,
        z.object({ userId: IdSchema, userType: intEnum([1, 2, 3] as const), userExt: optionalText(2000) }),
      );
      const ctx = tenantOf(request);
      const perms = await permissionsOf(request);
      await request.tx(async (trx) => {
        await usersInScope(trx, ctx.tenantId, perms.ability, [b.userId], 'update');
        await trx
          .updateTable('app_user')
          .set({ user_type: b.userType, user_ext: b.userExt, update_user: ctx.userId ?? null, update_time: new Date() })
          .where('tenant_id', '=', ctx.tenantId)
          .where('id', '=', b.userId)
          .execute();
      });
      return ok(null, request.lang, 'system.updated');
    },
  );

  r.get(
    '/api/blade-user/platform-detail',
    {
      schema: {
        tags: ['users'],
        summary: 'A user’s platform type and extension',
        querystring: z.object({ id: IdSchema }),
      },
    },
    async (request) => {
      const ctx = tenantOf(request);
      const perms = await permissionsOf(request);
      const [u] = await readInTenant<{
        id: string;
        account: string;
        real_name: string | null;
        user_type: number;
        user_ext: string | null;
      }>(
        app.database,
        ctx,
        app.database.db
          .selectFrom('app_user as u')
          .select(['u.id', 'u.account', 'u.real_name', 'u.user_type', 'u.user_ext'])
          .where('u.tenant_id', '=', ctx.tenantId)
          .where('u.is_deleted', '=', 0)
          .where('u.id', '=', request.query.id)
          .where(scopeWhere(perms.ability, 'read', 'user', USER_COLUMNS))
          .compile(),
      );
      if (!u) throw notFound();
      return ok(
        {
          id: String(u.id),
          account: u.account,
          realName: u.real_name ?? '',
          userType: u.user_type,
          userExt: u.user_ext ?? '',
        },
        request.lang,
      );
    },
  );

  r.get(
    '/api/blade-user/infoByPhone',
    {
      schema: {
        tags: ['users'],
        summary: 'A user by phone number (null when none): user administrators, within their data scope',
        querystring: z.object({ phone: z.string().trim().regex(PHONE, '$validation.phone') }),
      },
    },
    async (request) => {
      const ctx = tenantOf(request);
      const perms = await permissionsOf(request);
      // It reveals who owns a number: the user screen's holders only (API scope), and only
      // users they could list (tenant and data scope).
      const [u] = await readInTenant<{
        id: string;
        account: string;
        name: string | null;
        real_name: string | null;
        avatar: string | null;
        phone: string | null;
        dept_id: string | null;
        status: number;
      }>(
        app.database,
        ctx,
        app.database.db
          .selectFrom('app_user as u')
          .select(['u.id', 'u.account', 'u.name', 'u.real_name', 'u.avatar', 'u.phone', 'u.dept_id', 'u.status'])
          .where('u.tenant_id', '=', ctx.tenantId)
          .where('u.is_deleted', '=', 0)
          .where('u.phone', '=', request.query.phone)
          .where(scopeWhere(perms.ability, 'read', 'user', USER_COLUMNS))
          .orderBy('u.id')
          .limit(1)
          .compile(),
      );
      const present = fieldFilter(perms.ability, 'read', 'user');
      return ok(
        u
          ? present({
              id: String(u.id),
              tenantId: ctx.tenantId,
              account: u.account,
              name: u.name,
              realName: u.real_name,
              avatar: u.avatar,
              phone: u.phone,
              deptId: u.dept_id === null ? '' : String(u.dept_id),
              status: u.status,
            })
          : null,
        request.lang,
      );
    },
  );
}
