import { subject } from '@casl/ability';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { hashPassword, md5 } from '@sprout/core/auth/password';
import type { DB, TenantContext } from '@sprout/core/db';
import { badRequest } from '@sprout/core/errors';
import type { AppAbility } from '@sprout/core/permissions/ability';
import { fieldFilter } from '@sprout/core/permissions/fields';
import { scopeWhere } from '@sprout/core/permissions/sql';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { liveIds, refuseMissing, refuseTaken } from '../../http/known';
import { IdListSchema, IdSchema, intEnum, optionalText, PHONE } from '../../http/params';
import { readIn, writeRow } from '../../http/query';
import { defineResource } from '../../http/resource';
import { listSource, ownSave } from '../../http/resource-own';
import { refuseUnknownRoles } from './role-repo';
import { tzOf } from './shapes';
import {
  USER_COLUMNS,
  UserPageQuerySchema,
  presentUser,
  UserSchema,
  userList,
  userListQuery,
  userListValues,
} from './user-list';
import { accountQuota, activeUsers, asDate, removeUserRoles, setUserRoles, userCreator, usersAmong } from './user-repo';

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

/** A user just saved, as the caller may see them (only the id when they are out of sight). */
const SavedUserSchema = UserSchema.partial();

/** Users of `ids` within the caller's `action` scope; 400 naming the others. */
export async function usersInScope(
  trx: Kysely<DB>,
  tenantId: string,
  ability: AppAbility,
  ids: string[],
  action: 'update' | 'delete',
) {
  const rows = await usersAmong(trx, tenantId, ids, scopeWhere(ability, action, 'user', USER_COLUMNS));
  refuseMissing(
    ids,
    rows.map((u) => u.id),
    'system.unknownUsers',
  );
  return rows;
}

/** One user in the caller's read scope, as they may see them; undefined when there is none. */
async function findUser(request: FastifyRequest, ability: AppAbility, id: string) {
  const inScope = scopeWhere(ability, 'read', 'user', USER_COLUMNS);
  const tz = tzOf(request);
  const [u] = await readIn(request, (db, ctx) =>
    userListQuery(db, ctx.tenantId, {}, tz).where('u.id', '=', id).where(inScope),
  );
  return u && fieldFilter<z.output<typeof UserSchema>>(ability, 'read', 'user')(presentUser(u, tz));
}

/** Saves a user: add (password hashed) or update; the dept, post and roles known; the quota kept. */
async function saveUser(request: FastifyRequest, b: z.output<typeof UserSubmitSchema>, ctx: TenantContext) {
  const app = request.server;
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
      const current = await userCreator(trx, tenantId, b.id);
      const createUser = current.create_user === null ? null : String(current.create_user);
      if (!perms.ability.can('update', subject('user', { ...after, createUser })))
        throw badRequest('system.outOfScope');
    }
    if (b.deptId)
      refuseMissing([b.deptId], await liveIds(trx, 'dept', [b.deptId], tenantId), 'system.deptNotFound', 'id');
    if (b.postId)
      refuseMissing([b.postId], await liveIds(trx, 'post', [b.postId], tenantId), 'system.postNotFound', 'id');
    if (b.roleId?.length) await refuseUnknownRoles(trx, tenantId, b.roleId);
    const taken = { table: 'app_user', tenantId, values: { account: b.account }, id: b.id } as const;
    await refuseTaken(trx, taken, 'auth.accountExists');
    if (!b.id) {
      const tenant = await accountQuota(trx, tenantId);
      if (tenant && tenant.account_number >= 0 && (await activeUsers(trx, tenantId)) + 1 > tenant.account_number)
        throw badRequest('auth.tenantQuota');
    }
    const userId = await writeRow(
      trx,
      'app_user',
      tenantId,
      b.id,
      {
        account: b.account,
        name: b.name ?? b.realName,
        real_name: b.realName,
        email: b.email,
        phone: b.phone,
        sex: b.sex ?? null,
        birthday: b.birthday ? asDate(b.birthday) : null,
        dept_id: b.deptId,
        post_id: b.postId,
        user_type: b.userType,
        update_user: me,
        update_time: new Date(),
        ...(b.status !== undefined ? { status: b.status } : {}),
      },
      { password_hash: passwordHash as string, create_user: me },
    );
    if (b.id && b.status === 0) revoked = await app.auth.revokeUserSessions(trx, tenantId, userId, 'user_disabled');
    if (b.roleId) await setUserRoles(trx, tenantId, [userId], b.roleId);
    return userId;
  });
  // Signed out everywhere (disabled); roles, dept or status changed: the tenant's abilities are rebuilt.
  await app.auth.revocations.announce(revoked);
  await app.permissions.invalidateTenant(tenantId);
  return (await findUser(request, perms.ability, id)) ?? { id };
}

/**
 * The user screen on the resource builder: users in the caller's data scope listed (the
 * user list's own statement: dept, post and role names), one by one, added or updated (the
 * family's own save), removed with their roles and sessions.
 */
export const userRoutes = defineResource({
  code: 'user',
  table: 'app_user',
  path: '/api/blade-user',
  label: { zh: '用户', en: 'user' },
  source: listSource({
    call: 'page',
    summary: 'Users in the caller’s data scope, paged (account, realName, deptId and below, create time)',
    query: UserPageQuerySchema,
    answer: UserSchema,
    list: userList,
    alias: 'u',
    values: userListValues,
    present: presentUser,
  }),
  scope: { resource: 'user', columns: USER_COLUMNS, alias: 'u' },
  save: ownSave({
    summary: 'Adds (no id; password as typed) or updates a user; roleId, deptId, postId as comma-separated ids',
    update: 'Updates a user (id required)',
    body: UserSubmitSchema,
    data: SavedUserSchema,
    save: saveUser,
  }),
  beforeRemove: async (_trx, _tenantId, ids, request) => {
    if (ids.includes(tenantOf(request).userId ?? '')) throw badRequest('system.cannotRemoveSelf');
  },
  // Their roles go with them, and they are signed out everywhere.
  onRemove: async (trx, tenantId, ids, request) => {
    const { auth, permissions } = request.server;
    await removeUserRoles(trx, tenantId, ids);
    const sids: string[] = [];
    for (const id of ids) sids.push(...(await auth.revokeUserSessions(trx, tenantId, id, 'user_removed')));
    return async () => {
      await auth.revocations.announce(sids);
      await permissions.invalidateTenant(tenantId);
    };
  },
});
