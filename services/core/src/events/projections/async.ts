import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database, DB, Tx } from '../../db';
import { decodeEvents } from '../store';
import { type Checkpoint, readLogBatch, sleep, type TxRunner, txOn, txPerCall } from './log';
import { ensureReadModel, type ProjectionDefinition, registeredProjections } from './registry';

export interface ProjectorOptions {
  /** Events per transaction (default 2000). */
  batchSize?: number;
  /** Pause when caught up, in ms (default 200). */
  idleMs?: number;
  /** How often a follower tries to become the leader, in ms (default 2000). */
  leaderRetryMs?: number;
  /** How often the lag is measured and reported, in ms (default 10000). */
  statusEveryMs?: number;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}

export interface ProjectorStatus {
  name: string;
  leader: boolean;
  checkpoint: { transactionId: string; position: string };
  /** Events processed by this instance since it started. */
  processed: number;
  /** Committed events not yet projected (counted up to 1,000,000). */
  behind: number;
  /** Age of the oldest event not yet projected, in seconds (0 when caught up). */
  lagSeconds: number;
  lastError?: string;
}

const lockPrefix = 'sprout.projector:';
const lockKey = (name: string) => sql`hashtextextended(${lockPrefix + name}, 0)`;
/** PGlite is one process: leadership is this process's, per database. */
const localLeaders = new WeakMap<Database, Set<string>>();

/**
 * An SQL condition: a projector leads the async projection named by `name` (a column or a
 * value) on this database. On PostgreSQL a leader, in any process, holds the session
 * advisory lock on the projection's key; on PGlite the leaders are this process's.
 */
export function projectionLed(database: Database, name: RawBuilder<unknown>): RawBuilder<boolean> {
  if (database.dialect === 'pglite')
    return sql<boolean>`${name} = any(${[...(localLeaders.get(database) ?? [])]}::text[])`;
  return sql<boolean>`exists (
    select 1 from pg_locks l
    where l.locktype = 'advisory' and l.granted and l.objsubid = 1
      and l.database = (select oid from pg_database where datname = current_database())
      and ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended(${lockPrefix} || ${name}, 0))`;
}

/**
 * Follows the log for one async projection: reads settled events after its checkpoint in
 * (transaction_id, global_position) order, applies them through the projection's view and
 * moves the checkpoint in the same transaction, so each event is applied exactly once.
 * One instance per projection leads (a session advisory lock on its own connection); the
 * others wait and take over when the leader's session ends. The checkpoint row is locked
 * for every batch, so even two leaders could not apply an event twice.
 */
export class AsyncProjector {
  private readonly opts: Required<Omit<ProjectorOptions, 'log'>> & Pick<ProjectorOptions, 'log'>;
  private abort = new AbortController();
  private running: Promise<void> | undefined;
  private state: ProjectorStatus;

  constructor(
    private readonly database: Database,
    private readonly def: ProjectionDefinition,
    opts: ProjectorOptions = {},
  ) {
    if (def.kind !== 'async') throw new Error(`projection ${def.name} is not async`);
    this.opts = {
      batchSize: opts.batchSize ?? 2000,
      idleMs: opts.idleMs ?? 200,
      leaderRetryMs: opts.leaderRetryMs ?? 2000,
      statusEveryMs: opts.statusEveryMs ?? 10_000,
      log: opts.log,
    };
    this.state = {
      name: def.name,
      leader: false,
      checkpoint: { transactionId: '0', position: '0' },
      processed: 0,
      behind: 0,
      lagSeconds: 0,
    };
  }

  status(): ProjectorStatus {
    return { ...this.state, checkpoint: { ...this.state.checkpoint } };
  }

  /** Starts following the log in the background. */
  start(): void {
    if (this.running) return;
    this.abort = new AbortController();
    this.running = this.loop(this.abort.signal).catch((err) => {
      this.opts.log?.(`projection ${this.def.name}: stopped on error`, { err: String(err) });
    });
  }

  /** Stops after the current batch and gives up leadership. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
    this.running = undefined;
  }

  /**
   * Processes one batch on the given runner; returns the number of events scanned
   * (0 when caught up). Exposed for tests and for `catchUp`.
   */
  async processBatch(run: TxRunner): Promise<number> {
    const def = this.def;
    return run(async (trx) => {
      const ck = await sql<{ transaction_id: string; global_position: string }>`
        select transaction_id::text, global_position::text from projections where name = ${def.name} for update`.execute(
        trx,
      );
      const row = ck.rows[0];
      if (!row) throw new Error(`projection ${def.name} has no registry row (ensureReadModel first)`);
      const from: Checkpoint = { transactionId: row.transaction_id, position: BigInt(row.global_position) };
      const batch = await readLogBatch(trx, from, this.opts.batchSize, def.eventTypes, 'settled');
      if (!batch.last) {
        this.state.checkpoint = { transactionId: from.transactionId, position: from.position.toString() };
        return 0;
      }
      if (batch.rows.length) {
        const events = await decodeEvents(trx, batch.rows);
        await def.handle(trx, events, { table: def.name, rebuilding: false });
      }
      await sql`
        update projections set transaction_id = ${batch.last.transactionId}::xid8,
          global_position = ${batch.last.position.toString()}::bigint,
          events_processed = events_processed + ${batch.rows.length}, updated_at = now()
        where name = ${def.name}`.execute(trx);
      this.state.checkpoint = { transactionId: batch.last.transactionId, position: batch.last.position.toString() };
      this.state.processed += batch.rows.length;
      return batch.scanned;
    });
  }

  /** Processes batches until nothing settled is left (tests, rebuilds, tools). */
  async catchUp(run: TxRunner = txPerCall(this.database)): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.processBatch(run);
      total += n;
      if (n === 0) return total;
    }
  }

  /** Measures how far behind the projection is. */
  async measureLag(trx: Tx | Kysely<DB> = this.database.db): Promise<{ behind: number; lagSeconds: number }> {
    const r = await sql<{ behind: number; oldest: Date | null }>`
      with ck as (select transaction_id, global_position from projections where name = ${this.def.name}),
      pending as (
        select e.recorded_at from events e, ck
        where (e.transaction_id, e.global_position) > (ck.transaction_id, ck.global_position)
        limit 1000000
      )
      select count(*)::int as behind, min(recorded_at) as oldest from pending`.execute(trx);
    const behind = r.rows[0]?.behind ?? 0;
    const oldest = r.rows[0]?.oldest;
    const lagSeconds = oldest ? Math.max(0, (Date.now() - new Date(oldest).getTime()) / 1000) : 0;
    this.state.behind = behind;
    this.state.lagSeconds = lagSeconds;
    return { behind, lagSeconds };
  }

  private async loop(signal: AbortSignal): Promise<void> {
    await txPerCall(this.database)((trx) => ensureReadModel(trx, this.def));
    while (!signal.aborted) {
      if (this.database.dialect === 'pglite') await this.leadLocally(signal);
      else await this.leadOnConnection(signal);
      if (!signal.aborted) await sleep(this.opts.leaderRetryMs, signal);
    }
  }

  /** PostgreSQL: leadership is a session advisory lock held on a pinned connection. */
  private async leadOnConnection(signal: AbortSignal) {
    try {
      await this.database.session.connection().execute(async (conn) => {
        const got = await sql<{ ok: boolean }>`select pg_try_advisory_lock(${lockKey(this.def.name)}) as ok`.execute(
          conn,
        );
        if (!got.rows[0]?.ok) return;
        this.state.leader = true;
        this.opts.log?.(`projection ${this.def.name}: leading`);
        try {
          await this.follow(txOn(conn), conn, signal);
        } finally {
          this.state.leader = false;
          await sql`select pg_advisory_unlock(${lockKey(this.def.name)})`.execute(conn).catch(() => undefined);
        }
      });
    } catch (err) {
      // A lost connection ends leadership (the server released the lock); try again later.
      this.state.lastError = String(err);
      this.opts.log?.(`projection ${this.def.name}: leadership lost`, { err: String(err) });
    }
  }

  private async leadLocally(signal: AbortSignal) {
    const leaders = localLeaders.get(this.database) ?? new Set<string>();
    localLeaders.set(this.database, leaders);
    if (leaders.has(this.def.name)) return;
    leaders.add(this.def.name);
    this.state.leader = true;
    try {
      await this.follow(txPerCall(this.database), this.database.db, signal);
    } finally {
      this.state.leader = false;
      leaders.delete(this.def.name);
    }
  }

  private async follow(run: TxRunner, lagConn: Kysely<DB>, signal: AbortSignal) {
    let failures = 0;
    let lastStatus = 0;
    while (!signal.aborted) {
      let n = 0;
      try {
        n = await this.processBatch(run);
        failures = 0;
        this.state.lastError = undefined;
      } catch (err) {
        // A failing handler stops the projection at that event (never skips it); back off.
        failures++;
        this.state.lastError = String(err);
        this.opts.log?.(`projection ${this.def.name}: batch failed (attempt ${failures})`, { err: String(err) });
        if (/connection|terminat|ECONNRESET|Connection terminated/i.test(String(err))) throw err;
        await sleep(Math.min(30_000, 250 * 2 ** Math.min(failures, 7)), signal);
        continue;
      }
      if (Date.now() - lastStatus >= this.opts.statusEveryMs) {
        lastStatus = Date.now();
        const lag = await this.measureLag(lagConn).catch(() => undefined);
        if (lag && lag.behind > 0)
          this.opts.log?.(`projection ${this.def.name}: ${lag.behind} events behind`, {
            lagSeconds: Math.round(lag.lagSeconds * 10) / 10,
          });
      }
      if (n < this.opts.batchSize) await sleep(this.opts.idleMs, signal);
    }
  }
}

export interface ProjectionRunner {
  projectors: AsyncProjector[];
  status(): ProjectorStatus[];
  stop(): Promise<void>;
}

/** Makes every registered read model exist (inline and async). Run by the API and the worker at start. */
export async function ensureReadModels(database: Database): Promise<void> {
  for (const def of registeredProjections()) await txPerCall(database)((trx) => ensureReadModel(trx, def));
}

/** Starts a projector for every registered async projection (the worker's job). */
export async function startProjections(database: Database, opts: ProjectorOptions = {}): Promise<ProjectionRunner> {
  await ensureReadModels(database);
  const projectors = registeredProjections()
    .filter((d) => d.kind === 'async')
    .map((d) => new AsyncProjector(database, d, opts));
  for (const p of projectors) p.start();
  return {
    projectors,
    status: () => projectors.map((p) => p.status()),
    async stop() {
      await Promise.all(projectors.map((p) => p.stop()));
    },
  };
}
