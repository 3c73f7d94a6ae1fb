import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/pg';
import type { AppError } from '../errors';
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

  it('a transaction whose session the server ends says the database is unreachable; one idle past the bound, busy', async () => {
    // The server goes away under an open transaction (a restart, a failover): retry shortly, it is not "busy".
    const restarted = await database.db
      .transaction()
      .execute(async (trx) => {
        const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]?.pid;
        const before = dropped.length;
        await sql`select pg_terminate_backend(${pid})`.execute(t.database.db);
        await expect.poll(() => dropped.length, { timeout: 5000 }).toBeGreaterThan(before);
        await sql`select 1`.execute(trx);
      })
      .catch((e: unknown) => e as AppError);
    expect(restarted).toMatchObject({ code: 'unavailable', messageKey: 'error.databaseUnreachable' });

    // A holder that sits idle in its transaction past the bound had its connection taken back: busy.
    const taken: Error[] = [];
    const bounded = await openDatabase({
      url: t.url,
      poolSize: 1,
      statementTimeoutMs: 300,
      onIdleError: (e) => taken.push(e),
    });
    try {
      const idle = await bounded.db
        .transaction()
        .execute(async (trx) => {
          await sql`select 1`.execute(trx);
          await expect.poll(() => taken.length, { timeout: 5000 }).toBeGreaterThan(0);
          await sql`select 1`.execute(trx);
        })
        .catch((e: unknown) => e as AppError);
      expect(idle).toMatchObject({ code: 'unavailable', messageKey: 'error.databaseBusy' });
      // Its slot is free again: the next caller is served.
      expect((await sql<{ n: number }>`select 1 as n`.execute(bounded.db)).rows).toEqual([{ n: 1 }]);
    } finally {
      await bounded.close();
    }
  });
});
