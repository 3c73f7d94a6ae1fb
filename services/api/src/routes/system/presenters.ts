import type { Tenant, User } from '@sprout/core/db';
import { formatDateTime } from '@sprout/core/time';

/** What leaves the server for a tenant: camelCase, ids as strings, times formatted. */
export function presentTenant(t: Tenant, tz: string) {
  return {
    id: t.tenant_id,
    tenantId: t.tenant_id,
    tenantName: t.tenant_name,
    domain: t.domain,
    backgroundUrl: t.background_url,
    linkman: t.contact_person,
    contactNumber: t.contact_number,
    address: t.address,
    accountNumber: t.account_number,
    expireTime: formatDateTime(t.expire_time, tz),
    status: t.status,
    createTime: formatDateTime(t.create_time, tz),
  };
}

/** A user as lists show it; never the password hash. */
export function presentUser(
  u: Pick<
    User,
    | 'id'
    | 'tenant_id'
    | 'account'
    | 'name'
    | 'real_name'
    | 'email'
    | 'phone'
    | 'avatar'
    | 'sex'
    | 'dept_id'
    | 'post_id'
    | 'user_type'
    | 'status'
    | 'create_time'
    | 'update_time'
  >,
  tz: string,
) {
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
    deptId: u.dept_id === null ? null : String(u.dept_id),
    postId: u.post_id === null ? null : String(u.post_id),
    userType: u.user_type,
    status: u.status,
    createTime: formatDateTime(u.create_time, tz),
    updateTime: formatDateTime(u.update_time, tz),
  };
}
