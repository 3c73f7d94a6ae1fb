import { sql } from 'kysely';
import type { Database, Tx } from '../db';
import { type Checkpoint, readLogBatch, START, type TxRunner, txOn, txPerCall } from './projections/log';
import {
  ensureReadModel,
  generationTable,
  lockProjectionDdl,
  type ProjectionDefinition,
  pointView,
  projectionNamed,
  secureTable,
} from './projections/registry';
import { decodeEvents } from './store';

export interface RebuildProgress {
  phase: 'replay' | 'swap' | 'done';
  processed: number;
  /** Events of the log when the rebuild started (it grows while it runs). */
  total: number;
  percent: number;
  eventsPerSecond: number;
  generation: number;
}

export interface RebuildOptions {
  batchSize?: number;
  onProgress?: (p: RebuildProgress) => void;
  /** Called between the replay and the swap (tests use it to write while a rebuild runs). */
  beforeSwap?: () => Promise<unknown>;
}

export interface RebuildResult {
  name: string;
  generation: number;
  processed: number;
  seconds: number;
}

const rebuildKey = (name: string) => sql`hashtextextended(${`sprout.rebuild:${name}`}, 0)`;
const localRebuilds = new WeakMap<Database, Set<string>>();

/**
 * Rebuilds a read model blue/green: replays the whole log into a fresh generation table
 * beside the live one (readers and writers keep using the live one through the view), then,
 * in one short transaction, locks the view, replays the tail, points the view at the new
 * table and moves the checkpoint; the old table is dropped afterwards.
 *
 * The swap is exact for both kinds. Async: the live projector's checkpoint row is locked,
 * the tail is read with the projector's own rule, and the checkpoint is set to where the new
 * table stands. Inline: the view's ACCESS EXCLUSIVE lock waits for every transaction that
 * wrote through it (so all of them have committed and the tail sees their events) and holds
 * back the ones that have not written yet (they write into the new table once it is live).
 */
export async function rebuildProjection(
  database: Database,
  name: string,
  opts: RebuildOptions = {},
): Promise<RebuildResult> {
  const def = projectionNamed(name);
  if (!def) throw new Error(`unknown projection "${name}"`);
  if (database.dialect === 'pglite') {
    const running = localRebuilds.get(database) ?? new Set<string>();
    localRebuilds.set(database, running);
    if (running.has(name)) throw new Error(`projection ${name} is already being rebuilt`);
    running.add(name);
    try {
      return await rebuildWith(def, txPerCall(database), opts);
    } finally {
      running.delete(name);
    }
  }
  // PostgreSQL: one pinned connection holds the rebuild lock and runs every step.
  return database.session.connection().execute(async (conn) => {
    const got = await sql<{ ok: boolean }>`select pg_try_advisory_lock(${rebuildKey(name)}) as ok`.execute(conn);
    if (!got.rows[0]?.ok) throw new Error(`projection ${name} is already being rebuilt`);
    try {
      return await rebuildWith(def, txOn(conn), opts);
    } finally {
      await sql`select pg_advisory_unlock(${rebuildKey(name)})`.execute(conn).catch(() => undefined);
    }
  });
}

async function rebuildWith(def: ProjectionDefinition, run: TxRunner, opts: RebuildOptions): Promise<RebuildResult> {
  const batchSize = opts.batchSize ?? 5000;
  const started = performance.now();
  const live = await run((trx) => ensureReadModel(trx, def));
  const generation = live + 1;
  const table = generationTable(def.name, generation);
  await run(async (trx) => {
    await lockProjectionDdl(trx, def.name);
    await sql`drop table if exists ${sql.table(table)}`.execute(trx); // a failed earlier attempt
    await def.createTable(trx, table);
    await secureTable(trx, table);
  });
  const total = await run(async (trx) => {
    const r = await sql<{ n: string }>`select count(*)::text as n from events`.execute(trx);
    return Number(r.rows[0]?.n ?? 0);
  });

  let at: Checkpoint = START;
  let processed = 0;
  let lastReport = 0;
  const report = (phase: RebuildProgress['phase']) => {
    const secs = (performance.now() - started) / 1000;
    opts.onProgress?.({
      phase,
      processed,
      total,
      percent: total ? Math.min(100, (processed / total) * 100) : 100,
      eventsPerSecond: secs > 0 ? processed / secs : 0,
      generation,
    });
  };
  const step = async (trx: Tx, visibility: 'settled' | 'committed') => {
    const batch = await readLogBatch(trx, at, batchSize, def.eventTypes, visibility);
    if (!batch.last) return 0;
    if (batch.rows.length) {
      await def.handle(trx, await decodeEvents(trx, batch.rows), { table, rebuilding: true });
    }
    at = batch.last;
    processed += batch.scanned;
    return batch.scanned;
  };

  // Replay: settled events only, each batch its own transaction, the live model untouched.
  for (;;) {
    const n = await run((trx) => step(trx, 'settled'));
    if (performance.now() - lastReport > 1000) {
      lastReport = performance.now();
      report('replay');
    }
    if (n < batchSize) break;
  }
  await opts.beforeSwap?.();

  // Swap: short, exact, in one transaction.
  report('swap');
  await run(async (trx) => {
    await lockProjectionDdl(trx, def.name);
    await sql`select 1 from projections where name = ${def.name} for update`.execute(trx);
    await sql`lock table ${sql.table(def.name)} in access exclusive mode`.execute(trx);
    const visibility = def.kind === 'async' ? 'settled' : 'committed';
    while ((await step(trx, visibility)) === batchSize) {}
    await pointView(trx, def.name, table);
    await sql`
      update projections set generation = ${generation}, transaction_id = ${at.transactionId}::xid8,
        global_position = ${at.position.toString()}::bigint, rebuilt_at = now(), updated_at = now()
      where name = ${def.name}`.execute(trx);
  });
  // The old generation: readers that began before the swap finish first (drop waits for them).
  await run(async (trx) => {
    await sql`drop table if exists ${sql.table(generationTable(def.name, live))}`.execute(trx);
  });
  report('done');
  return { name: def.name, generation, processed, seconds: (performance.now() - started) / 1000 };
}
