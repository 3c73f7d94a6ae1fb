import type { WebSocket } from 'ws';
import { type Admission, Connections, type RawStream, type WatchSources } from './connections';
import { Documents } from './documents';
import { FanOut } from './fan-out';
import {
  type CollabDeps,
  type CollabOptions,
  type CollabStats,
  every,
  newStats,
  type Settings,
  withDefaults,
} from './options';
import { Persistence } from './persistence';
import { Presence } from './presence';
import { CLOSE } from './protocol';
import { Sync } from './sync';

export type { Admission, RawStream } from './connections';
export { notifyDocChanged, notifyEpochRenewed } from './fan-out';
export type { CollabDeps, CollabOptions } from './options';

/**
 * What the parts of one server share, as Hocuspocus hands its extensions the instance:
 * dependencies, settings, counters, whether it is stopping — and each other, so a part asks
 * another for what that one does (connections ask sync to answer a message, sync asks
 * persistence to store an update, …). A part only keeps it when built; it calls the others later.
 */
export class CollabContext {
  /** New connections are refused (stop or abort). */
  stopping = false;
  /** A crash, for tests: nothing more is stored, acknowledged, published, saved or compacted. */
  aborted = false;
  readonly stats = newStats();
  /** Upgrade, admission, per-socket state, close codes, access re-checks, pings. */
  readonly connections: Connections;
  /** The documents in memory: loading, unloading, retiring. */
  readonly documents: Documents;
  /** The y-websocket sync steps, the stored acknowledgement (100) and the epoch (101). */
  readonly sync: Sync;
  /** Group commit per tenant, revisions once idle, compaction. */
  readonly persistence: Persistence;
  /** Pub/sub across instances, control messages, the periodic resync. */
  readonly fanOut: FanOut;
  /** Awareness states (cursors, names): who owns them, what newcomers hear, keep-alives. */
  readonly presence: Presence;

  constructor(
    readonly deps: CollabDeps,
    readonly opts: Settings,
  ) {
    this.connections = new Connections(this);
    this.documents = new Documents(this);
    this.sync = new Sync(this);
    this.persistence = new Persistence(this);
    this.fanOut = new FanOut(this);
    this.presence = new Presence(this);
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
 *
 * Made of parts, as Hocuspocus is of extensions: connections, sync, persistence, fan-out and
 * presence (see CollabContext); this class starts and stops them.
 */
export class CollabServer {
  private readonly ctx: CollabContext;
  private timers: NodeJS.Timeout[] = [];
  private cleanups: Array<() => unknown> = [];

  /** Counters for tests and monitoring. */
  readonly stats: CollabStats;

  constructor(deps: CollabDeps, opts: CollabOptions) {
    this.ctx = new CollabContext(deps, withDefaults(opts));
    this.stats = this.ctx.stats;
  }

  /** Documents in memory now (tests: the map must empty when the last client leaves). */
  get documentCount() {
    return this.ctx.documents.count;
  }

  /** Updates received and not yet stored, over every document in memory. */
  get pendingStores() {
    let n = 0;
    for (const doc of this.ctx.documents.all()) n += doc.pending;
    return n;
  }

  get connectionCount() {
    return this.ctx.connections.count;
  }

  /** Nothing is being stored, unloaded or compacted in the background now. */
  get quiet() {
    return this.ctx.persistence.quiet && this.ctx.documents.quiet;
  }

  async start() {
    const { connections, persistence, fanOut, opts } = this.ctx;
    this.cleanups.push(await fanOut.followControl());
    this.timers.push(every(() => connections.keepAlive(), Math.min(5_000, opts.keepAliveMs / 3)));
    this.timers.push(every(() => persistence.compactDue(), opts.compactIntervalMs));
    if (opts.onIdle) this.timers.push(every(() => persistence.idleSweep(), Math.min(1000, opts.idleMs)));
    if (fanOut.periodicResync) this.timers.push(every(() => void fanOut.resyncAll(), opts.resyncMs));
  }

  /**
   * Follows session revocations and permission changes: a revoked session's connections are
   * closed; after a permission change every affected connection's access is decided again
   * (closed when it has none left, or when it changed between read-write and read-only, so the
   * client reconnects in its new mode).
   */
  watch(sources: WatchSources) {
    this.cleanups.push(...this.ctx.connections.watch(sources));
  }

  /**
   * Takes over an upgraded socket: buffers what the client sends while `admit` decides
   * (token, tenant, access), then joins the document or closes with the refusal's code.
   */
  accept(socket: WebSocket, admit: () => Promise<Admission>, raw?: RawStream) {
    this.ctx.connections.accept(socket, admit, raw);
  }

  /** Waits until everything received so far is stored, acknowledged and published. */
  flush() {
    return this.ctx.persistence.flush();
  }

  /** Compacts every document with unmerged rows now (tests, shutdown). */
  compactNow() {
    return this.ctx.persistence.compactNow();
  }

  /** Runs the periodic resync now (tests). */
  resyncNow() {
    return this.ctx.fanOut.resyncNow();
  }

  /**
   * Graceful stop: refuses new connections and takes no update any more (a client sends an
   * update it was never acknowledged again where it reconnects), stores everything received
   * before, closes every connection with 1001 (clients reconnect, to another instance), unloads
   * every document (saving idle revisions), then stops following the store. Bounded whatever
   * clients keep sending; the plugin then ends the sockets (see `createCollabPlugin`).
   */
  async stop() {
    const { ctx } = this;
    if (ctx.stopping) return;
    ctx.stopping = true;
    await ctx.persistence.flush();
    ctx.connections.closeAll(CLOSE.goingAway, 'server stopping');
    await ctx.documents.unloaded();
    await ctx.persistence.settled();
    // Not compacted now (a stop must be quick): a document's rows are merged when it is next
    // opened and left, or by the periodic compaction.
    await ctx.persistence.stopCompacting();
    await this.shutdown();
  }

  /**
   * A crash, for tests: sockets are cut, nothing queued is stored or acknowledged, no
   * revision is saved, nothing is compacted. What was acknowledged before is in the database.
   */
  async abort() {
    const { ctx } = this;
    ctx.stopping = true;
    ctx.aborted = true;
    ctx.persistence.dropQueued();
    ctx.connections.cutAll();
    await this.shutdown();
  }

  private async shutdown() {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.ctx.connections.shutdown();
    for (const cleanup of this.cleanups.splice(0)) await cleanup();
    await this.ctx.documents.unsubscribeAll();
  }
}
