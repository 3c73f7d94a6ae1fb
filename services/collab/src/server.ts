import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { WebSocket } from 'ws';
import * as Y from 'yjs';
import { readInTenant } from '@sprout/core/db';
import type { KeyValueStore } from '@sprout/core/kv';
import type { CollabUser, DocAccess } from './access';
import {
  type AwarenessEntry,
  CLOSE,
  decodeAwareness,
  decodeMessage,
  encodeAwareness,
  encodeAwarenessMessage,
  encodeEpoch,
  encodePermissionDenied,
  encodeStored,
  encodeSyncStep1,
  encodeSyncStep2,
  encodeUpdate,
  isEmptyUpdate,
} from './protocol';
import {
  bigger,
  type CollabDeps,
  type CollabOptions,
  every,
  later,
  newStats,
  type Settings,
  withDefaults,
} from './options';
import { appendUpdates, authorsSince, compactStored, type NewUpdate, openStored, type StoredDoc } from './store';

export type { CollabDeps, CollabOptions } from './options';

/** The outcome of authenticating a connection: a user with access, or a refusal. */
export type Admission =
  | {
      ok: true;
      user: CollabUser;
      docName: string;
      mode: Exclude<DocAccess, null>;
      /** The client asked to be told when its updates are stored (message 100, `?stored=1`). */
      acks?: boolean;
      /**
       * The epoch of the client's copy (`?epoch=`): absent, the client does not know about epochs
       * (a stock y-websocket client: told nothing); empty, it holds no copy (told the epoch,
       * message 101); otherwise refused with 4409 unless it is the document's epoch.
       */
      epoch?: string;
    }
  | { ok: false; code: number; reason: string };

const CONTROL_CHANNEL = 'collab-control';
const OPEN = 1;
/** Slow readers: a connection whose unsent data passes this is closed (it reconnects and resyncs). */
const MAX_BUFFERED = 32 * 1024 * 1024;
/** Awareness states (cursors, names) kept per document and their size. */
const MAX_AWARENESS = 1000;
const MAX_AWARENESS_STATE = 64 * 1024;
/** Clients renew their awareness every 15 s; older states are not handed to newcomers. */
const AWARENESS_FRESH_MS = 45_000;
/** WebSocket pings (the page never sees them): a connection that missed one is cut. */
const PING_MS = 30_000;
const EMPTY_AWARENESS = encodeAwarenessMessage(encodeAwareness([]));

const toBytes = (data: Buffer | ArrayBuffer | Buffer[]): Uint8Array =>
  Array.isArray(data) ? Buffer.concat(data) : data instanceof ArrayBuffer ? new Uint8Array(data) : data;

/** The TCP socket under a WebSocket. */
export interface RawStream {
  cork(): void;
  uncork(): void;
}

/**
 * Sockets written to since the event loop last went round: corked, and uncorked together
 * once every socket that was readable has been handled (setImmediate runs after the poll
 * phase). Under load a socket then gets the updates of many senders in one write instead of
 * one system call each; when it is quiet that is one update, sent at once.
 */
const corked = new Set<RawStream>();
let uncorkScheduled = false;
const uncorkAll = () => {
  uncorkScheduled = false;
  for (const raw of corked)
    try {
      raw.uncork();
    } catch {
      // a socket torn down meanwhile: nothing to send
    }
  corked.clear();
};
function corkUntilLoopTurns(raw: RawStream) {
  if (corked.has(raw)) return;
  raw.cork();
  corked.add(raw);
  if (!uncorkScheduled) {
    uncorkScheduled = true;
    setImmediate(uncorkAll);
  }
}

/** One live WebSocket on one document. */
class Conn {
  readonly awarenessIds = new Set<number>();
  pendingBytes = 0;
  lastSend = Date.now();
  alive = true;
  closed = false;
  expiry: NodeJS.Timeout | undefined;

  constructor(
    readonly socket: WebSocket,
    readonly user: CollabUser,
    readonly doc: LiveDoc,
    public mode: 'write' | 'read',
    readonly acks: boolean,
    readonly raw: RawStream | undefined,
  ) {}

  send(message: Uint8Array) {
    if (this.closed || this.socket.readyState !== OPEN) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED) {
      this.socket.close(CLOSE.tryLater, 'too slow');
      return;
    }
    if (this.raw) corkUntilLoopTurns(this.raw);
    this.socket.send(message);
    this.lastSend = Date.now();
  }
}

/** A document in this instance's memory, with its connections. */
class LiveDoc {
  readonly ydoc = new Y.Doc();
  readonly conns = new Set<Conn>();
  /** Awareness states by client id (what newcomers are told at once). */
  /** `userId`: who set it; `by`: the connection here that did (none: another instance). */
  readonly awareness = new Map<
    number,
    { clock: number; state: string; at: number; userId: string | undefined; by: Conn | undefined }
  >();
  /** This copy's id on the channel: messages it published itself are skipped. */
  readonly uid = randomBytes(6).toString('base64url');
  /** The document's identity epoch, as stored (migration 0016). */
  epoch = '';
  /** Its epoch changed under this copy (renewed, replaced): it takes no one new and leaves memory. */
  retired = false;
  state: 'loading' | 'live' | 'closed' = 'loading';
  ready: Promise<void> = Promise.resolve();
  refs = 0;
  /** Channel messages that arrived while loading. */
  early: string[] = [];
  unsubscribe: (() => Promise<void>) | undefined;
  /** The highest update seq this copy has seen, and the resync floor (two looks behind). */
  seenSeq = '0';
  floorSeq = '0';
  lastLookSeq = '0';
  /**
   * The update rows above the floor this copy holds (by seq): a resync reads only the others.
   * Kept only where something resyncs (Redis mode); elsewhere a resync reads every row above the floor.
   */
  readonly known = new Set<number>();
  trackKnown = false;
  /** The compacted state (by its seq) this copy holds entirely: a resync reads only a newer one. */
  stateSeq = '0';
  rowsSinceCompact = 0;
  /**
   * Updates relayed to this instance's connections but not stored yet, in arrival order: a
   * connection that joins meanwhile gets them with its first sync (the copy holds only what
   * is stored).
   */
  readonly unstored = new Set<QueuedUpdate>();
  /** Updates queued or being stored; `drained` resolves when it is back to 0. */
  pending = 0;
  private drainWaiters: Array<() => void> = [];
  /** Updates since the last onIdle, the time of the last, and whether this instance stored it. */
  dirty = false;
  lastWriteAt = 0;
  lastWasLocal = false;

  constructor(
    readonly key: string,
    readonly tenantId: string,
    readonly docName: string,
  ) {}

  get channel() {
    return `collab:${this.key}`;
  }

  drained(): Promise<void> {
    return this.pending === 0 ? Promise.resolve() : new Promise((r) => this.drainWaiters.push(r));
  }

  settle() {
    if (--this.pending === 0) for (const r of this.drainWaiters.splice(0)) r();
  }

  wrote(local: boolean) {
    this.dirty = true;
    this.lastWasLocal = local;
    this.lastWriteAt = Date.now();
  }

  seen(seq: string) {
    this.seenSeq = bigger(this.seenSeq, seq);
    if (this.trackKnown) this.known.add(Number(seq));
  }

  broadcast(message: Uint8Array, except?: Conn) {
    for (const c of this.conns) if (c !== except) c.send(message);
  }
}

/** A socket's state between upgrade and close. */
interface SocketState {
  /** Messages that arrived before the connection was admitted. */
  early: Uint8Array[];
  earlyBytes: number;
  conn: Conn | undefined;
  gone: boolean;
}

interface QueuedUpdate {
  conn: Conn;
  doc: LiveDoc;
  update: Uint8Array;
  /** The stored acknowledgement to send its connection (clients that asked for them). */
  ack: Uint8Array | undefined;
}

/** Batches of one tenant being stored at once (each a transaction; PostgreSQL flushes their commits together). */
const MAX_IN_FLIGHT = 2;

/**
 * Group commit per tenant: a batch is taken at most every `batchMs` and up to MAX_IN_FLIGHT
 * batches are stored at once; whatever arrives meanwhile goes in the next batch, and batches
 * are applied, published and acknowledged in the order they were taken (whichever commits
 * first).
 */
class TenantWriter {
  private queue: QueuedUpdate[] = [];
  private inFlight = 0;
  private timer: NodeJS.Timeout | undefined;
  /** When the last batch was taken (performance.now()). */
  private lastTake = Number.NEGATIVE_INFINITY;
  private tail: Promise<void> = Promise.resolve();
  /** Items pushed, and items stored (or given up): flush waits for what was pushed before it. */
  private pushed = 0;
  private done = 0;
  private waiters: Array<{ upTo: number; resolve: () => void }> = [];

  constructor(
    private readonly tenantId: string,
    private readonly server: CollabServer,
    /** At least this long between two batches taken (the tenant's transactions per second stay bounded). */
    private readonly batchMs: number,
  ) {}

  push(item: QueuedUpdate) {
    this.queue.push(item);
    this.pushed++;
    this.pump();
  }

  /** Forgets everything not yet being stored (abort). */
  drop(): QueuedUpdate[] {
    clearTimeout(this.timer);
    this.timer = undefined;
    const dropped = this.queue.splice(0);
    this.finished(dropped.length);
    return dropped;
  }

  /** Resolves once everything pushed so far is stored and published (or given up). */
  idle(): Promise<void> {
    const upTo = this.pushed;
    return this.done >= upTo ? Promise.resolve() : new Promise((resolve) => this.waiters.push({ upTo, resolve }));
  }

  private finished(n: number) {
    this.done += n;
    if (!this.waiters.length) return;
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (this.done >= w.upTo) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }

  private pump() {
    if (this.timer || this.inFlight >= MAX_IN_FLIGHT || !this.queue.length) return;
    const wait = this.lastTake + this.batchMs - performance.now();
    if (wait > 0) {
      this.timer = later(() => {
        this.timer = undefined;
        this.take();
      }, wait);
      return;
    }
    this.take();
  }

  private take() {
    this.lastTake = performance.now();
    while (this.inFlight < MAX_IN_FLIGHT && this.queue.length) {
      let bytes = 0;
      let n = 0;
      while (n < this.queue.length && n < 1000 && bytes < 8 * 1024 * 1024) bytes += this.queue[n++]?.update.length ?? 0;
      // Updates of connections that closed meanwhile are stored too: nothing received is thrown away.
      const batch = this.queue.splice(0, n);
      this.inFlight++;
      const stored = this.server.persist(this.tenantId, batch);
      this.tail = this.tail.then(async () => {
        try {
          this.server.stored(batch, await stored);
        } catch (err) {
          // Never stops the tenant's writer (the next batches chain on this one).
          this.server.logError(err, 'collab: handling a stored batch failed');
        } finally {
          this.inFlight--;
          this.finished(batch.length);
          this.pump();
        }
      });
    }
  }
}

/**
 * The live co-editing service: documents in memory while someone has them open; every
 * accepted update relayed at once to the document's other connections on this instance,
 * stored in PostgreSQL (group commit per tenant), and only then applied to the instance's
 * copy, published to the other instances (the key-value store's pub/sub) and acknowledged to
 * its sender as stored; readers' updates dropped; connections closed when their session ends
 * or their access changes. Transport-agnostic apart from `ws`
 * sockets; the Fastify plugin authenticates and hands sockets over with `accept`.
 */
export class CollabServer {
  private readonly docs = new Map<string, LiveDoc>();
  private readonly unloading = new Map<string, Promise<void>>();
  private readonly writers = new Map<string, TenantWriter>();
  private readonly conns = new Set<Conn>();
  private readonly compactQueue = new Map<string, LiveDoc | { tenantId: string; docName: string }>();
  private compacting = false;
  private timers: NodeJS.Timeout[] = [];
  private cleanups: Array<() => unknown> = [];
  private stopping = false;
  private aborted = false;
  private recheckPending = new Set<Conn>();
  private recheckTimer: NodeJS.Timeout | undefined;
  private readonly opts: Settings;

  /** Counters for tests and monitoring. */
  readonly stats = newStats();

  constructor(
    private readonly deps: CollabDeps,
    opts: CollabOptions,
  ) {
    this.opts = withDefaults(opts);
  }

  /** Documents in memory now (tests: the map must empty when the last client leaves). */
  get documentCount() {
    return this.docs.size + this.unloading.size;
  }

  get connectionCount() {
    return this.conns.size;
  }

  /** Loaded documents look for what pub/sub lost every `resyncMs` (Redis mode). */
  private get periodicResync() {
    return this.deps.kv.kind === 'redis' && this.opts.resyncMs > 0;
  }

  logError(err: unknown, message: string) {
    this.deps.log.error({ err }, message);
  }

  /** Nothing is being stored, unloaded or compacted in the background now. */
  get quiet() {
    return (
      !this.compacting &&
      this.compactQueue.size === 0 &&
      this.unloading.size === 0 &&
      this.background.size === 0 &&
      [...this.docs.values()].every((d) => d.pending === 0)
    );
  }

  async start() {
    this.cleanups.push(await this.deps.kv.subscribe(CONTROL_CHANNEL, (m) => this.onControl(m)));
    this.timers.push(every(() => this.keepAlive(), Math.min(5_000, this.opts.keepAliveMs / 3)));
    this.timers.push(every(() => this.compactDue(), this.opts.compactIntervalMs));
    if (this.opts.onIdle) this.timers.push(every(() => this.idleSweep(), Math.min(1000, this.opts.idleMs)));
    if (this.periodicResync) this.timers.push(every(() => void this.resyncAll(), this.opts.resyncMs));
  }

  /**
   * Follows session revocations and permission changes: a revoked session's connections are
   * closed; after a permission change every affected connection's access is decided again
   * (closed when it has none left, or when it changed between read-write and read-only, so the
   * client reconnects in its new mode).
   */
  watch(sources: {
    revocations?: { onRevoked(l: (sids: string[]) => void): () => void };
    permissions?: { onChange(l: (c: { tenantId: string; userId?: string }) => void): () => void };
  }) {
    if (sources.revocations)
      this.cleanups.push(
        sources.revocations.onRevoked((sids) => {
          const set = new Set(sids);
          for (const c of this.conns) if (set.has(c.user.sessionId)) this.close(c, CLOSE.unauthorized, 'session ended');
        }),
      );
    if (sources.permissions)
      this.cleanups.push(
        sources.permissions.onChange((change) => {
          for (const c of this.conns) {
            if (change.tenantId !== '*' && c.user.tenantId !== change.tenantId) continue;
            if (change.userId && c.user.userId !== change.userId) continue;
            this.recheckPending.add(c);
          }
          this.scheduleRecheck();
        }),
      );
  }

  // ---- connections ----------------------------------------------------------------------

  /**
   * Takes over an upgraded socket: buffers what the client sends while `admit` decides
   * (token, tenant, access), then joins the document or closes with the refusal's code.
   */
  accept(socket: WebSocket, admit: () => Promise<Admission>, raw?: RawStream) {
    const state = this.listen(socket);
    if (this.stopping) return this.refuse(socket, CLOSE.goingAway, 'server stopping');
    void this.admitAndJoin(socket, state, admit, raw);
  }

  /**
   * The socket's listeners, in a scope of their own: they live as long as the socket, and
   * must not keep the upgrade request (Fastify's request and reply) alive with them.
   */
  private listen(socket: WebSocket): SocketState {
    const s: SocketState = { early: [], earlyBytes: 0, conn: undefined, gone: false };
    // @fastify/websocket's error listener holds the request and reply for the socket's life.
    socket.removeAllListeners('error');
    socket.on('error', () => undefined);
    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      const bytes = toBytes(data);
      if (s.conn) return this.receive(s.conn, bytes);
      s.early.push(bytes);
      s.earlyBytes += bytes.length;
      if (s.early.length > 64 || s.earlyBytes > this.opts.maxMessageBytes)
        socket.close(CLOSE.tryLater, 'too much too early');
    });
    socket.on('close', () => {
      s.gone = true;
      if (s.conn) this.detach(s.conn);
    });
    return s;
  }

  private refuse(socket: WebSocket, code: number, reason: string) {
    this.stats.refused++;
    if (socket.readyState === OPEN) socket.close(code, reason);
  }

  private async admitAndJoin(
    socket: WebSocket,
    s: SocketState,
    admit: () => Promise<Admission>,
    raw: RawStream | undefined,
  ) {
    let admission: Admission;
    try {
      admission = await admit();
    } catch (err) {
      this.deps.log.error({ err }, 'collab: admission failed');
      return this.refuse(socket, CLOSE.internal, 'internal error');
    }
    if (!admission.ok) return this.refuse(socket, admission.code, admission.reason);
    if (s.gone || this.stopping) return this.refuse(socket, CLOSE.goingAway, 'server stopping');
    let doc: LiveDoc;
    try {
      doc = await this.acquire(admission.user.tenantId, admission.docName);
    } catch (err) {
      this.deps.log.error({ err, doc: admission.docName }, 'collab: document could not be loaded');
      return this.refuse(socket, CLOSE.tryLater, 'document unavailable');
    }
    if (s.gone || this.stopping) {
      this.release(doc);
      return this.refuse(socket, CLOSE.goingAway, 'server stopping');
    }
    if (doc.retired) {
      // Leaving memory to be loaded again under its new epoch: the client retries shortly.
      this.release(doc);
      return this.refuse(socket, CLOSE.tryLater, 'document reloading');
    }
    if (admission.epoch && admission.epoch !== doc.epoch) {
      // A copy of another history (the document was restored or reseeded since): whatever it
      // sent meanwhile is dropped with it, never stored nor relayed.
      this.stats.staleCopies++;
      this.release(doc);
      return this.refuse(socket, CLOSE.replaced, 'document replaced: drop your copy');
    }
    const conn = new Conn(socket, admission.user, doc, admission.mode, admission.acks === true, raw);
    s.conn = conn;
    this.join(conn, admission.epoch !== undefined);
    const early = s.early;
    s.early = [];
    for (const m of early) this.receive(conn, m);
  }

  private join(conn: Conn, tellEpoch: boolean) {
    const doc = conn.doc;
    doc.conns.add(conn);
    this.conns.add(conn);
    this.stats.connections++;
    conn.socket.on('pong', () => {
      conn.alive = true;
    });
    const ms = conn.user.claims.exp * 1000 - Date.now();
    conn.expiry = later(
      () => this.close(conn, CLOSE.unauthorized, 'token expired'),
      Math.min(Math.max(ms, 0), 2 ** 31 - 1),
    );
    // First, before anything of the document: the client records which history its copy belongs to.
    if (tellEpoch) conn.send(encodeEpoch(doc.epoch));
    conn.send(encodeSyncStep1(Y.encodeStateVector(doc.ydoc)));
    // Relayed to the others already, not in the copy until stored: this one gets them now.
    for (const i of doc.unstored) conn.send(encodeUpdate(i.update));
    if (conn.mode === 'read') conn.send(encodePermissionDenied('read-only: your changes are not saved'));
    const fresh: AwarenessEntry[] = [];
    const now = Date.now();
    for (const [clientId, a] of doc.awareness)
      if (now - a.at < AWARENESS_FRESH_MS) fresh.push({ clientId, clock: a.clock, state: a.state });
    if (fresh.length) conn.send(encodeAwarenessMessage(encodeAwareness(fresh)));
  }

  /** Closes a connection now (its document forgets it at once; the socket finishes closing on its own). */
  close(conn: Conn, code: number, reason: string) {
    if (conn.socket.readyState === OPEN) conn.socket.close(code, reason);
    this.detach(conn);
  }

  private detach(conn: Conn) {
    if (conn.closed) return;
    conn.closed = true;
    clearTimeout(conn.expiry);
    this.conns.delete(conn);
    this.recheckPending.delete(conn);
    const doc = conn.doc;
    doc.conns.delete(conn);
    const gone: AwarenessEntry[] = [];
    if (!this.aborted)
      for (const clientId of conn.awarenessIds) {
        const a = doc.awareness.get(clientId);
        // Set since by another connection (the same user, reconnected here or elsewhere): theirs now.
        if (a && a.by !== conn) continue;
        doc.awareness.delete(clientId);
        gone.push({ clientId, clock: (a?.clock ?? 0) + 1, state: 'null' });
      }
    if (gone.length) {
      const update = encodeAwareness(gone);
      doc.broadcast(encodeAwarenessMessage(update));
      this.publish(doc, `a ${doc.uid} ${Buffer.from(update).toString('base64')} ${conn.user.userId}`);
    }
    this.release(doc);
  }

  private receive(conn: Conn, data: Uint8Array) {
    if (conn.closed) return;
    if (data.length > this.opts.maxMessageBytes) return this.close(conn, CLOSE.tooBig, 'message too big');
    let message: ReturnType<typeof decodeMessage>;
    try {
      message = decodeMessage(data);
    } catch {
      return this.close(conn, CLOSE.malformed, 'malformed message');
    }
    const doc = conn.doc;
    switch (message.type) {
      case 'step1':
        try {
          conn.send(encodeSyncStep2(Y.encodeStateAsUpdate(doc.ydoc, message.stateVector)));
        } catch {
          this.close(conn, CLOSE.malformed, 'malformed state vector');
        }
        return;
      case 'step2':
        return this.onUpdate(conn, message.update, undefined);
      case 'update':
        return this.onUpdate(conn, message.update, data);
      case 'awareness':
        return this.onAwareness(conn, message.update, data);
      case 'queryAwareness': {
        const all = [...doc.awareness].map(([clientId, a]) => ({ clientId, clock: a.clock, state: a.state }));
        conn.send(encodeAwarenessMessage(encodeAwareness(all)));
        return;
      }
      default:
        return;
    }
  }

  /**
   * A writer's update: relayed to the document's other connections here at once (as
   * Hocuspocus and y-websocket's own server do), then stored; see `stored` for the rest.
   * `raw` is the message as received when it is already an update message.
   */
  private onUpdate(conn: Conn, update: Uint8Array, raw: Uint8Array | undefined) {
    if (conn.mode !== 'write') {
      // Read-only: dropped, never stored, never relayed.
      if (!isEmptyUpdate(update)) this.stats.updatesDroppedReadOnly++;
      return;
    }
    if (isEmptyUpdate(update)) return;
    let decoded: ReturnType<typeof Y.decodeUpdate>;
    try {
      decoded = Y.decodeUpdate(update); // well-formed, or it is never relayed nor stored
    } catch {
      return this.close(conn, CLOSE.malformed, 'malformed update');
    }
    conn.pendingBytes += update.length;
    if (conn.pendingBytes > this.opts.maxPendingBytes)
      return this.close(conn, CLOSE.tryLater, 'too many unsaved updates');
    const doc = conn.doc;
    const item: QueuedUpdate = { conn, doc, update, ack: conn.acks ? encodeStored(decoded) : undefined };
    doc.broadcast(raw ?? encodeUpdate(update), conn);
    doc.unstored.add(item);
    doc.pending++;
    this.writer(conn.user.tenantId).push(item);
  }

  private onAwareness(conn: Conn, update: Uint8Array, raw: Uint8Array) {
    const doc = conn.doc;
    let entries: AwarenessEntry[];
    try {
      entries = decodeAwareness(update);
    } catch {
      return this.close(conn, CLOSE.malformed, 'malformed awareness');
    }
    for (const e of entries)
      if (e.state.length > MAX_AWARENESS_STATE) return this.close(conn, CLOSE.tooBig, 'awareness state too big');
    const accepted = this.takeAwareness(doc, entries, conn.user.userId, conn);
    for (const e of accepted)
      if (e.state === 'null') conn.awarenessIds.delete(e.clientId);
      else if (doc.awareness.has(e.clientId)) conn.awarenessIds.add(e.clientId);
    if (!accepted.length) return;
    const relayed = accepted.length === entries.length ? update : encodeAwareness(accepted);
    doc.broadcast(relayed === update ? raw : encodeAwarenessMessage(relayed), conn);
    this.publish(doc, `a ${doc.uid} ${Buffer.from(relayed).toString('base64')} ${conn.user.userId}`);
  }

  /**
   * Applies awareness entries sent by `userId` (here or on another instance) and returns those
   * taken: an entry older than the one held is not, and neither is one for a client whose
   * fresh state another user sent — nobody moves someone else's cursor or renames them.
   */
  private takeAwareness(
    doc: LiveDoc,
    entries: AwarenessEntry[],
    userId: string | undefined,
    by?: Conn,
  ): AwarenessEntry[] {
    const now = Date.now();
    const taken: AwarenessEntry[] = [];
    for (const e of entries) {
      const cur = doc.awareness.get(e.clientId);
      if (cur && cur.clock > e.clock) continue;
      if (cur?.userId && userId && cur.userId !== userId && now - cur.at < AWARENESS_FRESH_MS) continue;
      if (e.state === 'null') doc.awareness.delete(e.clientId);
      else if (cur || doc.awareness.size < MAX_AWARENESS)
        doc.awareness.set(e.clientId, { clock: e.clock, state: e.state, at: now, userId, by });
      else continue;
      taken.push(e);
    }
    return taken;
  }

  // ---- storing and relaying ---------------------------------------------------------------

  private writer(tenantId: string) {
    let w = this.writers.get(tenantId);
    if (!w) {
      w = new TenantWriter(tenantId, this, this.opts.batchMs);
      this.writers.set(tenantId, w);
    }
    return w;
  }

  /**
   * Stores one batch, retrying briefly; resolves with the highest new seq per document, or
   * null when it could not be stored (or the server was aborted). Never rejects.
   */
  async persist(tenantId: string, batch: QueuedUpdate[]): Promise<Map<string, string[]> | null> {
    const items: NewUpdate[] = batch.map((i) => ({
      docName: i.doc.docName,
      userId: i.conn.user.userId,
      update: i.update,
      epoch: i.doc.epoch,
    }));
    const started = performance.now();
    for (let attempt = 0; ; attempt++) {
      if (this.aborted) return null;
      try {
        const seqs = await appendUpdates(this.deps.database, tenantId, items, {
          synchronousCommit: this.opts.synchronousCommit,
          timeoutMs: this.opts.appendTimeoutMs,
        });
        const ms = performance.now() - started;
        this.stats.batches++;
        this.stats.storeMs += ms;
        if (ms > this.stats.maxStoreMs) this.stats.maxStoreMs = ms;
        return seqs;
      } catch (err) {
        if (attempt >= 3 || this.aborted) {
          if (!this.aborted) {
            this.stats.storeFailures++;
            this.deps.log.error({ err, tenantId, updates: batch.length }, 'collab: updates could not be stored');
          }
          return null;
        }
        await new Promise((r) => setTimeout(r, 50 * 4 ** attempt));
      }
    }
  }

  /**
   * After a batch was stored — only then — applies each update to this instance's copy of its
   * document (so a sync answers with stored state only), acknowledges it to its sender as
   * stored and publishes it to the other instances. A batch that could not be stored is never
   * acknowledged: its connections are closed, and their clients send the updates again when
   * they reconnect (Yjs sync against the copy, which does not hold them); peers that got them
   * relayed hold them too and send them again the same way.
   */
  stored(batch: QueuedUpdate[], seqs: Map<string, string[]> | null) {
    if (this.aborted || !seqs) {
      const docs = new Set<LiveDoc>();
      for (const i of batch) {
        i.conn.pendingBytes -= i.update.length;
        i.doc.unstored.delete(i);
        // Stored or not, never acknowledged: allowed (the client sends it again when it reconnects).
        if (!this.aborted) this.close(i.conn, CLOSE.tryLater, 'storage unavailable');
        docs.add(i.doc);
        i.doc.settle();
      }
      // The peers got these updates relayed: a sync step 1 (what the copy holds) makes the
      // writers among them send back whatever the server lacks, their own or not.
      if (!this.aborted)
        for (const doc of docs) {
          if (doc.state !== 'live') continue;
          const ask = encodeSyncStep1(Y.encodeStateVector(doc.ydoc));
          for (const c of doc.conns) if (c.mode === 'write') c.send(ask);
        }
      return;
    }
    const byDoc = new Map<LiveDoc, QueuedUpdate[]>();
    for (const i of batch) {
      i.conn.pendingBytes -= i.update.length;
      i.doc.unstored.delete(i);
      const list = byDoc.get(i.doc);
      if (list) list.push(i);
      else byDoc.set(i.doc, [i]);
    }
    for (const [doc, items] of byDoc) {
      const docSeqs = seqs.get(doc.docName);
      if (!docSeqs?.length) {
        // Not stored: the document's epoch changed since it was loaded (restored, renewed).
        this.stats.staleUpdates += items.length;
        this.retire(doc);
        for (let k = 0; k < items.length; k++) doc.settle();
        byDoc.delete(doc);
      }
    }
    for (const items of byDoc.values()) this.stats.updatesStored += items.length;
    for (const [doc, items] of byDoc) {
      // One transaction per document and batch.
      doc.ydoc.transact(() => {
        for (const i of items)
          try {
            Y.applyUpdate(doc.ydoc, i.update, 'stored');
          } catch (err) {
            this.deps.log.error({ err, doc: doc.docName }, 'collab: a stored update could not be applied');
          }
      }, 'stored');
      for (const i of items) if (i.ack) i.conn.send(i.ack);
      doc.wrote(true);
      doc.rowsSinceCompact += items.length;
      const docSeqs = seqs.get(doc.docName) ?? [];
      for (const seq of docSeqs) doc.seen(seq);
      const body = items.map((i) => Buffer.from(i.update).toString('base64')).join(',');
      this.publish(doc, `u ${doc.uid} ${docSeqs.join(',')} ${body}`);
      for (let k = 0; k < items.length; k++) doc.settle();
    }
  }

  /**
   * The document's epoch changed under this copy (an operator renewed it, or its rows were
   * replaced): every connection is closed (4000) and the copy leaves memory with the last of
   * them; clients reconnect to a copy loaded under the new epoch, where Sprout's web client,
   * naming the old one, is refused (4409) and drops what it held.
   */
  private retire(doc: LiveDoc) {
    if (doc.retired) return;
    doc.retired = true;
    this.stats.retired++;
    this.deps.log.warn({ doc: doc.docName }, 'collab: the document got a new epoch; its connections reconnect');
    for (const c of [...doc.conns]) this.close(c, CLOSE.accessChanged, 'document replaced; reconnect');
  }

  private publish(doc: LiveDoc, message: string) {
    if (this.aborted) return;
    this.deps.kv.publish(doc.channel, message).catch((err: unknown) => {
      // The other instances catch up from the database (resync) if this one is lost.
      this.deps.log.warn({ err, doc: doc.docName }, 'collab: publish failed');
    });
  }

  /** A message from another instance on a document's channel. */
  private onChannel(doc: LiveDoc, message: string) {
    if (doc.state === 'closed') return;
    if (doc.state === 'loading') {
      doc.early.push(message);
      return;
    }
    // Its own messages come back too: skipped before the (long) update list is split.
    if (message.startsWith(doc.uid, 2)) return;
    const [kind = '', , a = '', b = ''] = message.split(' ');
    try {
      if (kind === 'u') {
        // The rows' seqs, one per update (an older instance sent only the highest: the rest are
        // read again by the next resync).
        for (const seq of a.split(',')) if (seq) doc.seen(seq);
        for (const part of b.split(',')) {
          if (!part) continue;
          const update = Buffer.from(part, 'base64');
          Y.applyUpdate(doc.ydoc, update, 'remote');
          doc.broadcast(encodeUpdate(update));
          doc.rowsSinceCompact++;
        }
        doc.wrote(false);
      } else if (kind === 'a') {
        const entries = decodeAwareness(Buffer.from(a, 'base64'));
        const taken = this.takeAwareness(doc, entries, b || undefined);
        if (taken.length) doc.broadcast(encodeAwarenessMessage(encodeAwareness(taken)));
      }
    } catch (err) {
      this.deps.log.warn({ err, doc: doc.docName }, 'collab: bad message from another instance');
    }
  }

  // ---- documents in memory ------------------------------------------------------------------

  private async acquire(tenantId: string, docName: string): Promise<LiveDoc> {
    const key = `${tenantId}/${docName}`;
    for (;;) {
      const closing = this.unloading.get(key);
      if (closing) {
        await closing;
        continue;
      }
      let doc = this.docs.get(key);
      if (!doc) {
        const fresh = new LiveDoc(key, tenantId, docName);
        fresh.trackKnown = this.periodicResync;
        this.docs.set(key, fresh);
        fresh.ready = this.load(fresh);
        doc = fresh;
      }
      doc.refs++;
      try {
        await doc.ready;
      } catch (err) {
        doc.refs--;
        if (this.docs.get(key) === doc) this.docs.delete(key);
        void doc.unsubscribe?.();
        doc.ydoc.destroy();
        throw err;
      }
      return doc;
    }
  }

  private release(doc: LiveDoc) {
    doc.refs--;
    if (doc.refs === 0 && doc.conns.size === 0 && doc.state === 'live') this.unload(doc);
  }

  /** Subscribes first, then reads: every update is either in what is read or arrives on the channel. */
  private async load(doc: LiveDoc) {
    doc.unsubscribe = await this.deps.kv.subscribe(doc.channel, (m) => this.onChannel(doc, m));
    const stored = await openStored(this.deps.database, doc.tenantId, doc.docName);
    this.applyStored(doc, stored);
    doc.epoch = stored.epoch;
    doc.stateSeq = stored.stateSeq;
    doc.seen(stored.seq);
    doc.floorSeq = doc.lastLookSeq = stored.seq;
    this.stats.loads++;
    doc.state = 'live';
    // Updates not in a revision yet (an instance stopped before its onIdle): save them once idle.
    if (BigInt(stored.seq) > BigInt(stored.revisionSeq) && stored.updates.length) {
      doc.wrote(true);
    }
    doc.rowsSinceCompact = stored.updates.length;
    for (const m of doc.early.splice(0)) this.onChannel(doc, m);
  }

  private applyStored(doc: LiveDoc, stored: StoredDoc) {
    for (const part of [stored.state, ...stored.updates.map((u) => u.data)]) {
      try {
        Y.applyUpdate(doc.ydoc, part, 'store');
      } catch (err) {
        this.deps.log.error({ err, doc: doc.docName }, 'collab: a stored update could not be applied');
      }
    }
  }

  private unload(doc: LiveDoc) {
    doc.state = 'closed';
    this.docs.delete(doc.key);
    const done = (async () => {
      await doc.drained();
      await doc.unsubscribe?.().catch(() => undefined);
      doc.ydoc.destroy();
      doc.awareness.clear();
    })();
    this.unloading.set(doc.key, done);
    void done.finally(() => {
      this.unloading.delete(doc.key);
      this.stats.unloads++;
      if (this.aborted) return;
      if (doc.dirty && doc.lastWasLocal) this.track(this.fireIdle(doc));
      if (doc.rowsSinceCompact > 0) this.queueCompaction(doc);
    });
  }

  // ---- revisions, compaction, resync --------------------------------------------------------

  private readonly background = new Set<Promise<unknown>>();

  /** Work the stop waits for (revisions saved at unload). */
  private track(p: Promise<unknown>) {
    this.background.add(p);
    void p.finally(() => this.background.delete(p));
  }

  private idleSweep() {
    const now = Date.now();
    for (const doc of this.docs.values()) {
      if (!doc.dirty || doc.state !== 'live' || now - doc.lastWriteAt < this.opts.idleMs || doc.pending) continue;
      if (doc.lastWasLocal) this.track(this.fireIdle(doc));
      else doc.dirty = false; // the instance that stored the last update saves it
    }
  }

  private async fireIdle(doc: LiveDoc) {
    doc.dirty = false;
    const onIdle = this.opts.onIdle;
    if (!onIdle) return;
    try {
      const rows = await readInTenant<{ user_id: string }>(
        this.deps.database,
        { tenantId: doc.tenantId },
        authorsSince(doc.tenantId, doc.docName).compile(this.deps.database.db),
      );
      if (rows.length)
        await onIdle(
          doc.docName,
          doc.tenantId,
          rows.map((r) => r.user_id),
        );
    } catch (err) {
      this.deps.log.error({ err, doc: doc.docName }, 'collab: onIdle failed');
    }
  }

  private queueCompaction(doc: LiveDoc | { tenantId: string; docName: string }) {
    this.compactQueue.set(`${doc.tenantId}/${doc.docName}`, doc);
    if (!this.compacting) void this.runCompactions();
  }

  private compactDue() {
    for (const doc of this.docs.values())
      if (doc.state === 'live' && doc.rowsSinceCompact >= this.opts.compactMinRows) this.queueCompaction(doc);
  }

  private async runCompactions() {
    this.compacting = true;
    try {
      for (const [key, doc] of this.compactQueue) {
        this.compactQueue.delete(key);
        if (this.aborted) return;
        if (doc instanceof LiveDoc) doc.rowsSinceCompact = 0;
        try {
          const { merged, fromSeq, stateSeq } = await compactStored(this.deps.database, doc.tenantId, doc.docName);
          // This copy holds the new state entirely when it held the old one and every row merged
          // into it; otherwise the next resync reads the state.
          if (doc instanceof LiveDoc && merged.length && fromSeq === doc.stateSeq) {
            const floor = Number(doc.floorSeq);
            if (merged.every((seq) => Number(seq) <= floor || doc.known.has(Number(seq)))) doc.stateSeq = stateSeq;
          }
          if (merged.length > 0) this.stats.compactions++;
        } catch (err) {
          this.deps.log.warn({ err, doc: doc.docName }, 'collab: compaction failed (retried later)');
        }
      }
    } finally {
      this.compacting = false;
    }
  }

  /** Compacts every document with unmerged rows now (tests, shutdown). */
  async compactNow() {
    for (const doc of this.docs.values()) if (doc.rowsSinceCompact > 0) this.queueCompaction(doc);
    while (this.compacting || this.compactQueue.size) {
      if (!this.compacting) await this.runCompactions();
      else await new Promise((r) => setTimeout(r, 10));
    }
  }

  private resyncing = false;

  /** Runs the periodic resync now (tests). */
  async resyncNow() {
    while (this.resyncing) await new Promise((r) => setTimeout(r, 10));
    await this.resyncAll();
  }

  private async resyncAll() {
    if (this.resyncing) return;
    this.resyncing = true;
    try {
      await this.resyncLive(true);
    } finally {
      this.resyncing = false;
    }
  }

  /** Resyncs the live documents (of one tenant, or all), per tenant, 500 to a round trip. */
  private async resyncLive(advance: boolean, tenantId?: string) {
    const byTenant = new Map<string, LiveDoc[]>();
    for (const doc of this.docs.values()) {
      if (doc.state !== 'live' || (tenantId && doc.tenantId !== tenantId)) continue;
      const list = byTenant.get(doc.tenantId);
      if (list) list.push(doc);
      else byTenant.set(doc.tenantId, [doc]);
    }
    for (const [tenant, docs] of byTenant)
      for (let i = 0; i < docs.length; i += 500) await this.resync(tenant, docs.slice(i, i + 500), advance);
  }

  /**
   * The safety net under pub/sub, for one tenant's documents in one round trip: lists the
   * update rows stored since each document's floor (two looks ago), and reads only those this
   * copy does not hold — and the compacted state, when one it does not hold entirely was
   * written since. What is new to the copy is relayed to its connections (applying an update
   * twice changes nothing). Only the periodic resync (`advance`) moves the floor up, and not
   * for a document one of whose rows vanished meanwhile (compacted: its state is read next time).
   */
  private async resync(tenantId: string, docs: LiveDoc[], advance: boolean) {
    const looks = docs.map((d) => d.seenSeq);
    const floor = docs.reduce(
      (min, d) => (BigInt(d.floorSeq) < BigInt(min) ? d.floorSeq : min),
      docs[0]?.floorSeq ?? '0',
    );
    const byName = new Map(docs.map((d) => [d.docName, d]));
    const names = [...byName.keys()];
    const db = this.deps.database;
    try {
      const listed = await readInTenant<{ part: number; doc_name: string; seq: string }>(
        db,
        { tenantId },
        sql<{ part: number; doc_name: string; seq: string }>`
          select 0 as part, doc_name, state_seq::text as seq from collab_doc
            where tenant_id = ${tenantId} and doc_name = any(${names}::text[]) and state_seq > ${floor}
          union all
          select 1, doc_name, seq::text from collab_update
            where tenant_id = ${tenantId} and doc_name = any(${names}::text[]) and seq > ${floor}
          union all
          select 2, doc_name, epoch from collab_doc
            where tenant_id = ${tenantId} and doc_name = any(${names}::text[])`.compile(db.db),
      );
      // This instance's own rows committed before the listing are in `known` once their batch
      // is through (a moment later): not read for nothing.
      await this.writers.get(tenantId)?.idle();
      const states: string[] = [];
      const missing = new Map<string, LiveDoc>();
      const renewed = new Set<LiveDoc>();
      for (const r of listed) {
        const doc = byName.get(r.doc_name);
        if (doc && Number(r.part) === 2) {
          if (r.seq !== doc.epoch) renewed.add(doc);
          continue;
        }
        if (!doc || BigInt(r.seq) <= BigInt(doc.floorSeq)) continue;
        if (Number(r.part) === 0) {
          if (r.seq !== doc.stateSeq) states.push(r.doc_name);
        } else if (!doc.known.has(Number(r.seq))) missing.set(r.seq, doc);
      }
      const rows =
        states.length || missing.size
          ? await readInTenant<{ part: number; doc_name: string; seq: string; data: Uint8Array }>(
              db,
              { tenantId },
              sql<{ part: number; doc_name: string; seq: string; data: Uint8Array }>`
                select 0 as part, doc_name, state_seq::text as seq, state as data from collab_doc
                  where tenant_id = ${tenantId} and doc_name = any(${states}::text[])
                union all
                select 1, doc_name, seq::text, update from collab_update
                  where tenant_id = ${tenantId} and seq = any(${[...missing.keys()]}::bigint[])
                order by 1, 3`.compile(db.db),
            )
          : [];
      const fetched = new Map<LiveDoc, Array<{ part: number; seq: string; data: Uint8Array }>>();
      for (const r of rows) {
        const doc = byName.get(r.doc_name);
        if (!doc) continue;
        if (Number(r.part) === 1) missing.delete(r.seq);
        const list = fetched.get(doc);
        if (list) list.push(r);
        else fetched.set(doc, [r]);
      }
      const vanished = new Set(missing.values());
      docs.forEach((doc, i) => {
        if (doc.state !== 'live') return;
        // Another history now (an operator renewed the epoch): nothing of it goes to this copy's clients.
        if (renewed.has(doc)) {
          this.retire(doc);
          return;
        }
        const got = fetched.get(doc);
        if (got) this.applyResynced(doc, got);
        if (!advance || vanished.has(doc)) return;
        doc.floorSeq = doc.lastLookSeq;
        doc.lastLookSeq = looks[i] as string;
        const floorNo = Number(doc.floorSeq);
        for (const seq of doc.known) if (seq <= floorNo) doc.known.delete(seq);
      });
    } catch (err) {
      this.deps.log.warn({ err, tenantId, docs: docs.length }, 'collab: resync failed');
    }
  }

  private applyResynced(doc: LiveDoc, rows: Array<{ part: number; seq: string; data: Uint8Array }>) {
    this.stats.resyncRows += rows.length;
    const fresh: Uint8Array[] = [];
    const collect = (u: Uint8Array, origin: unknown) => {
      if (origin === 'resync') fresh.push(u);
    };
    doc.ydoc.on('update', collect);
    try {
      for (const r of rows) {
        if (Number(r.part) === 0) doc.stateSeq = bigger(doc.stateSeq, r.seq);
        else doc.seen(r.seq);
        try {
          Y.applyUpdate(doc.ydoc, r.data, 'resync');
        } catch (err) {
          this.deps.log.error({ err, doc: doc.docName }, 'collab: a stored update could not be applied');
        }
      }
    } finally {
      doc.ydoc.off('update', collect);
    }
    for (const u of fresh) doc.broadcast(encodeUpdate(u));
    if (fresh.length) doc.wrote(false);
  }

  /**
   * Control messages from any instance (or the API): a record changed → re-check access and
   * catch up; epochs renewed → every loaded document looks at its epoch (and catches up).
   */
  private onControl(message: string) {
    let m: { t?: string; tenantId?: string; docName?: string };
    try {
      m = JSON.parse(message) as typeof m;
    } catch {
      return;
    }
    if (m.t === 'epoch') {
      void this.resyncLive(false, m.tenantId);
      return;
    }
    if (m.t !== 'doc' || !m.tenantId || !m.docName) return;
    const doc = this.docs.get(`${m.tenantId}/${m.docName}`);
    if (doc?.state !== 'live') return;
    for (const c of doc.conns) this.recheckPending.add(c);
    this.scheduleRecheck();
    void this.resync(doc.tenantId, [doc], false);
  }

  private scheduleRecheck() {
    if (this.recheckTimer || !this.recheckPending.size) return;
    this.recheckTimer = later(() => {
      this.recheckTimer = undefined;
      void this.recheck();
    }, 20);
  }

  private async recheck() {
    const conns = [...this.recheckPending];
    this.recheckPending.clear();
    for (const c of conns) {
      if (c.closed) continue;
      let access: DocAccess;
      try {
        access = await this.opts.access(c.user, c.doc.docName);
      } catch (err) {
        this.deps.log.warn({ err }, 'collab: access re-check failed');
        continue;
      }
      if (c.closed) continue;
      if (access === null) this.close(c, CLOSE.forbidden, 'access revoked');
      else if (access !== c.mode) this.close(c, CLOSE.accessChanged, `access changed to ${access}; reconnect`);
    }
    this.scheduleRecheck();
  }

  // ---- liveness and shutdown ----------------------------------------------------------------

  private lastPing = Date.now();

  private keepAlive() {
    const now = Date.now();
    const ping = now - this.lastPing >= PING_MS;
    if (ping) this.lastPing = now;
    for (const c of this.conns) {
      if (ping) {
        if (!c.alive) {
          c.socket.terminate();
          this.detach(c);
          continue;
        }
        c.alive = false;
        try {
          c.socket.ping();
        } catch {
          // closing already
        }
      }
      if (now - c.lastSend > this.opts.keepAliveMs) c.send(EMPTY_AWARENESS);
    }
  }

  /** Waits until everything received so far is stored, acknowledged and published. */
  async flush() {
    await Promise.all([...this.writers.values()].map((w) => w.idle()));
  }

  /**
   * Graceful stop: refuses new connections, stores everything received, closes
   * every connection with 1001 (clients reconnect, to another instance), unloads every
   * document (saving idle revisions), then stops following the store.
   */
  async stop() {
    if (this.stopping) return;
    this.stopping = true;
    await this.flush();
    for (const c of [...this.conns]) this.close(c, CLOSE.goingAway, 'server stopping');
    await Promise.all([...this.unloading.values()]);
    while (this.background.size) await Promise.all([...this.background]);
    // Not compacted now (a stop must be quick): a document's rows are merged when it is next
    // opened and left, or by the periodic compaction.
    this.compactQueue.clear();
    while (this.compacting) await new Promise((r) => setTimeout(r, 10));
    await this.shutdown();
  }

  /**
   * A crash, for tests: sockets are cut, nothing queued is stored or acknowledged, no
   * revision is saved, nothing is compacted. What was acknowledged before is in the database.
   */
  async abort() {
    this.stopping = true;
    this.aborted = true;
    for (const w of this.writers.values())
      for (const i of w.drop()) {
        i.doc.unstored.delete(i);
        i.doc.settle();
      }
    for (const c of [...this.conns]) {
      c.socket.terminate();
      this.detach(c);
    }
    await this.shutdown();
  }

  private async shutdown() {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    clearTimeout(this.recheckTimer);
    for (const cleanup of this.cleanups.splice(0)) await cleanup();
    for (const doc of this.docs.values()) await doc.unsubscribe?.().catch(() => undefined);
  }
}

/**
 * Tells every collab instance that a record's document changed outside a live session (its
 * status, its content written through the API, its co-authors): connections re-check their
 * access (a submitted week becomes read-only) and documents catch up from the database.
 * Call after the transaction has committed.
 */
export async function notifyDocChanged(kv: KeyValueStore, tenantId: string, docName: string) {
  await kv.publish(CONTROL_CHANNEL, JSON.stringify({ t: 'doc', tenantId, docName }));
}

/**
 * Tells every collab instance that documents got new epochs (`renewEpoch`; `tenantId`: only
 * that tenant's): each loaded document compares its epoch with the database's, and one that
 * changed closes its connections and leaves memory. Without it a loaded document notices
 * with its next write (never stored) or its next periodic resync (Redis mode).
 */
export async function notifyEpochRenewed(kv: KeyValueStore, tenantId?: string) {
  await kv.publish(CONTROL_CHANNEL, JSON.stringify({ t: 'epoch', tenantId }));
}
