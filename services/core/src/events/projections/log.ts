import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { Database, DB, Tx } from '../../db';
import { EVENT_COLUMNS, type EventRow } from '../store';

/** A position in the log's read order: (transaction id, global position). */
export interface Checkpoint {
  /** xid8 as text. */
  transactionId: string;
  position: bigint;
}

export const START: Checkpoint = { transactionId: '0', position: 0n };

/**
 * Which events a reader may take.
 * - `settled`: only events whose transaction is older than every transaction still running
 *   (`transaction_id < pg_snapshot_xmin(pg_current_snapshot())`). Nothing can later commit
 *   below that line, so a checkpoint on (transaction_id, global_position) never skips an
 *   event that commits late, out of global-position order.
 * - `committed`: every committed event. Only for a reader that has made sure no writer it
 *   cares about is still running (the rebuild's swap, which holds the view's lock).
 */
export type Visibility = 'settled' | 'committed';

export interface LogBatch {
  /** Rows of the wanted types, in read order. */
  rows: EventRow[];
  /** The last position scanned (of any type), or undefined when nothing was there. */
  last: Checkpoint | undefined;
  /** Events scanned, of any type. */
  scanned: number;
}

/** Reads the next batch of the log after `after`, in (transaction_id, global_position) order. */
export async function readLogBatch(
  trx: Tx,
  after: Checkpoint,
  limit: number,
  types: readonly string[] | '*',
  visibility: Visibility,
): Promise<LogBatch> {
  const x = after.transactionId;
  const p = after.position.toString();
  const settled = visibility === 'settled';
  const log = sql`sprout_read_log(${x}::xid8, ${p}::bigint, ${limit}::integer, ${settled})`;
  if (types === '*') {
    const r = await sql<EventRow>`select ${EVENT_COLUMNS} from ${log} e`.execute(trx);
    const lastRow = r.rows[r.rows.length - 1];
    return {
      rows: r.rows,
      last: lastRow ? { transactionId: lastRow.transaction_id, position: BigInt(lastRow.global_position) } : undefined,
      scanned: r.rows.length,
    };
  }
  // Every type is scanned (the checkpoint moves past all of them); only the wanted types'
  // data and metadata are sent.
  const r = await sql<EventRow & { wanted: boolean }>`
    select e.tenant_id, e.global_position::text as global_position, e.transaction_id::text as transaction_id,
           e.stream_type, e.stream_id, e.stream_version, e.type, e.schema_version, e.recorded_at,
           e.type = any(${[...types]}::text[]) as wanted,
           case when e.type = any(${[...types]}::text[]) then e.data end as data,
           case when e.type = any(${[...types]}::text[]) then e.metadata end as metadata
    from ${log} e`.execute(trx);
  const lastRow = r.rows[r.rows.length - 1];
  return {
    rows: r.rows.filter((row) => row.wanted).map(({ wanted: _, ...row }) => row),
    last: lastRow ? { transactionId: lastRow.transaction_id, position: BigInt(lastRow.global_position) } : undefined,
    scanned: r.rows.length,
  };
}

/** Runs one transaction on a given connection (explicit begin/commit, as the owner). */
export type TxRunner = <T>(fn: (trx: Kysely<DB>) => Promise<T>) => Promise<T>;

export function txOn(conn: Kysely<DB>): TxRunner {
  return async (fn) => {
    await conn.executeQuery(CompiledQuery.raw('begin'));
    try {
      const out = await fn(conn);
      await conn.executeQuery(CompiledQuery.raw('commit'));
      return out;
    } catch (err) {
      await conn.executeQuery(CompiledQuery.raw('rollback')).catch(() => undefined);
      throw err;
    }
  };
}

/** Each transaction on a connection taken from the pool (or PGlite's one, in turn). */
export function txPerCall(database: Database): TxRunner {
  return (fn) => database.db.connection().execute((conn) => txOn(conn)(fn));
}

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
