import { sql } from 'kysely';
import type { Database, TenantContext } from '@sprout/core/db';
import { readInTenant } from '@sprout/core/db';
import type { OwnUserRow } from './presenters';

/** The caller's user row with their roles (comma-joined), in one round trip. */
export async function loadOwnUser(database: Database, ctx: TenantContext): Promise<OwnUserRow | undefined> {
  if (!ctx.userId) return undefined;
  const rows = await readInTenant<OwnUserRow>(
    database,
    ctx,
    sql<OwnUserRow>`
      select u.id, u.tenant_id, u.account, u.name, u.real_name, u.email, u.phone, u.avatar, u.sex, u.dept_id,
        u.post_id, u.status, u.create_time, u.update_time, r.role_ids, r.role_names, r.role_aliases
      from app_user u
      left join lateral (
        select string_agg(ro.id::text, ',' order by ro.sort, ro.id) as role_ids,
          string_agg(ro.role_name, ',' order by ro.sort, ro.id) as role_names,
          string_agg(ro.role_alias, ',' order by ro.sort, ro.id) as role_aliases
        from user_role ur join role ro on ro.tenant_id = ur.tenant_id and ro.id = ur.role_id and ro.is_deleted = 0
        where ur.tenant_id = u.tenant_id and ur.user_id = u.id
      ) r on true
      where u.tenant_id = ${ctx.tenantId} and u.id = ${ctx.userId} and u.is_deleted = 0`.compile(database.db),
  );
  return rows[0];
}
