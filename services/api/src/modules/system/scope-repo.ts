import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import { containsPattern, type DB } from '@sprout/core/db';
import { live } from '../../http/query';

/** The catalogue's scope tables: data scopes and API scopes. */
export type ScopeTable = 'scope_data' | 'scope_api';

/** Rows of one scope table (the tables share the columns read and filtered here). */
type ScopeQuery<T extends ScopeTable> = SelectQueryBuilder<DB, 'scope_api', Selectable<DB[T]>>;

/** The filters of a scope list. */
export interface ScopeFilter {
  menuId?: string;
  resourceCode?: string;
  scopeName?: string;
}

const liveScopes = <T extends ScopeTable>(db: Kysely<DB>, table: T) =>
  db
    .selectFrom(table as 'scope_api')
    .selectAll()
    .where(live()) as unknown as ScopeQuery<T>;

/** The live scopes of a filter (platform data every tenant reads), by id. */
export function scopeList<T extends ScopeTable>(db: Kysely<DB>, table: T, f: ScopeFilter): ScopeQuery<T> {
  let qb = liveScopes(db, table);
  if (f.menuId) qb = qb.where('menu_id', '=', f.menuId);
  if (f.resourceCode) qb = qb.where('resource_code', 'like', containsPattern(f.resourceCode));
  if (f.scopeName) qb = qb.where('scope_name', 'like', containsPattern(f.scopeName));
  return qb.orderBy('id');
}

export const findScope = <T extends ScopeTable>(db: Kysely<DB>, table: T, id: string) =>
  liveScopes(db, table).where('id', '=', id).executeTakeFirst();

/** The code of the live menu `menuId` (scopes hang under menus), if there is one. */
export async function liveMenuCode(db: Kysely<DB>, menuId: string) {
  const m = await db.selectFrom('menu').select(['code']).where('id', '=', menuId).where(live()).executeTakeFirst();
  return m?.code;
}
