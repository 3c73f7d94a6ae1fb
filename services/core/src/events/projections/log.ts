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
  const settled = visibility === 'settled' ? sql`and transaction_id < pg_snapshot_xmin(pg_current_snapshot())` : sql``;
  const x = after.transactionId;
  const p = after.position.toString();
  if (types === '*') {
    const r = await sql<EventRow>`
      select ${EVENT_COLUMNS} from events e
      where (e.transaction_id, e.global_position) > (${x}::xid8, ${p}::bigint) ${settled}
      order by e.transaction_id, e.global_position
      limit ${limit}`.execute(trx);
    const lastRow = r.rows[r.rows.length - 1];
    return {
      rows: r.rows,
      last: lastRow ? { transactionId: lastRow.transaction_id, position: BigInt(lastRow.global_position) } : undefined,
      scanned: r.rows.length,
    };
  }
  // Scan positions of every type (index only), fetch the wanted types' rows.
  const r = await sql<EventRow & { w_tx: string; w_pos: string }>`
    with w as (
      select transaction_id, global_position from events
      where (transaction_id, global_position) > (${x}::xid8, ${p}::bigint) ${settled}
      order by transaction_id, global_position
      limit ${limit}
    )
    select w.transaction_id::text as w_tx, w.global_position::text as w_pos, ${EVENT_COLUMNS}
    from w left join events e
      on e.transaction_id = w.transaction_id and e.global_position = w.global_position and e.type = any(${[...types]}::text[])
    order by w.transaction_id, w.global_position`.execute(trx);
  const lastRow = r.rows[r.rows.length - 1];
  return {
    rows: r.rows.filter((row) => row.type !== null),
    last: lastRow ? { transactionId: lastRow.w_tx, position: BigInt(lastRow.w_pos) } : undefined,
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
