import { readInTenant } from '@sprout/core/db';
import type { Conn } from './connections';
import { LiveDoc } from './documents';
import { later } from './options';
import type { CollabContext } from './server';
import { appendUpdates, authorsSince, compactStored, type NewUpdate } from './store';

export interface QueuedUpdate {
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
    private readonly ctx: CollabContext,
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
      const stored = this.ctx.persistence.persist(this.tenantId, batch);
      this.tail = this.tail.then(async () => {
        try {
          this.ctx.sync.stored(batch, await stored);
        } catch (err) {
          // Never stops the tenant's writer (the next batches chain on this one).
          this.ctx.deps.log.error({ err }, 'collab: handling a stored batch failed');
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
 * Everything the database keeps of live documents, in the background of the sync: updates
 * appended in batches per tenant (retried, timed out, handed to sync once stored), the
 * revision the API saves once a document is idle (`onIdle`), and compaction of update rows
 * into the document's state.
 */
export class Persistence {
  private readonly writers = new Map<string, TenantWriter>();
  private readonly compactQueue = new Map<string, LiveDoc | { tenantId: string; docName: string }>();
  private compacting = false;
  private readonly background = new Set<Promise<unknown>>();

  constructor(private readonly ctx: CollabContext) {}

  /** Nothing is being compacted or saved as a revision in the background now. */
  get quiet() {
    return !this.compacting && this.compactQueue.size === 0 && this.background.size === 0;
  }

  /** Queues an update (relayed already) to be stored; until it is, newcomers get it with their sync. */
  store(item: QueuedUpdate) {
    item.doc.unstored.add(item);
    item.doc.pending++;
    this.writer(item.conn.user.tenantId).push(item);
  }

  /** Waits until everything received so far is stored, acknowledged and published. */
  async flush() {
    await Promise.all([...this.writers.values()].map((w) => w.idle()));
  }

  /** The same for one tenant (none when it never stored anything here). */
  flushTenant(tenantId: string): Promise<void> | undefined {
    return this.writers.get(tenantId)?.idle();
  }

  /** Forgets every update not yet being stored (abort). */
  dropQueued() {
    for (const w of this.writers.values())
      for (const i of w.drop()) {
        i.doc.unstored.delete(i);
        i.doc.settle();
      }
  }

  private writer(tenantId: string) {
    let w = this.writers.get(tenantId);
    if (!w) {
      w = new TenantWriter(tenantId, this.ctx, this.ctx.opts.batchMs);
      this.writers.set(tenantId, w);
    }
    return w;
  }

  /**
   * Stores one batch, retrying briefly; resolves with the new seqs per document, or null when
   * it could not be stored (or the server was aborted). Never rejects.
   */
  async persist(tenantId: string, batch: QueuedUpdate[]): Promise<Map<string, string[]> | null> {
    const { ctx } = this;
    const items: NewUpdate[] = batch.map((i) => ({
      docName: i.doc.docName,
      userId: i.conn.user.userId,
      update: i.update,
      epoch: i.doc.epoch,
    }));
    const started = performance.now();
    for (let attempt = 0; ; attempt++) {
      if (ctx.aborted) return null;
      try {
        const seqs = await appendUpdates(ctx.deps.database, tenantId, items, {
          synchronousCommit: ctx.opts.synchronousCommit,
          timeoutMs: ctx.opts.appendTimeoutMs,
        });
        const ms = performance.now() - started;
        ctx.stats.batches++;
        ctx.stats.storeMs += ms;
        if (ms > ctx.stats.maxStoreMs) ctx.stats.maxStoreMs = ms;
        return seqs;
      } catch (err) {
        if (attempt >= 3 || ctx.aborted) {
          if (!ctx.aborted) {
            ctx.stats.storeFailures++;
            ctx.deps.log.error({ err, tenantId, updates: batch.length }, 'collab: updates could not be stored');
          }
          return null;
        }
        await new Promise((r) => setTimeout(r, 50 * 4 ** attempt));
      }
    }
  }

  // ---- revisions ----------------------------------------------------------------------------

  /** Work the stop waits for (revisions saved at unload). */
  private track(p: Promise<unknown>) {
    this.background.add(p);
    void p.finally(() => this.background.delete(p));
  }

  /** Resolves once the revisions being saved in the background are (stop). */
  async settled() {
    while (this.background.size) await Promise.all([...this.background]);
  }

  /** A document left memory: its revision is saved if this instance stored its last update, and its rows compacted. */
  unloaded(doc: LiveDoc) {
    if (doc.dirty && doc.lastWasLocal) this.track(this.fireIdle(doc));
    // Not while stopping (a stop must be quick): merged when it is next opened and left, or periodically.
    if (doc.rowsSinceCompact > 0 && !this.ctx.stopping) this.queueCompaction(doc);
  }

  idleSweep() {
    const now = Date.now();
    for (const doc of this.ctx.documents.all()) {
      if (!doc.dirty || doc.state !== 'live' || now - doc.lastWriteAt < this.ctx.opts.idleMs || doc.pending) continue;
      if (doc.lastWasLocal) this.track(this.fireIdle(doc));
      else doc.dirty = false; // the instance that stored the last update saves it
    }
  }

  private async fireIdle(doc: LiveDoc) {
    doc.dirty = false;
    const { deps, opts } = this.ctx;
    const onIdle = opts.onIdle;
    if (!onIdle) return;
    try {
      const rows = await readInTenant<{ user_id: string }>(
        deps.database,
        { tenantId: doc.tenantId },
        authorsSince(doc.tenantId, doc.docName).compile(deps.database.db),
      );
      if (rows.length)
        await onIdle(
          doc.docName,
          doc.tenantId,
          rows.map((r) => r.user_id),
        );
    } catch (err) {
      deps.log.error({ err, doc: doc.docName }, 'collab: onIdle failed');
    }
  }

  // ---- compaction ---------------------------------------------------------------------------

  private queueCompaction(doc: LiveDoc | { tenantId: string; docName: string }) {
    this.compactQueue.set(`${doc.tenantId}/${doc.docName}`, doc);
    if (!this.compacting) void this.runCompactions();
  }

  compactDue() {
    for (const doc of this.ctx.documents.all())
      if (doc.state === 'live' && doc.rowsSinceCompact >= this.ctx.opts.compactMinRows) this.queueCompaction(doc);
  }

  private async runCompactions() {
    this.compacting = true;
    try {
      for (const [key, doc] of this.compactQueue) {
        this.compactQueue.delete(key);
        if (this.ctx.aborted) return;
        if (doc instanceof LiveDoc) doc.rowsSinceCompact = 0;
        try {
          const { merged, fromSeq, stateSeq } = await compactStored(this.ctx.deps.database, doc.tenantId, doc.docName);
          // This copy holds the new state entirely when it held the old one and every row merged
          // into it; otherwise the next resync reads the state.
          if (doc instanceof LiveDoc && merged.length && fromSeq === doc.stateSeq) {
            const floor = Number(doc.floorSeq);
            if (merged.every((seq) => Number(seq) <= floor || doc.known.has(Number(seq)))) doc.stateSeq = stateSeq;
          }
          if (merged.length > 0) this.ctx.stats.compactions++;
        } catch (err) {
          this.ctx.deps.log.warn({ err, doc: doc.docName }, 'collab: compaction failed (retried later)');
        }
      }
    } finally {
      this.compacting = false;
    }
  }

  /** Compacts every document with unmerged rows now (tests, shutdown). */
  async compactNow() {
    for (const doc of this.ctx.documents.all()) if (doc.rowsSinceCompact > 0) this.queueCompaction(doc);
    while (this.compacting || this.compactQueue.size) {
      if (!this.compacting) await this.runCompactions();
      else await new Promise((r) => setTimeout(r, 10));
    }
  }

  /**
   * Drops the compactions not started and waits for the one running (stop): a stop must be
   * quick, and a document's rows are merged when it is next opened and left, or by the
   * periodic compaction.
   */
  async stopCompacting() {
    this.compactQueue.clear();
    while (this.compacting) await new Promise((r) => setTimeout(r, 10));
  }
}
