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
 * - updates the server relays come from other people's connections and are theirs to save
 *   (their own indicators wait for the acknowledgement): should the server lose one, this
 *   client sends it back with the next sync like anything else the server lacks.
 *
 * Everything this device wrote is stored when, for every client whose structs it made (this
 * session's, or earlier ones' kept in IndexedDB), the server is known to hold its clock, and
 * every deletion it made is in the server's delete set or acknowledged.
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

/** Per client, where its structs in an update start and end (up to the first gap: a Skip). */
function ends(update: Uint8Array): { from: Map<number, number>; to: Map<number, number>; ds: Ranges } {
  const decoded = Y.decodeUpdate(update);
  const from = new Map<number, number>();
  const to = new Map<number, number>();
  const gapped = new Set<number>();
  for (const struct of decoded.structs) {
    const client = struct.id.client;
    if (gapped.has(client)) continue;
    if (struct instanceof Y.Skip) {
      gapped.add(client);
      continue;
    }
    if (!from.has(client)) from.set(client, struct.id.clock);
    to.set(client, Math.max(to.get(client) ?? 0, struct.id.clock + struct.length));
  }
  return { from, to, ds: normalise(rangesOf(decoded.ds as unknown as DeleteSetLike)) };
}

export class StoredTracker {
  /** Per client: the clock up to which the server is known to hold its structs. */
  private known = new Map<number, number>();
  /** The server's delete set, as far as it is known (null: not heard yet on this connection). */
  private deleted: Ranges | null = null;
  /** Deletions the server acknowledged on this connection. */
  private ackedDeleted: Ranges = new Map();
  /** The clients whose structs this device made (or kept offline), and the deletions it made. */
  private readonly localClients = new Set<number>();
  private localDeleted: Ranges = new Map();

  constructor(private readonly doc: Y.Doc) {}

  /** A new connection: nothing is known yet. */
  reset(): void {
    this.known = new Map();
    this.deleted = null;
    this.ackedDeleted = new Map();
  }

  /** An update made here (or loaded from this device's copy): the server must come to hold it. */
  localUpdate(update: Uint8Array): void {
    const { to, ds } = ends(update);
    for (const client of to.keys()) this.localClients.add(client);
    if (ds.size) this.localDeleted = union(this.localDeleted, ds);
  }

  /** The server's sync step 1: its state vector. */
  serverStateVector(stateVector: Uint8Array): void {
    for (const [client, clock] of Y.decodeStateVector(stateVector))
      this.known.set(client, Math.max(clock, this.known.get(client) ?? 0));
  }

  /**
   * The server's sync step 2 (the answer to a step 1 of ours): the structs it has stored beyond
   * what we asked with — up to the first gap: the server's copy may hold structs it cannot
   * integrate yet — and its whole delete set.
   */
  serverSync(update: Uint8Array): void {
    const { from, to, ds } = ends(update);
    for (const [client, clock] of to) {
      const known = this.known.get(client) ?? 0;
      // Structs starting beyond what is known: the server lacks what lies between.
      if ((from.get(client) ?? 0) <= known) this.known.set(client, Math.max(clock, known));
    }
    this.deleted = ds;
  }

  /** Message 100: the server stored an update of this client (its struct ends, its deletions). */
  acknowledged(stateVector: Uint8Array, deletes: Uint8Array): void {
    this.serverStateVector(stateVector);
    const { ds } = ends(deletes);
    if (ds.size) this.ackedDeleted = union(this.ackedDeleted, ds);
  }

  /**
   * The server holds everything this device wrote. Updates relayed from other people are not
   * counted: they are theirs to save (and they may even be this client's own, handed back by a
   * peer after the server failed to store them).
   */
  allStored(): boolean {
    const clocks = Y.decodeStateVector(Y.encodeStateVector(this.doc));
    for (const client of this.localClients) if ((this.known.get(client) ?? 0) < (clocks.get(client) ?? 0)) return false;
    if (![...this.localDeleted.values()].some((l) => l.length)) return true;
    return covers(union(this.deleted ?? new Map(), this.ackedDeleted), this.localDeleted);
  }

  /** The state vector to ask the server with (see above): lowered for this device's clients only. */
  queryVector(): Uint8Array {
    const vector = new Map<number, number>();
    for (const [client, clock] of Y.decodeStateVector(Y.encodeStateVector(this.doc)))
      vector.set(client, this.localClients.has(client) ? Math.min(clock, this.known.get(client) ?? 0) : clock);
    return Y.encodeStateVector(vector);
  }
}
