import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/pg';
import { inlineParameters } from './inline';
import { type Database, openDatabase } from './index';

const HOSTILE = [
  "O'Brien",
  "'; drop table tenant; --",
  'back\\slash',
  "\\'",
  '$1 $$ $tag$',
  '"quoted" {braces}',
  '中文，全角',
  '',
  'line\nbreak\ttab',
];

/** Inlined literals must mean exactly what the same values mean as bound parameters. */
describe('inlined parameters equal bound parameters', () => {
  let pgTest: TestDatabase;
  let lite: Database;
  beforeAll(async () => {
    pgTest = await createTestDatabase(2);
    lite = await openDatabase({ dataDir: 'memory://' });
  });
  afterAll(async () => {
    await pgTest?.drop();
    await lite?.close();
  });

  it('for hostile strings, arrays, numbers, dates and json on both engines', async () => {
    for (const database of [pgTest.database, lite]) {
      for (const value of HOSTILE) {
        const q = sql<{
          v: string;
          a: string[];
          j: unknown;
        }>`select ${value}::text as v, ${[value, 'x']}::text[] as a, ${JSON.stringify({ k: value })}::jsonb as j`.compile(
          database.db,
        );
        const bound = (await database.db.executeQuery(q)).rows[0];
        const inlined = (
          await sql.raw<{ v: string; a: string[]; j: unknown }>(inlineParameters(q)).execute(database.db)
        ).rows[0];
        expect(inlined, value).toEqual(bound);
        expect(inlined?.v).toBe(value);
      }
      const d = new Date('2026-11-21T10:11:12.345Z');
      const q = sql<{
        d: Date;
        n: string;
        b: boolean;
      }>`select ${d}::timestamptz as d, ${9007199254740993n}::bigint as n, ${true} as b`.compile(database.db);
      const row = (await sql.raw<{ d: Date; n: string; b: boolean }>(inlineParameters(q)).execute(database.db)).rows[0];
      expect(row).toEqual({ d, n: '9007199254740993', b: true });
    }
  });
});
