import type { Kysely } from 'kysely';
import type { DB } from '@sprout/core/db';
import { live } from '../../http/query';

/** The ids of `ids` naming live menus (category 1, not buttons). */
export async function liveMenuIds(db: Kysely<DB>, ids: string[]) {
  const rows = await db
    .selectFrom('menu')
    .select('id')
    .where(live())
    .where('category', '=', 1)
    .where('id', 'in', ids)
    .execute();
  return rows.map((m) => String(m.id));
}

/** The menus the top menus of `topMenuIds` show: `menuIds` each, nothing else. */
export async function setTopMenuMenus(db: Kysely<DB>, tenantId: string, topMenuIds: string[], menuIds: string[]) {
  await removeTopMenuSettings(db, tenantId, topMenuIds);
  const rows = topMenuIds.flatMap((top) =>
    menuIds.map((menu) => ({ tenant_id: tenantId, top_menu_id: top, menu_id: menu })),
  );
  if (rows.length) await db.insertInto('top_menu_setting').values(rows).execute();
}

/** Forgets the menus of removed top menus. */
export const removeTopMenuSettings = (db: Kysely<DB>, tenantId: string, topMenuIds: string[]) =>
  db.deleteFrom('top_menu_setting').where('tenant_id', '=', tenantId).where('top_menu_id', 'in', topMenuIds).execute();
