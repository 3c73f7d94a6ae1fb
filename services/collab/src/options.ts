import type { Database } from '@sprout/core/db';
import type { KeyValueStore } from '@sprout/core/kv';
import type { AccessResolver } from './access';

/** Hooks and limits of the collab service. */
export interface CollabOptions {
  /** Who may do what with a document (default: `recordAccess`, the record's CASL scope and status). */
  access: AccessResolver;
  /**
   * Called once a document has had no update for `idleMs` while it holds updates not yet in
   * a revision (and when it unloads with such updates), on the instance that stored the last
   * update, with the authors since the last revision (from the database). The API saves a
   * revision here (readRevision → UpdateDraft event → markRevision).
   */
  onIdle?: (docName: string, tenantId: string, authorIds: string[]) => Promise<void> | void;
  /** Default 10 s. */
  idleMs?: number;
  /** How often loaded documents with new update rows are compacted (default 60 s); also on unload. */
  compactIntervalMs?: number;
  /** Compact a loaded document once it has at least this many new rows (default 100). */
  compactMinRows?: number;
  /**
   * How often each loaded document reads the updates stored by other instances since its
   * last look (default 20 s; Redis only): the safety net under pub/sub, which may lose
   * messages while Redis reconnects. 0 switches it off.
   */
  resyncMs?: number;
  /**
   * A tenant's updates are stored in batches at most this often (default 25 ms): peers get
   * every update at once anyway, so this only delays the stored acknowledgement a little, and
   * bounds the tenant's transactions per second.
   */
  batchMs?: number;
  /**
   * A connection that was sent nothing for this long gets an empty awareness message (default
   * 15 s): y-websocket's client drops a socket that hears nothing for 30 s, and WebSocket
   * pings never reach the page.
   */
  keepAliveMs?: number;
  /**
   * An append that takes longer fails (default 10 s; retried three times, then its writers are
   * closed with 1013): a stuck database never holds a document in memory for good.
   */
  appendTimeoutMs?: number;
  /** Largest message a client may send (default 4 MiB). */
  maxMessageBytes?: number;
  /** Largest amount of one connection's updates waiting to be stored (default 16 MiB). */
  maxPendingBytes?: number;
  /**
   * true (default): an update is acknowledged as stored (and published to other instances)
   * once its commit is flushed to disk, so not even a PostgreSQL crash loses an acknowledged
   * update. false: once committed (visible, safe from any collab instance stopping or
   * crashing) without waiting for the flush (`synchronous_commit = off` for the append): a
   * few ms sooner, but a PostgreSQL crash may lose the last ~0.6 s of acknowledged updates —
   * which the clients still hold and send again when they reconnect. Peers on the same
   * instance get every update at once either way.
   */
  synchronousCommit?: boolean;
  /**
   * At a stop, how long clients get to answer the close (1001) before their sockets are cut
   * (default 2 s): the stop never waits on a client that does not answer.
   */
  closeGraceMs?: number;
}

export interface CollabDeps {
  database: Database;
  kv: KeyValueStore;
  log: { info(o: unknown, m?: string): void; warn(o: unknown, m?: string): void; error(o: unknown, m?: string): void };
}

/** The options with every default filled in. */
export type Settings = Required<Omit<CollabOptions, 'onIdle'>> & Pick<CollabOptions, 'onIdle'>;

export function withDefaults(opts: CollabOptions): Settings {
  return {
    idleMs: 10_000,
    compactIntervalMs: 60_000,
    compactMinRows: 100,
    resyncMs: 20_000,
    batchMs: 25,
    keepAliveMs: 15_000,
    appendTimeoutMs: 10_000,
    maxMessageBytes: 4 * 1024 * 1024,
    maxPendingBytes: 16 * 1024 * 1024,
    synchronousCommit: true,
    closeGraceMs: 2_000,
    ...opts,
  };
}

/** Counters for tests and monitoring. */
export const newStats = () => ({
  connections: 0,
  refused: 0,
  /** Connections refused because their copy belonged to another epoch (4409). */
  staleCopies: 0,
  /** Loaded documents whose epoch changed under them, and the updates of theirs not stored for it. */
  retired: 0,
  staleUpdates: 0,
  updatesStored: 0,
  updatesDroppedReadOnly: 0,
  /** Updates of `late` connections kept for their users (typed after a submit). */
  updatesKeptLate: 0,
  loads: 0,
  unloads: 0,
  compactions: 0,
  storeFailures: 0,
  /** Rows (and compacted states) a resync had to read: what pub/sub did not deliver. */
  resyncRows: 0,
  /** Batches stored, and the time spent storing them (ms): monitoring the group commit. */
  batches: 0,
  storeMs: 0,
  maxStoreMs: 0,
});

export type CollabStats = ReturnType<typeof newStats>;

/** Timers that never keep the process alive. */
export const later = (fn: () => void, ms: number) => {
  const t = setTimeout(fn, ms);
  t.unref();
  return t;
};
export const every = (fn: () => void, ms: number) => {
  const t = setInterval(fn, ms);
  t.unref();
  return t;
};

/** The higher of two seqs (bigint as text). */
export const bigger = (a: string, b: string) => (BigInt(a) >= BigInt(b) ? a : b);
