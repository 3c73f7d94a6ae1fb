import type { Conn } from './connections';
import type { LiveDoc } from './documents';
import { type AwarenessEntry, CLOSE, decodeAwareness, encodeAwareness, encodeAwarenessMessage } from './protocol';
import type { CollabContext } from './server';

/** Awareness states (cursors, names) kept per document and their size. */
const MAX_AWARENESS = 1000;
const MAX_AWARENESS_STATE = 64 * 1024;
/** Clients renew their awareness every 15 s; older states are not handed to newcomers. */
const AWARENESS_FRESH_MS = 45_000;
const EMPTY_AWARENESS = encodeAwarenessMessage(encodeAwareness([]));

/**
 * Awareness (y-protocols): each document keeps its clients' states, relays them here and to
 * the other instances, and hands the fresh ones to newcomers. A state belongs to the user
 * who set it: nobody moves someone else's cursor, and a connection that leaves takes only
 * its own states with it. Quiet connections get an empty awareness message as a keep-alive.
 */
export class Presence {
  constructor(private readonly ctx: CollabContext) {}

  /** A newcomer hears the fresh states at once. */
  greet(conn: Conn) {
    const fresh: AwarenessEntry[] = [];
    const now = Date.now();
    for (const [clientId, a] of conn.doc.awareness)
      if (now - a.at < AWARENESS_FRESH_MS) fresh.push({ clientId, clock: a.clock, state: a.state });
    if (fresh.length) conn.send(encodeAwarenessMessage(encodeAwareness(fresh)));
  }

  /** The client asked for every state (query awareness). */
  answerQuery(conn: Conn) {
    const all = [...conn.doc.awareness].map(([clientId, a]) => ({ clientId, clock: a.clock, state: a.state }));
    conn.send(encodeAwarenessMessage(encodeAwareness(all)));
  }

  /** An awareness update from a client here: taken, relayed to its peers here and published. */
  receive(conn: Conn, update: Uint8Array, raw: Uint8Array) {
    const doc = conn.doc;
    let entries: AwarenessEntry[];
    try {
      entries = decodeAwareness(update);
    } catch {
      return this.ctx.connections.close(conn, CLOSE.malformed, 'malformed awareness');
    }
    for (const e of entries)
      if (e.state.length > MAX_AWARENESS_STATE)
        return this.ctx.connections.close(conn, CLOSE.tooBig, 'awareness state too big');
    const accepted = this.take(doc, entries, conn.user.userId, conn);
    for (const e of accepted)
      if (e.state === 'null') conn.awarenessIds.delete(e.clientId);
      else if (doc.awareness.has(e.clientId)) conn.awarenessIds.add(e.clientId);
    if (!accepted.length) return;
    const relayed = accepted.length === entries.length ? update : encodeAwareness(accepted);
    doc.broadcast(relayed === update ? raw : encodeAwarenessMessage(relayed), conn);
    this.ctx.fanOut.publishAwareness(doc, relayed, conn.user.userId);
  }

  /** An awareness update another instance published (sent there by `userId`); throws when malformed. */
  fromPeer(doc: LiveDoc, update: Uint8Array, userId: string | undefined) {
    const taken = this.take(doc, decodeAwareness(update), userId);
    if (taken.length) doc.broadcast(encodeAwarenessMessage(encodeAwareness(taken)));
  }

  /** A connection left: the states it set (and nobody else set since) go, here and on the other instances. */
  leave(conn: Conn) {
    if (this.ctx.aborted) return;
    const doc = conn.doc;
    const gone: AwarenessEntry[] = [];
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
      this.ctx.fanOut.publishAwareness(doc, update, conn.user.userId);
    }
  }

  /** A connection that was sent nothing for `keepAliveMs` gets an empty awareness message. */
  keepAlive(conn: Conn, now: number) {
    if (now - conn.lastSend > this.ctx.opts.keepAliveMs) conn.send(EMPTY_AWARENESS);
  }

  /**
   * Applies awareness entries sent by `userId` (here or on another instance) and returns those
   * taken: an entry older than the one held is not, and neither is one for a client whose
   * fresh state another user sent — nobody moves someone else's cursor or renames them.
   */
  private take(doc: LiveDoc, entries: AwarenessEntry[], userId: string | undefined, by?: Conn): AwarenessEntry[] {
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
}
