import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import { DatabaseUnavailableError, type Lane } from './lane';

/**
 * Kysely dialect for PGlite. PGlite is one connection, so it is lent to one caller at a
 * time, in arrival order (a transaction never interleaves with another request), and every
 * wait and hold is bounded by the lane's bounds (each unbounded when 0):
 * - a caller waits at most `waitTimeoutMs`, then leaves the queue with DatabaseUnavailableError;
 * - a holder idle (no statement running) for more than `holdTimeoutMs` loses the connection:
 *   its transaction is rolled back, the next caller is served, and the old holder's later
 *   statements fail with DatabaseUnavailableError instead of running in someone else's turn;
 * - a caller inside an open transaction of this database is refused at once (Lane.check).
 */
export class PGliteDialect implements Dialect {
  /** The driver Kysely created (for `script`, which runs on the same lock). */
  driver: PGliteDriver | undefined;
  constructor(
    private readonly pg: PGlite,
    private readonly lane: Lane,
  ) {}
  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    this.driver = new PGliteDriver(this.pg, this.lane);
    return this.driver;
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}

interface Waiter {
  resolve(lease: PGliteLease): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout | undefined;
}

export class PGliteDriver implements Driver {
  private holder: PGliteLease | undefined;
  private readonly waiters: Waiter[] = [];
  private readonly watchdog: NodeJS.Timeout | undefined;

  constructor(
    private readonly pg: PGlite,
    private readonly lane: Lane,
  ) {
    const hold = lane.bounds.holdTimeoutMs;
    if (hold > 0) {
      this.watchdog = setInterval(() => this.reclaimIdle(), Math.max(10, Math.min(1000, hold / 4)));
      this.watchdog.unref();
    }
  }
  async init() {}

  acquireConnection(): Promise<PGliteLease> {
    try {
      this.lane.check();
    } catch (err) {
      return Promise.reject(err);
    }
    if (!this.holder) return Promise.resolve(this.lend());
    const waitMs = this.lane.bounds.waitTimeoutMs;
    return new Promise<PGliteLease>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer:
          waitMs > 0
            ? setTimeout(() => {
                const at = this.waiters.indexOf(waiter);
                if (at >= 0) this.waiters.splice(at, 1);
                this.lane.starved();
                reject(new DatabaseUnavailableError('wait'));
              }, waitMs)
            : undefined,
      };
      this.waiters.push(waiter);
    });
  }

  private lend(): PGliteLease {
    this.holder = new PGliteLease(this.pg);
    this.lane.progressed();
    return this.holder;
  }

  private handOn() {
    this.holder = undefined;
    this.lane.progressed();
    const next = this.waiters.shift();
    if (next) {
      clearTimeout(next.timer);
      next.resolve(this.lend());
    }
  }

  async beginTransaction(conn: DatabaseConnection) {
    await conn.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(conn: DatabaseConnection) {
    await conn.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(conn: DatabaseConnection) {
    await conn.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(conn: DatabaseConnection) {
    // A lease the watchdog took back is handed on by the watchdog, once its rollback ran.
    if (conn !== this.holder || this.holder.revoked) return;
    this.holder.revoked = true;
    this.handOn();
  }

  /** Takes the connection back from a holder idle past the bound: rollback, then the next caller. */
  private reclaimIdle() {
    const lease = this.holder;
    if (!lease || lease.running > 0 || Date.now() - lease.lastActiveAt <= this.lane.bounds.holdTimeoutMs) return;
    lease.revoked = true;
    // Ends whatever transaction the holder left open (outside one, PostgreSQL only warns).
    this.pg
      .exec('rollback')
      .catch(() => undefined)
      .finally(() => {
        if (this.holder === lease) this.handOn();
      });
  }

  async destroy() {
    clearInterval(this.watchdog);
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new DatabaseUnavailableError('wait'));
    }
  }
}

/** One turn on the PGlite connection; dead once released or taken back. */
export class PGliteLease implements DatabaseConnection {
  revoked = false;
  running = 0;
  lastActiveAt = Date.now();
  constructor(private readonly pg: PGlite) {}

  private async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.revoked) throw new DatabaseUnavailableError('revoked');
    this.running++;
    try {
      return await fn();
    } finally {
      this.running--;
      this.lastActiveAt = Date.now();
    }
  }

  /** A parameterless multi-statement script; every statement's rows. */
  exec(sql: string): Promise<unknown[][]> {
    return this.run(async () => (await this.pg.exec(sql)).map((r) => r.rows));
  }

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return this.run(async () => {
      if (compiled.parameters.length === 0 && compiled.sql.includes(';')) {
        // A parameterless multi-statement script (e.g. the tenant-transaction preamble).
        const results = await this.pg.exec(compiled.sql);
        return { rows: (results.at(-1)?.rows ?? []) as R[] };
      }
      const r = await this.pg.query<R>(compiled.sql, compiled.parameters as unknown[]);
      const mutating = /^\s*(insert|update|delete|merge)\b/i.test(compiled.sql) || /^\s*with\b/i.test(compiled.sql);
      return {
        rows: r.rows,
        numAffectedRows: mutating && r.affectedRows !== undefined ? BigInt(r.affectedRows) : undefined,
      };
    });
  }

  // biome-ignore lint/correctness/useYield: streaming is not supported on PGlite
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on PGlite');
  }
}
