import { type Kysely, sql } from 'kysely';
import type { DB } from '@sprout/core/db';
import { live } from '../../http/query';

/** The menus set under the live top menu `topMenuId`. */
export const topMenuMenuIds = (db: Kysely<DB>, topMenuId: string) =>
  sql<{ menu_id: string }>`select s.menu_id::text from top_menu_setting s
    join top_menu t on t.id = s.top_menu_id and ${live('t')}
    where s.top_menu_id = ${topMenuId}`.compile(db);

/** A live top menu with the menus set under it and whether any of `roleIds` (of the tenant) is granted it. */
export interface GrantedTopMenuRow {
  id: string;
  code: string;
  name: string;
  name_en: string;
  source: string | null;
  sort: number;
  menus: string[] | null;
  granted: boolean;
}

/** The live top menus in display order, each with its menus and whether the roles of `roleIds` are granted it. */
export const grantedTopMenus = (db: Kysely<DB>, tenantId: string, roleIds: string[]) =>
  sql<GrantedTopMenuRow>`select t.id::text, t.code, t.name, t.name_en, t.source, t.sort,
      (select array_agg(s.menu_id::text) from top_menu_setting s where s.top_menu_id = t.id) as menus,
      exists (select 1 from role_top_menu rt where rt.tenant_id = ${tenantId} and rt.top_menu_id = t.id
        and rt.role_id in (${roleIds.length ? sql.join(roleIds) : sql`null`})) as granted
    from top_menu t where ${live('t')} order by t.sort, t.id`.compile(db);

/** The live top menus' names in display order. */
export const topMenuNames = (db: Kysely<DB>) =>
  sql<{ id: string; name: string; name_en: string }>`select id::text, name, name_en from top_menu
    where ${live()} order by sort, id`.compile(db);

/** What roles hold (the union over `roleIds`): menu, data scope, API scope and top menu ids. */
export const roleTreeKeys = (db: Kysely<DB>, tenantId: string, roleIds: string[]) =>
  sql<{ menu: string[] | null; data: string[] | null; api: string[] | null; top: string[] | null }>`select
      (select array_agg(distinct rm.menu_id::text) from role_menu rm join menu m on m.id = rm.menu_id and ${live('m')}
        where rm.tenant_id = ${tenantId} and rm.role_id in (${sql.join(roleIds)})) as menu,
      (select array_agg(distinct scope_id::text) from role_scope
        where tenant_id = ${tenantId} and scope_category = 1 and role_id in (${sql.join(roleIds)})) as data,
      (select array_agg(distinct scope_id::text) from role_scope
        where tenant_id = ${tenantId} and scope_category = 2 and role_id in (${sql.join(roleIds)})) as api,
      (select array_agg(distinct top_menu_id::text) from role_top_menu
        where tenant_id = ${tenantId} and role_id in (${sql.join(roleIds)})) as top`.compile(db);

/** The menu ids set under the top menus of `topMenuIds`. */
export const topTreeKeys = (db: Kysely<DB>, topMenuIds: string[]) =>
  sql<{ menu_id: string }>`select distinct menu_id::text from top_menu_setting
    where top_menu_id in (${sql.join(topMenuIds)})`.compile(db);

/** Every live menu and button's place, code and category (what an add or update checks). */
export const menuTree = (db: Kysely<DB>, tenantId: string) =>
  db
    .selectFrom('menu')
    .select(['id', 'parent_id', 'code', 'category'])
    .where(live())
    .where('tenant_id', '=', tenantId)
    .execute();

/** Removed menus take their data and API scopes and their places under top menus with them. */
export async function removeMenuDependents(db: Kysely<DB>, tenantId: string, menuIds: string[]) {
  for (const table of ['scope_api', 'scope_data'] as const)
    await db
      .updateTable(table)
      .set({ is_deleted: 1, update_time: new Date() })
      .where('tenant_id', '=', tenantId)
      .where('menu_id', 'in', menuIds)
      .execute();
  await db.deleteFrom('top_menu_setting').where('tenant_id', '=', tenantId).where('menu_id', 'in', menuIds).execute();
}
