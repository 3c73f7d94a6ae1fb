import { randomBytes } from 'node:crypto';
import * as Y from 'yjs';
import type { Conn } from './connections';
import { bigger } from './options';
import type { QueuedUpdate } from './persistence';
import { CLOSE } from './protocol';
import type { CollabContext } from './server';
import { openStored, type StoredDoc } from './store';

/** A document in this instance's memory, with its connections. */
export class LiveDoc {
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

/**
 * The documents in this instance's memory: one is loaded when its first connection comes
 * (subscribed to its channel, then read from the database) and unloaded when the last one
 * leaves, once everything it received is stored.
 */
export class Documents {
  private readonly docs = new Map<string, LiveDoc>();
  private readonly unloading = new Map<string, Promise<void>>();

  constructor(private readonly ctx: CollabContext) {}

  /** Documents in memory now, loaded or unloading. */
  get count() {
    return this.docs.size + this.unloading.size;
  }

  /** Nothing is being unloaded, and no document has updates queued or being stored. */
  get quiet() {
    return this.unloading.size === 0 && [...this.docs.values()].every((d) => d.pending === 0);
  }

  /** The documents in memory, loading or live (not those unloading). */
  all() {
    return this.docs.values();
  }

  get(tenantId: string, docName: string) {
    return this.docs.get(`${tenantId}/${docName}`);
  }

  /** Resolves once the documents unloading now have left memory. */
  unloaded() {
    return Promise.all([...this.unloading.values()]);
  }

  async acquire(tenantId: string, docName: string): Promise<LiveDoc> {
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
        fresh.trackKnown = this.ctx.fanOut.periodicResync;
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

  release(doc: LiveDoc) {
    doc.refs--;
    if (doc.refs === 0 && doc.conns.size === 0 && doc.state === 'live') this.unload(doc);
  }

  /** Subscribes first, then reads: every update is either in what is read or arrives on the channel. */
  private async load(doc: LiveDoc) {
    doc.unsubscribe = await this.ctx.fanOut.follow(doc);
    const stored = await openStored(this.ctx.deps.database, doc.tenantId, doc.docName);
    this.applyStored(doc, stored);
    doc.epoch = stored.epoch;
    doc.stateSeq = stored.stateSeq;
    doc.seen(stored.seq);
    doc.floorSeq = doc.lastLookSeq = stored.seq;
    this.ctx.stats.loads++;
    doc.state = 'live';
    // Updates not in a revision yet (an instance stopped before its onIdle): save them once idle.
    if (BigInt(stored.seq) > BigInt(stored.revisionSeq) && stored.updates.length) {
      doc.wrote(true);
    }
    doc.rowsSinceCompact = stored.updates.length;
    for (const m of doc.early.splice(0)) this.ctx.fanOut.onChannel(doc, m);
  }

  private applyStored(doc: LiveDoc, stored: StoredDoc) {
    for (const part of [stored.state, ...stored.updates.map((u) => u.data)]) {
      try {
        Y.applyUpdate(doc.ydoc, part, 'store');
      } catch (err) {
        this.ctx.deps.log.error({ err, doc: doc.docName }, 'collab: a stored update could not be applied');
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
      this.ctx.stats.unloads++;
      if (this.ctx.aborted) return;
      this.ctx.persistence.unloaded(doc);
    });
  }

  /**
   * The document's epoch changed under this copy (an operator renewed it, or its rows were
   * replaced): every connection is closed (4000) and the copy leaves memory with the last of
   * them; clients reconnect to a copy loaded under the new epoch, where Sprout's web client,
   * naming the old one, is refused (4409) and drops what it held.
   */
  retire(doc: LiveDoc) {
    if (doc.retired) return;
    doc.retired = true;
    this.ctx.stats.retired++;
    this.ctx.deps.log.warn({ doc: doc.docName }, 'collab: the document got a new epoch; its connections reconnect');
    for (const c of [...doc.conns]) this.ctx.connections.close(c, CLOSE.accessChanged, 'document replaced; reconnect');
  }

  /** Stops following every document's channel (shutdown). */
  async unsubscribeAll() {
    for (const doc of this.docs.values()) await doc.unsubscribe?.().catch(() => undefined);
  }
}
