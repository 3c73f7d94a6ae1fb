import { z } from 'zod';
import type { SignedIn } from '@sprout/core/auth/service';
import { formatDateTime } from '@sprout/core/time';

/** The BladeX token body (what Saber and the web app store); ids as strings. */
export const TokenSchema = z.object({
  access_token: z.string(),
  token_type: z.string(),
  refresh_token: z.string(),
  expires_in: z.number().int(),
  scope: z.string(),
  tenant_id: z.string(),
  user_id: z.string(),
  dept_id: z.string(),
  post_id: z.string(),
  role_id: z.string(),
  role_name: z.string(),
  account: z.string(),
  user_name: z.string(),
  nick_name: z.string(),
  real_name: z.string(),
  avatar: z.string(),
  oauth_id: z.string(),
  client_id: z.string(),
  license: z.string(),
  detail: z.object({ type: z.string() }),
});

export function presentToken(s: SignedIn): z.output<typeof TokenSchema> {
  return {
    access_token: s.accessToken,
    token_type: 'bearer',
    refresh_token: s.refreshToken,
    expires_in: s.expiresIn,
    scope: 'all',
    tenant_id: s.tenantId,
    user_id: s.userId,
    dept_id: s.deptId ?? '',
    post_id: s.postId ?? '',
    role_id: s.roleIds.join(','),
    role_name: s.roleAliases.join(','),
    account: s.account,
    user_name: s.account,
    nick_name: s.name ?? s.account,
    real_name: s.realName ?? '',
    avatar: s.avatar ?? '',
    oauth_id: s.oauthId ?? '',
    client_id: s.clientId,
    license: 'powered by sprout',
    detail: { type: 'web' },
  };
}

export interface OwnUserRow {
  id: string;
  tenant_id: string;
  account: string;
  name: string | null;
  real_name: string | null;
  email: string | null;
  phone: string | null;
  avatar: string | null;
  sex: number | null;
  dept_id: string | null;
  post_id: string | null;
  status: number;
  create_time: Date;
  update_time: Date;
  role_ids: string | null;
  role_names: string | null;
  role_aliases: string | null;
}

const text = z.string();
const textOrNull = z.string().nullable();

/** The signed-in user's own record (personal info page); never the password hash. Empty fields are null. */
export const OwnUserSchema = z.object({
  id: text,
  tenantId: text,
  account: text,
  name: textOrNull,
  realName: textOrNull,
  email: textOrNull,
  phone: textOrNull,
  avatar: textOrNull,
  sex: z.number().int().nullable(),
  deptId: text,
  postId: text,
  roleId: text,
  roleName: text,
  roleAlias: text,
  status: z.number().int(),
  createTime: textOrNull,
  updateTime: textOrNull,
});

export function presentOwnUser(u: OwnUserRow, tz: string): z.output<typeof OwnUserSchema> {
  return {
    id: String(u.id),
    tenantId: u.tenant_id,
    account: u.account,
    name: u.name,
    realName: u.real_name,
    email: u.email,
    phone: u.phone,
    avatar: u.avatar,
    sex: u.sex,
    deptId: u.dept_id === null ? '' : String(u.dept_id),
    postId: u.post_id === null ? '' : String(u.post_id),
    roleId: u.role_ids ?? '',
    roleName: u.role_names ?? '',
    roleAlias: u.role_aliases ?? '',
    status: u.status,
    createTime: formatDateTime(u.create_time, tz),
    updateTime: formatDateTime(u.update_time, tz),
  };
}

export interface SecurityLogRow {
  id: string;
  tenant_id: string;
  event: string;
  result: string;
  account: string | null;
  user_id: string | null;
  actor_id: string | null;
  client_id: string | null;
  grant_type: string | null;
  session_id: string | null;
  ip: string | null;
  user_agent: string | null;
  detail: string | null;
  create_time: Date;
}

/** One entry of the security log ('' for none). */
export const SecurityLogEntrySchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  event: z.string(),
  result: z.string(),
  account: z.string(),
  userId: z.string(),
  actorId: z.string(),
  clientId: z.string(),
  grantType: z.string(),
  sessionId: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  detail: z.string(),
  createTime: z.string().nullable(),
});

export function presentSecurityLog(r: SecurityLogRow, tz: string): z.output<typeof SecurityLogEntrySchema> {
  const id = (v: string | null) => (v === null ? '' : String(v));
  return {
    id: String(r.id),
    tenantId: r.tenant_id,
    event: r.event,
    result: r.result,
    account: r.account ?? '',
    userId: id(r.user_id),
    actorId: id(r.actor_id),
    clientId: r.client_id ?? '',
    grantType: r.grant_type ?? '',
    sessionId: id(r.session_id),
    ip: r.ip ?? '',
    userAgent: r.user_agent ?? '',
    detail: r.detail ?? '',
    createTime: formatDateTime(r.create_time, tz),
  };
}
