import type { Kysely } from 'kysely';
import type { DB } from '@sprout/core/db';
import { live } from '../../http/query';

/** The names of the posts of `ids` that live users hold. */
export async function heldPostNames(db: Kysely<DB>, tenantId: string, ids: string[]) {
  const rows = await db
    .selectFrom('app_user as u')
    .innerJoin('post as p', (j) => j.onRef('p.tenant_id', '=', 'u.tenant_id').onRef('p.id', '=', 'u.post_id'))
    .select('p.post_name')
    .distinct()
    .where('u.tenant_id', '=', tenantId)
    .where(live('u'))
    .where('u.post_id', 'in', ids)
    .execute();
  return rows.map((h) => h.post_name);
}
