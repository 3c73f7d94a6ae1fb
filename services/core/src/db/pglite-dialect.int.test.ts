import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Database,
  DatabaseUnavailableError,
  inSystem,
  openDatabase,
  StatementOutsideTransactionError,
} from './index';

/** PGlite's one connection: lent in arrival order, every wait and hold bounded. */
describe('PGlite connection lending', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://', waitTimeoutMs: 100, statementTimeoutMs: 400 });
  });
  afterAll(async () => {
    await database?.close();
  });

  const one = (n: number) => sql<{ n: number }>`select ${n}::int as n`.execute(database.db).then((r) => r.rows[0]?.n);

  /** Holds the connection until the returned function is called. */
  async function hold() {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let taken!: () => void;
    const isTaken = new Promise<void>((r) => {
      taken = r;
    });
    const done = database.db.connection().execute(async (conn) => {
      await sql`select 1`.execute(conn);
      taken();
      // Busy, so the watchdog leaves it alone: a statement after each turn of the event loop.
      let open = true;
      gate.then(() => {
        open = false;
      });
      while (open) {
        await sql`select 1`.execute(conn);
        await new Promise<void>((r) => setImmediate(r));
      }
    });
    await isTaken;
    return async () => {
      release();
      await done;
    };
  }

  it('a caller that waits past the bound leaves the queue; the callers behind it are served in order', async () => {
    const release = await hold();
    const gaveUp = one(1);
    await expect(gaveUp).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await expect(gaveUp).rejects.toMatchObject({ status: 503, code: 'unavailable', messageKey: 'error.databaseBusy' });
    const order: number[] = [];
    const queued = [2, 3, 4].map((n) =>
      one(n).then((v) => {
        order.push(v ?? -1);
      }),
    );
    await release();
    await Promise.all(queued);
    expect(order).toEqual([2, 3, 4]);
  });

  it('a holder idle past the bound loses its transaction and its turn; the next caller is served', async () => {
    let resume!: () => void;
    const resumed = new Promise<void>((r) => {
      resume = r;
    });
    const stuck = database.db.connection().execute(async (conn) => {
      await sql`create temp table if not exists t_idle (n int)`.execute(conn);
      await sql`begin`.execute(conn);
      await sql`insert into t_idle values (1)`.execute(conn);
      await resumed;
      return sql`select count(*)::int as n from t_idle`.execute(conn);
    });
    // Waiters give up (100 ms) until the holder is reclaimed (400 ms idle); then one gets through.
    let served: number | undefined;
    while (served === undefined) served = await one(5).catch(() => undefined);
    expect(served).toBe(5);
    const rows = await sql<{ n: number }>`select count(*)::int as n from t_idle`.execute(database.db);
    expect(rows.rows).toEqual([{ n: 0 }]);
    resume();
    await expect(stuck).rejects.toBeInstanceOf(DatabaseUnavailableError);
  });

  it('refuses the root handle inside a transaction at once instead of waiting for itself', async () => {
    const attempt = inSystem(database, () => one(6));
    await expect(attempt).rejects.toBeInstanceOf(StatementOutsideTransactionError);
    expect(await one(7)).toBe(7);
  });
});
