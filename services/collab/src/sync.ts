import * as Y from 'yjs';
import type { Conn } from './connections';
import type { LiveDoc } from './documents';
import type { QueuedUpdate } from './persistence';
import {
  CLOSE,
  decodeMessage,
  encodeEpoch,
  encodePermissionDenied,
  encodeStored,
  encodeSyncStep1,
  encodeSyncStep2,
  encodeUpdate,
  isEmptyUpdate,
} from './protocol';
import type { CollabContext } from './server';
import { keepLateUpdate } from './store';

/** What one connection may keep after a submit (a person typing for minutes sends far less). */
const MAX_LATE_BYTES = 1024 * 1024;

/**
 * The y-websocket sync protocol against this instance's copy of a document, which holds
 * stored updates only (so a sync always shows what the server lacks): a writer's update is
 * relayed to the document's other connections at once, stored, and only then applied to the
 * copy, acknowledged to its sender (message 100) and published to the other instances. A
 * client that names its copy's epoch is told the document's first (message 101).
 */
export class Sync {
  constructor(private readonly ctx: CollabContext) {}

  /** What a connection is sent on joining, before anything else. */
  greet(conn: Conn, tellEpoch: boolean) {
    const doc = conn.doc;
    // First, before anything of the document: the client records which history its copy belongs to.
    if (tellEpoch) conn.send(encodeEpoch(doc.epoch));
    conn.send(encodeSyncStep1(Y.encodeStateVector(doc.ydoc)));
    // Relayed to the others already, not in the copy until stored: this one gets them now.
    for (const i of doc.unstored) conn.send(encodeUpdate(i.update));
    if (conn.mode === 'read') conn.send(encodePermissionDenied('read-only: your changes are not saved'));
    if (conn.mode === 'late') conn.send(encodePermissionDenied('read-only: submitted; your changes are kept for you'));
  }

  /** One message from an admitted client. */
  receive(conn: Conn, data: Uint8Array) {
    if (conn.closed) return;
    const { connections, presence } = this.ctx;
    if (data.length > this.ctx.opts.maxMessageBytes) return connections.close(conn, CLOSE.tooBig, 'message too big');
    let message: ReturnType<typeof decodeMessage>;
    try {
      message = decodeMessage(data);
    } catch {
      return connections.close(conn, CLOSE.malformed, 'malformed message');
    }
    switch (message.type) {
      case 'step1':
        try {
          conn.send(encodeSyncStep2(Y.encodeStateAsUpdate(conn.doc.ydoc, message.stateVector)));
        } catch {
          connections.close(conn, CLOSE.malformed, 'malformed state vector');
        }
        return;
      case 'step2':
        return this.onUpdate(conn, message.update, undefined);
      case 'update':
        return this.onUpdate(conn, message.update, data);
      case 'awareness':
        return presence.receive(conn, message.update, data);
      case 'queryAwareness':
        return presence.answerQuery(conn);
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
    if (conn.mode === 'late') return this.keepLate(conn, update);
    if (conn.mode !== 'write') {
      // Read-only: dropped, never stored, never relayed.
      if (!isEmptyUpdate(update)) this.ctx.stats.updatesDroppedReadOnly++;
      return;
    }
    if (isEmptyUpdate(update)) return;
    // Stopping: no update is taken any more (the stop's flush has an end, whatever clients
    // keep sending). Never stored nor acknowledged here: the client sends it again wherever it
    // reconnects.
    if (this.ctx.stopping) return;
    let decoded: ReturnType<typeof Y.decodeUpdate>;
    try {
      decoded = Y.decodeUpdate(update); // well-formed, or it is never relayed nor stored
    } catch {
      return this.ctx.connections.close(conn, CLOSE.malformed, 'malformed update');
    }
    conn.pendingBytes += update.length;
    if (conn.pendingBytes > this.ctx.opts.maxPendingBytes)
      return this.ctx.connections.close(conn, CLOSE.tryLater, 'too many unsaved updates');
    const doc = conn.doc;
    const item: QueuedUpdate = { conn, doc, update, ack: conn.acks ? encodeStored(decoded) : undefined };
    doc.broadcast(raw ?? encodeUpdate(update), conn);
    this.ctx.persistence.store(item);
  }

  /**
   * An editor's update after the submit (`late`): never relayed nor part of the document, but
   * stored for her (`collab_late`, offered back by the API) and acknowledged once stored — her
   * words are kept, not dropped. In arrival order per connection; at most `maxPendingBytes`
   * per connection (then dropped and counted).
   */
  private keepLate(conn: Conn, update: Uint8Array) {
    if (isEmptyUpdate(update) || this.ctx.stopping) return;
    let decoded: ReturnType<typeof Y.decodeUpdate>;
    try {
      decoded = Y.decodeUpdate(update);
    } catch {
      return this.ctx.connections.close(conn, CLOSE.malformed, 'malformed update');
    }
    conn.lateBytes += update.length;
    if (conn.lateBytes > MAX_LATE_BYTES) {
      this.ctx.stats.updatesDroppedReadOnly++;
      return;
    }
    const { deps } = this.ctx;
    const doc = conn.doc;
    doc.pending++;
    conn.lateChain = conn.lateChain.then(async () => {
      try {
        await keepLateUpdate(deps.database, doc.tenantId, doc.docName, conn.user.userId, update);
        this.ctx.stats.updatesKeptLate++;
        if (conn.acks) conn.send(encodeStored(decoded));
      } catch (err) {
        deps.log.error({ err, doc: doc.docName }, 'collab: a late update could not be kept');
        this.ctx.connections.close(conn, CLOSE.tryLater, 'storage unavailable');
      } finally {
        doc.settle();
      }
    });
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
    const { ctx } = this;
    if (ctx.aborted || !seqs) {
      const docs = new Set<LiveDoc>();
      for (const i of batch) {
        i.conn.pendingBytes -= i.update.length;
        i.doc.unstored.delete(i);
        // Stored or not, never acknowledged: allowed (the client sends it again when it reconnects).
        if (!ctx.aborted) ctx.connections.close(i.conn, CLOSE.tryLater, 'storage unavailable');
        docs.add(i.doc);
        i.doc.settle();
      }
      // The peers got these updates relayed: a sync step 1 (what the copy holds) makes the
      // writers among them send back whatever the server lacks, their own or not.
      if (!ctx.aborted)
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
        ctx.stats.staleUpdates += items.length;
        ctx.documents.retire(doc);
        for (let k = 0; k < items.length; k++) doc.settle();
        byDoc.delete(doc);
      }
    }
    for (const items of byDoc.values()) ctx.stats.updatesStored += items.length;
    for (const [doc, items] of byDoc) {
      // One transaction per document and batch.
      doc.ydoc.transact(() => {
        for (const i of items)
          try {
            Y.applyUpdate(doc.ydoc, i.update, 'stored');
          } catch (err) {
            ctx.deps.log.error({ err, doc: doc.docName }, 'collab: a stored update could not be applied');
          }
      }, 'stored');
      for (const i of items) if (i.ack) i.conn.send(i.ack);
      doc.wrote(true);
      doc.rowsSinceCompact += items.length;
      const docSeqs = seqs.get(doc.docName) ?? [];
      for (const seq of docSeqs) doc.seen(seq);
      ctx.fanOut.publishUpdates(
        doc,
        docSeqs,
        items.map((i) => i.update),
      );
      for (let k = 0; k < items.length; k++) doc.settle();
    }
  }
}
