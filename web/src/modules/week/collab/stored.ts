import * as Y from 'yjs';

/**
 * What the collab server is known to hold of a document — the "已保存" of the indicator.
 *
 * The Sprout collab server tells a client that asks (`?stored=1`) when each of its updates
 * is stored in PostgreSQL (message 100: the clocks the update's structs end at, and its
 * deletions). Besides, it applies an update to its own copy of the document only once
 * stored, and answers a sync step 1 (a state vector) with a sync step 2 computed from that
 * copy: the structs beyond the vector, plus the copy's whole delete set. So:
 *
 * - the server's own step 1 (sent when a connection opens) gives its state vector;
 * - a stored acknowledgement adds the acknowledged clocks and deletions;
 * - `queryVector()` (the fallback when an acknowledgement is slow to come) is this
 *   document's state vector lowered, for every client where this document is ahead of what
 *   the server is known to hold, to that known clock. The server's step 2 answer then holds
 *   exactly the structs it has stored beyond that, and its delete set is everything deleted
 *   in what it stored;
 * - updates the server relays come from other people's connections: the server holds them,
 *   and stores them for their writers (whose own indicators wait for the acknowledgement).
 *   They are not this client's to save: should the server lose one, this client sends it
 *   back with the next sync like anything else the server lacks.
 *
 * The document is entirely stored when, for every client, the server is known to hold its
 * clock, and every deletion in the document is in the server's delete set.
 */

type Ranges = Map<number, Array<[start: number, end: number]>>;

interface DeleteSetLike {
  clients: Map<number, Array<{ clock: number; len: number }>>;
}

function rangesOf(ds: DeleteSetLike): Ranges {
  const out: Ranges = new Map();
  for (const [client, items] of ds.clients)
    out.set(
      client,
      items.map((i) => [i.clock, i.clock + i.len]),
    );
  return out;
}

/** Sorted, merged ranges per client. */
function normalise(ranges: Ranges): Ranges {
  const out: Ranges = new Map();
  for (const [client, list] of ranges) {
    const sorted = [...list].sort((a, b) => a[0] - b[0]);
    const merged: Array<[number, number]> = [];
    for (const [s, e] of sorted) {
      const last = merged[merged.length - 1];
      if (last && s <= last[1]) last[1] = Math.max(last[1], e);
      else merged.push([s, e]);
    }
    out.set(client, merged);
  }
  return out;
}

function union(a: Ranges, b: Ranges): Ranges {
  const all: Ranges = new Map();
  for (const source of [a, b])
    for (const [client, list] of source) all.set(client, [...(all.get(client) ?? []), ...list]);
  return normalise(all);
}

/** Every range of `inner` lies inside `outer`'s (both sorted and merged). */
function covers(outer: Ranges, inner: Ranges): boolean {
  for (const [client, list] of inner) {
    const out = outer.get(client) ?? [];
    let j = 0;
    for (const [s, e] of list) {
      while (j < out.length && (out[j]?.[1] ?? 0) <= s) j++;
      const r = out[j];
      if (!r || r[0] > s || r[1] < e) return false;
    }
  }
  return true;
}

export class StoredTracker {
  /** Per client: the clock up to which the server is known to hold its structs. */
  private known = new Map<number, number>();
  /** The server's delete set, as far as it is known (null: not heard yet on this connection). */
  private deleted: Ranges | null = null;

  constructor(private readonly doc: Y.Doc) {}

  /** A new connection: nothing is known yet. */
  reset(): void {
    this.known = new Map();
    this.deleted = null;
  }

  /** The server's sync step 1: its state vector. */
  serverStateVector(stateVector: Uint8Array): void {
    for (const [client, clock] of Y.decodeStateVector(stateVector))
      this.known.set(client, Math.max(clock, this.known.get(client) ?? 0));
  }

  /**
   * An update from the server: a sync step 2 (`complete`: its delete set is the server's
   * whole delete set) or a relayed update (its own deletions only).
   */
  serverUpdate(update: Uint8Array, complete: boolean): void {
    const { to } = Y.parseUpdateMeta(update);
    for (const [client, clock] of to) this.known.set(client, Math.max(clock, this.known.get(client) ?? 0));
    const ds = normalise(rangesOf(Y.decodeUpdate(update).ds as unknown as DeleteSetLike));
    if (complete) this.deleted = ds;
    else if (this.deleted) this.deleted = union(this.deleted, ds);
    // else: a relayed update before any step 2 says nothing of the rest; still unknown.
  }

  /** Message 100: the server stored an update of this client (its struct ends, its deletions). */
  acknowledged(stateVector: Uint8Array, deletes: Uint8Array): void {
    this.serverStateVector(stateVector);
    this.serverUpdate(deletes, false);
  }

  /** The server holds everything this document holds. */
  allStored(): boolean {
    for (const [client, clock] of Y.decodeStateVector(Y.encodeStateVector(this.doc)))
      if ((this.known.get(client) ?? 0) < clock) return false;
    const local = normalise(rangesOf(Y.createDeleteSetFromStructStore(this.doc.store) as unknown as DeleteSetLike));
    if (![...local.values()].some((l) => l.length)) return true;
    return this.deleted !== null && covers(this.deleted, local);
  }

  /** The state vector to ask the server with (see above). */
  queryVector(): Uint8Array {
    const vector = new Map<number, number>();
    for (const [client, clock] of Y.decodeStateVector(Y.encodeStateVector(this.doc)))
      vector.set(client, Math.min(clock, this.known.get(client) ?? 0));
    return Y.encodeStateVector(vector);
  }
}
