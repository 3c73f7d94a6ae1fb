import type { Kysely } from 'kysely';
import { containsPattern, type DB } from '@sprout/core/db';
import { live, saveRow } from '../../http/query';

/** The filters of the top-menu list. */
export interface TopMenuFilter {
  code?: string;
  name?: string;
}

/** The live top menus (platform data every tenant reads), in display order. */
export function topMenuList(db: Kysely<DB>, f: TopMenuFilter = {}) {
  let qb = db.selectFrom('top_menu').selectAll().where(live());
  if (f.code) qb = qb.where('code', 'like', containsPattern(f.code));
  if (f.name) qb = qb.where('name', 'like', containsPattern(f.name));
  return qb.orderBy('sort').orderBy('id');
}

export const findTopMenu = (db: Kysely<DB>, id: string) =>
  db.selectFrom('top_menu').selectAll().where('id', '=', id).where(live()).executeTakeFirst();

/** The live top menu holding `code` in the tenant, if any. */
export const topMenuWithCode = (db: Kysely<DB>, tenantId: string, code: string) =>
  db
    .selectFrom('top_menu')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(live())
    .where('code', '=', code)
    .executeTakeFirst();

export interface TopMenuValues {
  code: string;
  name: string;
  name_en: string;
  source: string | null;
  sort: number;
  update_time: Date;
}

/** Adds (no id) or updates a top menu; answers it as stored (an unknown id → 404). */
export const saveTopMenu = (db: Kysely<DB>, tenantId: string, id: string | undefined, values: TopMenuValues) =>
  saveRow(db, 'top_menu', tenantId, id, values);

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
