import { type Kysely, sql } from 'kysely';
import type { DB } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';

/** A business dictionary a context gives every tenant: its code, names, entries in order. */
export interface BizDictSeed {
  code: string;
  name: string;
  /** The English name, kept in the dictionary's remark. */
  en: string;
  /** Entries: key, value and (the English label) remark. */
  entries: ReadonlyArray<{ key: string; value: string; remark?: string | null }>;
}

/**
 * Gives a tenant the business dictionaries it never had: a code it had, even removed, is not
 * given again (the kindergarten's own edits win). `sealed` ones hold codes records store;
 * `sort` places the first dictionary among the tenant's (the next ones follow it).
 */
export async function seedBizDicts(
  trx: Kysely<DB>,
  tenantId: string,
  dicts: readonly BizDictSeed[],
  opts: { sealed: boolean; sort: number },
): Promise<void> {
  const { rows } = await sql<{ code: string }>`select distinct code from dict_biz
    where tenant_id = ${tenantId} and parent_id = 0`.execute(trx);
  const have = new Set(rows.map((r) => r.code));
  const values: Record<string, unknown>[] = [];
  for (const [i, d] of dicts.entries()) {
    if (have.has(d.code)) continue;
    const id = nextId();
    const row = { tenant_id: tenantId, code: d.code, is_sealed: opts.sealed ? 1 : 0 };
    values.push({ ...row, id, parent_id: '0', dict_key: '-1', dict_value: d.name, sort: opts.sort + i, remark: d.en });
    for (const [k, e] of d.entries.entries())
      values.push({
        ...row,
        id: nextId(),
        parent_id: id,
        dict_key: e.key,
        dict_value: e.value,
        sort: k + 1,
        remark: e.remark ?? null,
      });
  }
  if (values.length)
    await trx
      .insertInto('dict_biz' as 'post')
      .values(values as never)
      .execute();
}
