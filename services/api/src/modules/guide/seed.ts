import { type Kysely, sql } from 'kysely';
import type { DB } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import { GUIDE_DICT, GUIDE_DICT_NAME, GUIDE_DICT_NAME_EN, GUIDELINES } from './guidelines';

/**
 * Gives a tenant the Guidelines as the sealed business dictionary `guide` (a tree: the
 * dictionary, its domains, sub-domains and goals; each entry's key is its code, its value the
 * Chinese title, its remark the English one), unless the tenant ever had that code.
 */
export async function seedGuide(trx: Kysely<DB>, tenantId: string): Promise<void> {
  const { rows } = await sql`select 1 from dict_biz
    where tenant_id = ${tenantId} and parent_id = 0 and code = ${GUIDE_DICT} limit 1`.execute(trx);
  if (rows.length) return;
  const values: Record<string, unknown>[] = [];
  const row = (parentId: string, key: string, value: string, en: string, sort: number) => {
    const id = nextId();
    values.push({
      tenant_id: tenantId,
      id,
      parent_id: parentId,
      code: GUIDE_DICT,
      dict_key: key,
      dict_value: value,
      remark: en,
      sort,
      is_sealed: 1,
    });
    return id;
  };
  // After the spec's lookups (sort 1…), so the business-dictionary screen lists it last.
  const root = row('0', '-1', GUIDE_DICT_NAME, GUIDE_DICT_NAME_EN, 100);
  for (const [i, d] of GUIDELINES.entries()) {
    const domain = row(root, d.code, d.name, d.nameEn, i + 1);
    for (const [j, s] of d.subDomains.entries()) {
      const subDomain = row(domain, s.code, s.name, s.nameEn, j + 1);
      for (const [k, g] of s.goals.entries()) row(subDomain, g.code, g.name, g.nameEn, k + 1);
    }
  }
  await trx
    .insertInto('dict_biz' as 'post')
    .values(values as never)
    .execute();
}
