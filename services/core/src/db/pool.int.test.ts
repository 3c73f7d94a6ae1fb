import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/pg';
import { type Database, openDatabase, readInTenant } from './index';

describe('pool resilience', () => {
  let t: TestDatabase;
  let database: Database;
  const dropped: Error[] = [];
  beforeAll(async () => {
    t = await createTestDatabase(1);
    database = await openDatabase({ url: t.url, poolSize: 3, onIdleError: (e) => dropped.push(e) });
  });
  afterAll(async () => {
    await database?.close();
    await t?.drop();
  });

  it('survives the server dropping idle connections and answers the next request', async () => {
    await Promise.all([1, 2, 3].map(() => sql`select pg_sleep(0.05)`.execute(database.db)));
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${t.name} and pid <> pg_backend_pid()`.execute(
      t.database.db,
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(dropped.length).toBeGreaterThan(0);
    const rows = await readInTenant<{ n: number }>(
      database,
      { tenantId: '100001' },
      sql<{ n: number }>`select 1 as n`.compile(database.db),
    );
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('a failing one-round-trip read leaves no transaction open on the pooled connection', async () => {
    const bad = sql`select 1/0`.compile(database.db);
    await expect(readInTenant(database, { tenantId: '100001' }, bad)).rejects.toThrow(/division by zero/);
    // Every pooled connection is idle, outside any transaction, back as the owner.
    for (let i = 0; i < 3; i++) {
      const r = await sql<{
        u: string;
        tenant: string;
      }>`select current_user as u, coalesce(current_setting('app.tenant_id', true), '') as tenant`.execute(database.db);
      expect(r.rows[0]).toEqual({ u: 'postgres', tenant: '' });
    }
  });
});
