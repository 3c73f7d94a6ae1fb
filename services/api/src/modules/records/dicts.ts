import type { Kysely } from 'kysely';
import type { DB } from '@sprout/core/db';
import { seedBizDicts } from '../dict';

/** A family's business dictionary (each tenant's, editable): code, names, entries `[key, 中文, English]`. */
export interface FamilyDict {
  code: string;
  name: string;
  en: string;
  entries: string[][];
}

/**
 * A tenant seeder giving a tenant the families' dictionaries it never had (a code it had, even
 * removed, is not given again: the dict context's `seedBizDicts`); `sort` orders the
 * dictionaries after the others.
 */
export function familyDictSeeder(dicts: readonly FamilyDict[], sort: number) {
  const seeds = dicts.map((d) => ({
    code: d.code,
    name: d.name,
    en: d.en,
    entries: d.entries.map(([key, value, remark]) => ({ key: key ?? '', value: value ?? '', remark })),
  }));
  return (trx: Kysely<DB>, tenantId: string) => seedBizDicts(trx, tenantId, seeds, { sealed: false, sort });
}
