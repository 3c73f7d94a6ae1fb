import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { DatabaseUnavailableError, type Lane } from './lane';
import { DatabaseUnreachableError, isDatabaseUnreachable } from './unreachable';

/** pg-pool's error when no connection came within connectionTimeoutMillis. */
const POOL_TIMEOUT = 'timeout exceeded when trying to connect';

/**
 * The node-postgres pool as Kysely (and `script`) take connections from it, with the lane's
 * rules: a caller inside an open transaction of this database is refused at once; a wait
 * past connectionTimeoutMillis becomes DatabaseUnavailableError; a connection the server
 * ends while it is lent (idle_in_transaction_session_timeout, a restart) is given back to
 * the pool at once — its slot freed for the next caller, its error never left unhandled —
 * and its holder's later statements fail as the session ended: DatabaseUnreachableError when
 * the server went away (a restart, a failover, a cut), DatabaseUnavailableError when it took
 * the connection back (idle in a transaction past the bound).
 */
export class GuardedPool implements PostgresPool {
  private readonly leases = new WeakMap<pg.PoolClient, PgLease>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly lane: Lane,
    private readonly max: number,
    private readonly onLost: (err: Error) => void = () => {},
  ) {
    pool.on('connect', (client) => {
      client.on('error', (err) => this.lost(client, err));
    });
  }

  async connect(): Promise<PgLease> {
    this.lane.check();
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      if (!(err instanceof Error) || err.message !== POOL_TIMEOUT) throw err;
      // Every connection lent (not a server slow to accept a new one): callers are starving.
      if (this.pool.totalCount >= this.max && this.pool.idleCount === 0) this.lane.starved();
      throw new DatabaseUnavailableError('wait');
    }
    let lease = this.leases.get(client);
    if (!lease) {
      lease = new PgLease(client, this.lane);
      this.leases.set(client, lease);
    }
    lease.lent = true;
    this.lane.progressed();
    return lease;
  }

  /** A lent connection's server session ended: free its slot now (pg-pool handles idle ones). */
  private lost(client: pg.PoolClient, err: Error) {
    const lease = this.leases.get(client);
    if (!lease?.lent) return;
    lease.lent = false;
    lease.lost = isDatabaseUnreachable(err) ? 'unreachable' : 'revoked';
    client.release(err);
    this.lane.progressed();
    this.onLost(err);
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

/** A pooled client while lent; `release` once per loan; a lost one refuses its statements (`lost` says why). */
export class PgLease implements PostgresPoolClient {
  lent = false;
  /** Why the server ended this session while it was lent, if it did. */
  lost: 'unreachable' | 'revoked' | undefined;
  /** Names of the statements prepared on this connection (Database.script's `prepare`). */
  readonly prepared = new Set<string>();
  constructor(
    private readonly client: pg.PoolClient,
    private readonly lane: Lane,
  ) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(
    q: string | PostgresCursor<R>,
    parameters?: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (this.lost) {
      if (typeof q !== 'string') throw this.lostError(this.lost);
      return Promise.reject(this.lostError(this.lost));
    }
    // biome-ignore lint/suspicious/noExplicitAny: node-postgres's overloads (text, cursor) passed on as Kysely sends them
    return this.client.query(q as any, parameters as any[]) as any;
  }

  /** A multi-statement script (simple query protocol): every statement's result. */
  script(text: string): Promise<pg.QueryResult | pg.QueryResult[]> {
    if (this.lost) return Promise.reject(this.lostError(this.lost));
    return this.client.query(text) as unknown as Promise<pg.QueryResult | pg.QueryResult[]>;
  }

  private lostError(why: 'unreachable' | 'revoked'): Error {
    return why === 'unreachable' ? new DatabaseUnreachableError() : new DatabaseUnavailableError('revoked');
  }

  release(): void {
    if (!this.lent) return;
    this.lent = false;
    this.client.release();
    this.lane.progressed();
  }
}
