import type { Kysely } from 'kysely';
import { containsPattern, type DB } from '@sprout/core/db';
import type { Post } from '@sprout/core/db/tables-permissions';
import { live, saveRow } from '../../http/query';

/** The filters of the post list. */
export interface PostFilter {
  postCode?: string;
  postName?: string;
  category?: number;
}

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

/** The live post holding `code`, if any. */
export const postWithCode = (db: Kysely<DB>, tenantId: string, code: string) =>
  db
    .selectFrom('post')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(live())
    .where('post_code', '=', code)
    .executeTakeFirst();

export type PostValues = Pick<Post, 'category' | 'post_code' | 'post_name' | 'sort' | 'remark' | 'update_user'> & {
  update_time: Date;
};

/** Adds (no id) or updates a post; answers it as stored (an unknown id → 404). */
export const savePost = (db: Kysely<DB>, tenantId: string, id: string | undefined, values: PostValues) =>
  saveRow(db, 'post', tenantId, id, values, { create_user: values.update_user });

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
