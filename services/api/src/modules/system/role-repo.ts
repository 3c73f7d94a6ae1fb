import { type Kysely, sql } from 'kysely';
import type { DB } from '@sprout/core/db';
import { liveIds, refuseMissing } from '../../http/known';
import { live } from '../../http/query';

/** A role as read (ids as text). */
export interface RoleRow {
  id: string;
  parent_id: string;
  role_name: string;
  role_alias: string;
  sort: number;
}

/** The tenant's live roles in display order (sort, then id). */
export const roleRows = (db: Kysely<DB>, tenantId: string) =>
  sql<RoleRow>`select id::text, parent_id::text, role_name, role_alias, sort from role
    where tenant_id = ${tenantId} and ${live()} order by sort, id`.compile(db);

/** Every live role's place in the tree and alias (what an add or update checks). */
export const roleTree = (db: Kysely<DB>, tenantId: string) =>
  db
    .selectFrom('role')
    .select(['id', 'parent_id', 'role_alias'])
    .where('tenant_id', '=', tenantId)
    .where(live())
    .execute();

/** Removed roles take their grants and their users' assignments with them. */
export async function removeRoleGrants(db: Kysely<DB>, tenantId: string, roleIds: string[]) {
  for (const table of ['role_menu', 'role_scope', 'role_top_menu', 'user_role'] as const)
    await db.deleteFrom(table).where('tenant_id', '=', tenantId).where('role_id', 'in', roleIds).execute();
}

/** A 400 naming the ids of `roleIds` that are no live role of the tenant. */
export async function refuseUnknownRoles(db: Kysely<DB>, tenantId: string, roleIds: string[]) {
  refuseMissing(roleIds, await liveIds(db, 'role', roleIds, tenantId), 'system.unknownRoles');
}
