import { AsyncLocalStorage } from 'node:async_hooks';
import { AppError } from '../errors';

/**
 * A statement was sent on the root database handle (or through inSystem, readInTenant, a
 * second inTenant …) from code running inside an open transaction of the same database.
 * On PGlite it would wait for the one connection that transaction holds (a deadlock); on
 * PostgreSQL it would run on another connection, outside the transaction and outside the
 * tenant's row-level security. A programming error: thrown at once, never waited on.
 */
export class StatementOutsideTransactionError extends Error {
  constructor() {
    super(
      "statement outside the request's transaction: use the trx you were given " +
        '(a statement on the root database handle while a transaction of the same async context is open)',
    );
    this.name = 'StatementOutsideTransactionError';
  }
}

/**
 * The database could not serve in time: no connection within the wait bound, a statement
 * cancelled by the statement bound, or a connection taken back from a holder that stayed
 * idle past the bound. Answered 503 (`unavailable`, "the database is busy").
 */
export class DatabaseUnavailableError extends AppError {
  constructor(readonly reason: 'wait' | 'revoked') {
    super('unavailable', 'error.databaseBusy');
    this.message = reason === 'wait' ? 'no database connection within the wait bound' : 'connection taken back';
    this.name = 'DatabaseUnavailableError';
  }
}

interface OpenTransaction {
  lane: Lane;
  open: boolean;
}

/** The open transaction of the current async context, if any. */
const openTransactions = new AsyncLocalStorage<OpenTransaction>();

/**
 * Runs `fn` as code outside any open transaction: for a deliberate statement on another
 * connection while one is open (PostgreSQL only — a test watching other transactions'
 * commits). On PGlite it would wait for the open transaction to end.
 */
export function outsideTransaction<T>(fn: () => T): T {
  return openTransactions.run(undefined as unknown as OpenTransaction, fn);
}

/** How long a database waits and holds, and what its health probe looks at. */
export interface LaneBounds {
  /** Longest wait for a connection before DatabaseUnavailableError('wait'); 0: unbounded. */
  waitTimeoutMs: number;
  /** Longest a statement may run, and a transaction may sit idle holding its connection; 0: unbounded. */
  holdTimeoutMs: number;
}

/**
 * One database's access bookkeeping: the guard against statements outside the open
 * transaction, and progress tracking for the liveness probe. The guard is one
 * AsyncLocalStorage read per connection taken and a `run` per transaction; but on Node 20
 * an AsyncLocalStorage in use hooks every promise of the process (bench `guard`), so it is
 * armed outside production only (OpenOptions.guard). Progress is two field writes per
 * connection taken or given back.
 */
export class Lane {
  private lastProgressAt = Date.now();
  private starvedSince = 0;

  constructor(
    readonly bounds: LaneBounds,
    /** Whether the statement-outside-transaction guard is armed (see OpenOptions.guard). */
    readonly guarded = true,
  ) {}

  /** Throws StatementOutsideTransactionError when this async context has a transaction of this database open. */
  check(): void {
    if (!this.guarded) return;
    const t = openTransactions.getStore();
    if (t?.open && t.lane === this) throw new StatementOutsideTransactionError();
  }

  /** Runs `fn` (the body of a transaction on this database) with the guard armed. */
  async guard<T>(fn: () => Promise<T>): Promise<T> {
    if (!this.guarded) return fn();
    const t: OpenTransaction = { lane: this, open: true };
    try {
      return await openTransactions.run(t, fn);
    } finally {
      // Work the body started and left running (timers, un-awaited promises) may use the database after this.
      t.open = false;
    }
  }

  /** A connection was taken or given back. */
  progressed(): void {
    this.lastProgressAt = Date.now();
    this.starvedSince = 0;
  }

  /** A caller gave up waiting while every connection was held. */
  starved(): void {
    if (!this.starvedSince) this.starvedSince = Date.now();
  }

  /**
   * How long callers have been turned away with no connection taken or given back since:
   * 0 while the database makes progress (even when overloaded) or nobody is waiting.
   */
  stalledMs(now = Date.now()): number {
    return this.starvedSince ? now - this.lastProgressAt : 0;
  }

  /**
   * Past every bound that frees a connection (a waiter gives up after waitTimeoutMs, an idle
   * holder loses its connection after holdTimeoutMs): the process can no longer serve.
   */
  get stallLimitMs(): number {
    const { waitTimeoutMs, holdTimeoutMs } = this.bounds;
    // Unbounded waits or holds: a stall may be legitimate, so it is never called one.
    return waitTimeoutMs && holdTimeoutMs ? waitTimeoutMs + holdTimeoutMs : Number.POSITIVE_INFINITY;
  }
}
