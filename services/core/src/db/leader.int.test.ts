import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/pg';
import { type Database, openDatabase, withSessionLock } from './index';

/**
 * One replica at a time (housekeeping, log retention): the lock is held on one pinned session
 * connection of `Database.session` — the direct one when DATABASE_SESSION_URL is set — and
 * released on that same connection, so it never stays behind on a pooled one.
 */
describe('withSessionLock (PostgreSQL)', () => {
  let t: TestDatabase;
  let other: Database;
  const KEY = 4242999;
  const held = async () =>
    Number(
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = ${KEY} and granted`.execute(
          t.database.db,
        )
      ).rows[0]?.n,
    );

  beforeAll(async () => {
    t = await createTestDatabase(2);
    // A second replica whose leader locks go through its own session pool (as behind PgBouncer).
    other = await openDatabase({ url: t.url, sessionUrl: t.url, poolSize: 2 });
  });
  afterAll(async () => {
    await other?.close();
    await t?.drop();
  });

  it('runs the work on one replica at a time and leaves no lock behind', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const first = withSessionLock(t.database, KEY, async () => {
      await gate;
      return 'first';
    });
    await expect.poll(held).toBe(1);
    expect(await withSessionLock(other, KEY, async () => 'second')).toBeNull();
    release();
    expect(await first).toBe('first');
    expect(await held()).toBe(0);
    expect(await withSessionLock(other, KEY, async () => 'second')).toBe('second');
    expect(await held()).toBe(0);
  });

  it('a failing work still releases the lock', async () => {
    await expect(withSessionLock(other, KEY, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await held()).toBe(0);
    expect(other.session).not.toBe(other.db);
    expect(t.database.session).toBe(t.database.db);
  });
});
