import type { Kysely } from 'kysely';
import type { DB } from '@sprout/core/db';
import { live } from '../../http/query';

/** The code of the live menu `menuId` (scopes hang under menus), if there is one. */
export async function liveMenuCode(db: Kysely<DB>, menuId: string) {
  const m = await db.selectFrom('menu').select(['code']).where('id', '=', menuId).where(live()).executeTakeFirst();
  return m?.code;
}
