import { type CompiledQuery, type Kysely, sql } from 'kysely';
import type { DB } from '../db';
import type { AuthErrorCode } from './errors';

/** A tenant with (maybe) one of its users and their roles: everything a sign-in decides on. */
export interface SubjectRow {
  tenant_id: string;
  tenant_status: number;
  tenant_deleted: number;
  tenant_expire_time: Date | null;
  account_number: number;
  active_users: string | null;
  user_id: string | null;
  account: string | null;
  password_hash: string | null;
  name: string | null;
  real_name: string | null;
  avatar: string | null;
  dept_id: string | null;
  post_id: string | null;
  user_status: number | null;
  role_ids: string | null;
  role_aliases: string | null;
  role_names: string | null;
}

export const USER_ACTIVE = 1;
export const USER_DISABLED = 0;
export const USER_PENDING = 2;
export const USER_REJECTED = 3;

/**
 * One statement: the tenant row, the user (by account or id; absent → nulls), the user's
 * roles as comma-joined ids / aliases / names (BladeX style), and, when the tenant has an
 * account quota, its number of active users.
 */
export function subjectQuery(
  db: Kysely<DB>,
  tenantId: string,
  by: { account: string } | { userId: string },
): CompiledQuery<SubjectRow> {
  const match = 'account' in by ? sql`u.account = ${by.account}` : sql`u.id = ${by.userId}`;
  return sql<SubjectRow>`
    select t.tenant_id, t.status as tenant_status, t.is_deleted as tenant_deleted,
      t.expire_time as tenant_expire_time, t.account_number,
      case when t.account_number >= 0 then (
        select count(*) from app_user c where c.tenant_id = t.tenant_id and c.is_deleted = 0 and c.status = 1
      ) end as active_users,
      u.id as user_id, u.account, u.password_hash, u.name, u.real_name, u.avatar, u.dept_id, u.post_id,
      u.status as user_status, r.role_ids, r.role_aliases, r.role_names
    from tenant t
    left join app_user u on u.tenant_id = t.tenant_id and u.is_deleted = 0 and ${match}
    left join lateral (
      select string_agg(ro.id::text, ',' order by ro.sort, ro.id) as role_ids,
        string_agg(ro.role_alias, ',' order by ro.sort, ro.id) as role_aliases,
        string_agg(ro.role_name, ',' order by ro.sort, ro.id) as role_names
      from user_role ur join role ro on ro.tenant_id = ur.tenant_id and ro.id = ur.role_id and ro.is_deleted = 0
      where ur.tenant_id = u.tenant_id and ur.user_id = u.id
    ) r on true
    where t.tenant_id = ${tenantId}`.compile(db);
}

/** Why the tenant refuses sign-ins now, if it does. */
export function tenantProblem(s: SubjectRow | undefined, now = new Date()): AuthErrorCode | null {
  if (!s) return 'tenant_not_found';
  if (s.tenant_deleted !== 0) return 'tenant_not_found';
  if (s.tenant_status !== 1) return 'tenant_disabled';
  if (s.tenant_expire_time && new Date(s.tenant_expire_time).getTime() <= now.getTime()) return 'tenant_expired';
  return null;
}

/** Why this (password-verified) user may not sign in, if they may not. */
export function userProblem(s: SubjectRow): AuthErrorCode | null {
  switch (s.user_status) {
    case USER_ACTIVE:
      break;
    case USER_PENDING:
      return 'user_pending';
    case USER_REJECTED:
      return 'user_rejected';
    default:
      return 'user_disabled';
  }
  if (s.account_number >= 0 && Number(s.active_users ?? 0) > s.account_number) return 'tenant_quota';
  return null;
}

export const splitList = (v: string | null) => (v ? v.split(',') : []);
