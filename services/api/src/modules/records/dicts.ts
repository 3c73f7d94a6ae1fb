import { type Kysely, sql } from 'kysely';
import type { DB } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';

/** A family's business dictionary (each tenant's, editable): code, names, entries `[key, 中文, English]`. */
export interface FamilyDict {
  code: string;
  name: string;
  en: string;
  entries: string[][];
}

/**
 * A tenant seeder giving a tenant the families' dictionaries it never had (a code it had, even
 * removed, is not given again); `sort` orders the dictionaries after the others.
 */
export function familyDictSeeder(dicts: readonly FamilyDict[], sort: number) {
  return async (trx: Kysely<DB>, tenantId: string): Promise<void> => {
    const { rows } = await sql<{ code: string }>`select distinct code from dict_biz
      where tenant_id = ${tenantId} and parent_id = 0`.execute(trx);
    const have = new Set(rows.map((r) => r.code));
    const values: Record<string, unknown>[] = [];
    for (const [i, d] of dicts.entries()) {
      if (have.has(d.code)) continue;
      const id = nextId();
      const row = { tenant_id: tenantId, code: d.code, is_sealed: 0 };
      values.push({ ...row, id, parent_id: '0', dict_key: '-1', dict_value: d.name, sort: sort + i, remark: d.en });
      for (const [k, [key, zh, en]] of d.entries.entries())
        values.push({ ...row, id: nextId(), parent_id: id, dict_key: key, dict_value: zh, sort: k + 1, remark: en });
    }
    if (values.length)
      await trx
        .insertInto('dict_biz' as 'post')
        .values(values as never)
        .execute();
  };
}
