import { sql } from 'kysely';
import * as Y from 'yjs';
import { readInTenant } from '@sprout/core/db';
import type { KeyValueStore } from '@sprout/core/kv';
import type { LiveDoc } from './documents';
import { bigger } from './options';
import { encodeUpdate } from './protocol';
import type { CollabContext } from './server';

const CONTROL_CHANNEL = 'collab-control';

/**
 * Instances serving the same documents keep each other up to date through the key-value
 * store's pub/sub: a document's channel carries its stored updates (`u <uid> <seqs>
 * <updates>`) and awareness (`a <uid> <update> <userId>`), the control channel tells of
 * records changed and epochs renewed. Under it, the periodic resync (Redis mode) reads from
 * the database only the rows a copy lacks: pub/sub may lose messages while Redis reconnects.
 */
export class FanOut {
  private resyncing = false;

  constructor(private readonly ctx: CollabContext) {}

  /** Loaded documents look for what pub/sub lost every `resyncMs` (Redis mode). */
  get periodicResync() {
    return this.ctx.deps.kv.kind === 'redis' && this.ctx.opts.resyncMs > 0;
  }

  /** Follows the control channel; resolves with how to stop. */
  followControl() {
    return this.ctx.deps.kv.subscribe(CONTROL_CHANNEL, (m) => this.onControl(m));
  }

  /** Follows a document's channel; resolves with how to stop. */
  follow(doc: LiveDoc) {
    return this.ctx.deps.kv.subscribe(doc.channel, (m) => this.onChannel(doc, m));
  }

  /** Stored updates of a document, with their rows' seqs (one each). */
  publishUpdates(doc: LiveDoc, seqs: string[], updates: Uint8Array[]) {
    const body = updates.map((u) => Buffer.from(u).toString('base64')).join(',');
    this.publish(doc, `u ${doc.uid} ${seqs.join(',')} ${body}`);
  }

  /** An awareness update a client of `userId` sent (or its leaving). */
  publishAwareness(doc: LiveDoc, update: Uint8Array, userId: string) {
    this.publish(doc, `a ${doc.uid} ${Buffer.from(update).toString('base64')} ${userId}`);
  }

  private publish(doc: LiveDoc, message: string) {
    if (this.ctx.aborted) return;
    this.ctx.deps.kv.publish(doc.channel, message).catch((err: unknown) => {
      // The other instances catch up from the database (resync) if this one is lost.
      this.ctx.deps.log.warn({ err, doc: doc.docName }, 'collab: publish failed');
    });
  }

  /** A message from another instance on a document's channel. */
  onChannel(doc: LiveDoc, message: string) {
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
        this.ctx.presence.fromPeer(doc, Buffer.from(a, 'base64'), b || undefined);
      }
    } catch (err) {
      this.ctx.deps.log.warn({ err, doc: doc.docName }, 'collab: bad message from another instance');
    }
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
    const doc = this.ctx.documents.get(m.tenantId, m.docName);
    if (doc?.state !== 'live') return;
    this.ctx.connections.recheckDoc(doc);
    void this.resync(doc.tenantId, [doc], false);
  }

  /** Runs the periodic resync now (tests). */
  async resyncNow() {
    while (this.resyncing) await new Promise((r) => setTimeout(r, 10));
    await this.resyncAll();
  }

  /** The periodic resync (skipped while one is running). */
  async resyncAll() {
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
    for (const doc of this.ctx.documents.all()) {
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
    const db = this.ctx.deps.database;
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
      await this.ctx.persistence.flushTenant(tenantId);
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
          this.ctx.documents.retire(doc);
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
      this.ctx.deps.log.warn({ err, tenantId, docs: docs.length }, 'collab: resync failed');
    }
  }

  private applyResynced(doc: LiveDoc, rows: Array<{ part: number; seq: string; data: Uint8Array }>) {
    this.ctx.stats.resyncRows += rows.length;
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
          this.ctx.deps.log.error({ err, doc: doc.docName }, 'collab: a stored update could not be applied');
        }
      }
    } finally {
      doc.ydoc.off('update', collect);
    }
    for (const u of fresh) doc.broadcast(encodeUpdate(u));
    if (fresh.length) doc.wrote(false);
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
