import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { USER_PENDING } from '@sprout/core/auth/subject';
import type { DB } from '@sprout/core/db';
import { live } from '../../http/query';
import { userListQuery } from './user-list';

/** The live users of `ids` within `scope` (a condition on `u`): ids and accounts. */
export const usersAmong = (db: Kysely<DB>, tenantId: string, ids: string[], scope: Expression<SqlBool>) =>
  db
    .selectFrom('app_user as u')
    .select(['u.id', 'u.account'])
    .where('u.tenant_id', '=', tenantId)
    .where(live('u'))
    .where('u.id', 'in', ids)
    .where(scope)
    .execute();

/** A `yyyy-MM-dd` text as a date column's value. */
export const asDate = (text: string) => sql<Date>`${text}::date`;

/** Registrations awaiting approval, as the user list reads them. */
export const pendingUsers = (db: Kysely<DB>, tenantId: string, tz: string) =>
  userListQuery(db, tenantId, {}, tz).where('u.status', '=', USER_PENDING);

/** Who created a user (what their scope may depend on). */
export const userCreator = (db: Kysely<DB>, tenantId: string, id: string) =>
  db
    .selectFrom('app_user')
    .select(['create_user'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

/** How many users the tenant may have active (−1: no limit), if it is there. */
export const accountQuota = (db: Kysely<DB>, tenantId: string) =>
  db.selectFrom('tenant').select('account_number').where('tenant_id', '=', tenantId).executeTakeFirst();

/** How many live users of the tenant are active. */
export async function activeUsers(db: Kysely<DB>, tenantId: string) {
  const active = await db
    .selectFrom('app_user')
    .select(sql<string>`count(*)`.as('n'))
    .where('tenant_id', '=', tenantId)
    .where(live())
    .where('status', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(active.n);
}

/** The roles of the users of `userIds`: `roleIds` each, nothing else. */
export async function setUserRoles(db: Kysely<DB>, tenantId: string, userIds: string[], roleIds: string[]) {
  await removeUserRoles(db, tenantId, userIds);
  const rows = userIds.flatMap((user_id) => roleIds.map((role_id) => ({ tenant_id: tenantId, user_id, role_id })));
  if (rows.length) await db.insertInto('user_role').values(rows).execute();
}

export const removeUserRoles = (db: Kysely<DB>, tenantId: string, userIds: string[]) =>
  db.deleteFrom('user_role').where('tenant_id', '=', tenantId).where('user_id', 'in', userIds).execute();

/** Sets columns of one user, stamped with who changed it and when. */
export const updateUser = (
  db: Kysely<DB>,
  tenantId: string,
  id: string,
  by: string | null,
  set: { password_hash: string } | { user_type: number; user_ext: string | null },
) =>
  db
    .updateTable('app_user')
    .set({ ...set, update_user: by, update_time: new Date() })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();

/** A user's platform type and extension, within `scope`. */
export const platformOf = (db: Kysely<DB>, tenantId: string, id: string, scope: Expression<SqlBool>) =>
  db
    .selectFrom('app_user as u')
    .select(['u.id', 'u.account', 'u.real_name', 'u.user_type', 'u.user_ext'])
    .where('u.tenant_id', '=', tenantId)
    .where(live('u'))
    .where('u.id', '=', id)
    .where(scope);

/** The first live user (by id) with `phone`, within `scope`. */
export const userWithPhone = (db: Kysely<DB>, tenantId: string, phone: string, scope: Expression<SqlBool>) =>
  db
    .selectFrom('app_user as u')
    .select(['u.id', 'u.account', 'u.name', 'u.real_name', 'u.avatar', 'u.phone', 'u.dept_id', 'u.status'])
    .where('u.tenant_id', '=', tenantId)
    .where(live('u'))
    .where('u.phone', '=', phone)
    .where(scope)
    .orderBy('u.id')
    .limit(1);
