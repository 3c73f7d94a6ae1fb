import type { Kysely } from 'kysely';
import { z } from 'zod';
import { containsPattern, type DB } from '@sprout/core/db';
import { live } from '../../http/query';

/** The filters of the post list, as the API takes them. */
export const PostFilterSchema = z.object({
  postCode: z.string().trim().max(64).optional(),
  postName: z.string().trim().max(64).optional(),
  category: z.coerce.number().int().optional(),
});
type PostFilter = z.output<typeof PostFilterSchema>;

/** The tenant's live posts on `db` (a transaction, or the root handle to compile a read). */
export const livePosts = (db: Kysely<DB>, tenantId: string) =>
  db.selectFrom('post').selectAll().where('tenant_id', '=', tenantId).where(live());

/** The posts of a filter, in display order. */
export function postList(db: Kysely<DB>, tenantId: string, f: PostFilter = {}) {
  let qb = livePosts(db, tenantId);
  if (f.postCode) qb = qb.where('post_code', 'like', containsPattern(f.postCode));
  if (f.postName) qb = qb.where('post_name', 'like', containsPattern(f.postName));
  if (f.category) qb = qb.where('category', '=', f.category);
  return qb.orderBy('sort').orderBy('id');
}

export const findPost = (db: Kysely<DB>, tenantId: string, id: string) =>
  livePosts(db, tenantId).where('id', '=', id).executeTakeFirst();

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
