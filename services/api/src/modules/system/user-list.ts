import { type InferResult, type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { containsPattern, type DB } from '@sprout/core/db';
import { PagedList, PageQuerySchema } from '@sprout/core/http/paging';
import { formatDateTime, parseDateTime } from '@sprout/core/time';
import { int, intOrNull, orEmpty, text, time } from '../../http/answer';
import { live, scopeColumns } from '../../http/query';

/** Data-scope fields of a user row → columns. */
export const USER_COLUMNS = scopeColumns('u', { deptId: 'dept_id' });

export const UserPageQuerySchema = PageQuerySchema.extend({
  account: z.string().trim().max(64).optional(),
  realName: z.string().trim().max(64).optional(),
  deptId: z
    .string()
    .regex(/^\d{1,19}$/)
    .optional(),
});
export type UserPageQuery = z.output<typeof UserPageQuerySchema>;

/** A user as lists and details show it (the answer is written from this schema). */
export const UserSchema = z.object({
  id: text,
  tenantId: text,
  account: text,
  name: text,
  realName: text,
  email: text,
  phone: text,
  avatar: text,
  sex: intOrNull,
  birthday: text,
  deptId: text,
  deptName: text,
  postId: text,
  postName: text,
  roleId: text,
  roleName: text,
  userType: int,
  status: int,
  createUser: text,
  createTime: time,
  updateTime: time,
});

export function presentUser(u: UserListRow, tz: string): z.output<typeof UserSchema> {
  return {
    id: String(u.id),
    tenantId: u.tenant_id,
    account: u.account,
    name: u.name ?? '',
    realName: u.real_name ?? '',
    email: u.email ?? '',
    phone: u.phone ?? '',
    avatar: u.avatar ?? '',
    sex: u.sex,
    birthday: u.birthday ?? '',
    deptId: orEmpty(u.dept_id),
    deptName: u.dept_name ?? '',
    postId: orEmpty(u.post_id),
    postName: u.post_name ?? '',
    roleId: u.roles?.[0] ?? '',
    roleName: u.roles?.[1] ?? '',
    userType: u.user_type,
    status: u.status,
    createUser: orEmpty(u.create_user),
    createTime: formatDateTime(u.create_time, tz),
    updateTime: formatDateTime(u.update_time, tz),
  };
}

/**
 * The user list's filter values, worked out of a page query (userListValues): LIKE
 * patterns, the dept, the create-time bounds as instants. A type (not an interface) so it
 * fits PagedList's values.
 */
export type UserListValues = {
  tenantId: string;
  account?: string;
  realName?: string;
  deptId?: string;
  /** Present when the query bounds it; null when its text did not parse (no rows, as before). */
  createdAfter?: Date | null;
  createdBefore?: Date | null;
};

export function userListValues(
  tenantId: string,
  q: Omit<UserPageQuery, 'current' | 'size'>,
  tz: string,
): UserListValues {
  return {
    tenantId,
    account: q.account ? containsPattern(q.account) : undefined,
    realName: q.realName ? containsPattern(q.realName) : undefined,
    deptId: q.deptId || undefined,
    createdAfter: q.createTime_dategt ? (parseDateTime(q.createTime_dategt, tz) ?? null) : undefined,
    createdBefore: q.createTime_datelt ? (parseDateTime(q.createTime_datelt, tz) ?? null) : undefined,
  };
}

/**
 * The users of one tenant as a list query: filtered by tenant explicitly (so the planner
 * uses the tenant index), by the caller's data scope (added by the caller) and by
 * row-level security underneath; with dept, post and role names. Values are only handed
 * to Kysely, never read (the rule of PagedList, which compiles it once per shape).
 */
export function userListOf(db: Kysely<DB>, v: UserListValues) {
  let base = db.selectFrom('app_user as u').where('u.tenant_id', '=', v.tenantId).where(live('u'));
  if (v.account) base = base.where('u.account', 'like', v.account);
  if (v.realName) base = base.where('u.real_name', 'like', v.realName);
  // A dept filter covers the dept and every dept below it.
  if (v.deptId)
    base = base.where(
      sql<boolean>`u.dept_id in (select d.id from dept d where d.tenant_id = ${v.tenantId} and ${live('d')}
        and (d.id = ${v.deptId} or ${v.deptId}::bigint = any(d.ancestors)))`,
    );
  if (v.createdAfter !== undefined) base = base.where('u.create_time', '>=', v.createdAfter as Date);
  if (v.createdBefore !== undefined) base = base.where('u.create_time', '<=', v.createdBefore as Date);
  return base
    .select([
      'u.id',
      'u.tenant_id',
      'u.account',
      'u.name',
      'u.real_name',
      'u.email',
      'u.phone',
      'u.avatar',
      'u.sex',
      sql<string | null>`u.birthday::text`.as('birthday'),
      'u.dept_id',
      'u.post_id',
      'u.user_type',
      'u.status',
      'u.create_user',
      'u.create_time',
      'u.update_time',
      sql<string | null>`(select d.dept_name from dept d where d.tenant_id = u.tenant_id and d.id = u.dept_id)`.as(
        'dept_name',
      ),
      sql<string | null>`(select p.post_name from post p where p.tenant_id = u.tenant_id and p.id = u.post_id)`.as(
        'post_name',
      ),
      sql<[string | null, string | null] | null>`(select array[string_agg(r.id::text, ',' order by r.sort, r.id),
          string_agg(r.role_name, ',' order by r.sort, r.id)]
        from user_role ur join role r on r.tenant_id = ur.tenant_id and r.id = ur.role_id and ${live('r')}
        where ur.tenant_id = u.tenant_id and ur.user_id = u.id)`.as('roles'),
    ])
    .orderBy('u.create_time', 'desc')
    .orderBy('u.id', 'desc');
}

/** userListOf from a page query's filters, built now (detail, registrations, tests). */
export function userListQuery(
  db: Kysely<DB>,
  tenantId: string,
  q: Omit<UserPageQuery, 'current' | 'size'>,
  tz: string,
) {
  return userListOf(db, userListValues(tenantId, q, tz));
}

/** A user as the list reads them (never the password hash). */
export type UserListRow = InferResult<ReturnType<typeof userListOf>>[number];

/** The user list page: its statement compiled once per filter shape and data scope. */
export const userList = new PagedList(userListOf);
