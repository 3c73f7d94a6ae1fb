import { sql } from 'kysely';
import type { Database } from './index';

/** PGlite is one process: a lock is this process's, per database. */
const localLocks = new WeakMap<Database, Set<number>>();

/**
 * Runs `fn` while this process holds the session advisory lock `key` (one replica at a time
 * across the cluster); null without running it when another holds it. The lock lives on a
 * pinned connection of `database.session` — direct to PostgreSQL when the pool goes through a
 * transaction-mode pooler — taken and released on that same server session; `fn` does its
 * work through the ordinary pool. A lost connection releases the lock on the server.
 */
export async function withSessionLock<T>(database: Database, key: number, fn: () => Promise<T>): Promise<T | null> {
  if (database.dialect === 'pglite') {
    const held = localLocks.get(database) ?? new Set<number>();
    localLocks.set(database, held);
    if (held.has(key)) return null;
    held.add(key);
    try {
      return await fn();
    } finally {
      held.delete(key);
    }
  }
  return database.session.connection().execute(async (conn) => {
    const got = await sql<{ ok: boolean }>`select pg_try_advisory_lock(${key}) as ok`.execute(conn);
    if (!got.rows[0]?.ok) return null;
    try {
      return await fn();
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(conn).catch(() => undefined);
    }
  });
}
