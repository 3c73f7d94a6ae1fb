import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { Skip } from 'yjs';

/**
 * The y-websocket wire protocol (what `WebsocketProvider` speaks): every binary message
 * starts with a varUint type.
 *  - 0 sync (y-protocols/sync): varUint subtype — 0 step 1 (state vector), 1 step 2
 *    (update), 2 update — then a varUint8Array payload;
 *  - 1 awareness: varUint8Array of an awareness update (y-protocols/awareness);
 *  - 2 auth: varUint 0 (permission denied) + varString reason (server → client);
 *  - 3 query awareness (the peer asks for every awareness state).
 *
 * Sprout adds one message, sent only to clients that ask for it (`?stored=1`; a plain
 * y-websocket client would log every unknown message):
 *  - 100 stored (server → client): the client's own update is stored in PostgreSQL —
 *    varUint8Array state vector (per client in the update, the clock its structs end at),
 *    then varUint8Array of a Yjs update with no structs and the update's delete set.
 *
 * and one more, sent only to clients that name the epoch of their copy (`?epoch=`, empty
 * when they hold none):
 *  - 101 epoch (server → client, first thing on join): varString, the document's identity
 *    epoch. A client whose copy belongs to another epoch is refused with 4409 instead.
 */
export const MESSAGE_SYNC = 0;
export const MESSAGE_AWARENESS = 1;
export const MESSAGE_AUTH = 2;
export const MESSAGE_QUERY_AWARENESS = 3;
export const MESSAGE_STORED = 100;
export const MESSAGE_EPOCH = 101;

export const SYNC_STEP1 = 0;
export const SYNC_STEP2 = 1;
export const SYNC_UPDATE = 2;

/** Close codes (RFC 6455 private range). y-websocket's client does not reconnect after 4400–4499. */
export const CLOSE = {
  /** The server restarts or stops: reconnect (to any replica). */
  goingAway: 1001,
  malformed: 1007,
  tooBig: 1009,
  internal: 1011,
  /** Storage unavailable or the client sends faster than it can be stored: reconnect later. */
  tryLater: 1013,
  /** The user's access changed (e.g. read-write → read-only): reconnect to get the new mode. */
  accessChanged: 4000,
  badDocName: 4400,
  unauthorized: 4401,
  forbidden: 4403,
  /**
   * The client's copy belongs to another epoch of the document (restored, reseeded): it must
   * drop that copy (never merge it) and connect again without it.
   */
  replaced: 4409,
} as const;

export type Message =
  | { type: 'step1'; stateVector: Uint8Array }
  | { type: 'step2' | 'update'; update: Uint8Array }
  | { type: 'awareness'; update: Uint8Array }
  | { type: 'queryAwareness' }
  | { type: 'auth' }
  | { type: 'unknown' };

/** Decodes one client message; throws on a malformed one. */
export function decodeMessage(data: Uint8Array): Message {
  const d = decoding.createDecoder(data);
  const type = decoding.readVarUint(d);
  switch (type) {
    case MESSAGE_SYNC: {
      const sub = decoding.readVarUint(d);
      const payload = decoding.readVarUint8Array(d);
      if (sub === SYNC_STEP1) return { type: 'step1', stateVector: payload };
      if (sub === SYNC_STEP2) return { type: 'step2', update: payload };
      if (sub === SYNC_UPDATE) return { type: 'update', update: payload };
      throw new Error(`unknown sync message ${sub}`);
    }
    case MESSAGE_AWARENESS:
      return { type: 'awareness', update: decoding.readVarUint8Array(d) };
    case MESSAGE_QUERY_AWARENESS:
      return { type: 'queryAwareness' };
    case MESSAGE_AUTH:
      return { type: 'auth' };
    default:
      return { type: 'unknown' };
  }
}

function message(write: (e: encoding.Encoder) => void): Uint8Array {
  const e = encoding.createEncoder();
  write(e);
  return encoding.toUint8Array(e);
}

export const encodeSyncStep1 = (stateVector: Uint8Array) =>
  message((e) => {
    encoding.writeVarUint(e, MESSAGE_SYNC);
    encoding.writeVarUint(e, SYNC_STEP1);
    encoding.writeVarUint8Array(e, stateVector);
  });

export const encodeSyncStep2 = (update: Uint8Array) =>
  message((e) => {
    encoding.writeVarUint(e, MESSAGE_SYNC);
    encoding.writeVarUint(e, SYNC_STEP2);
    encoding.writeVarUint8Array(e, update);
  });

export const encodeUpdate = (update: Uint8Array) =>
  message((e) => {
    encoding.writeVarUint(e, MESSAGE_SYNC);
    encoding.writeVarUint(e, SYNC_UPDATE);
    encoding.writeVarUint8Array(e, update);
  });

export const encodeAwarenessMessage = (update: Uint8Array) =>
  message((e) => {
    encoding.writeVarUint(e, MESSAGE_AWARENESS);
    encoding.writeVarUint8Array(e, update);
  });

export const encodePermissionDenied = (reason: string) =>
  message((e) => {
    encoding.writeVarUint(e, MESSAGE_AUTH);
    encoding.writeVarUint(e, 0);
    encoding.writeVarString(e, reason);
  });

/** Message 101: the document's identity epoch. */
export const encodeEpoch = (epoch: string) =>
  message((e) => {
    encoding.writeVarUint(e, MESSAGE_EPOCH);
    encoding.writeVarString(e, epoch);
  });

/** What a decoded update holds, as far as a stored acknowledgement tells it (Y.decodeUpdate's result). */
export interface UpdateShape {
  structs: ReadonlyArray<{ id: { client: number; clock: number }; length: number }>;
  ds: { clients: Map<number, ReadonlyArray<{ clock: number; len: number }>> };
}

/** Message 100: the update (already decoded by the server when it checked it) is stored. */
export function encodeStored(update: UpdateShape): Uint8Array {
  // Per client, the end of its structs up to the first gap (a Skip: the update does not hold it).
  const ends = new Map<number, number>();
  const gapped = new Set<number>();
  for (const s of update.structs) {
    const client = s.id.client;
    if (gapped.has(client)) continue;
    if (s instanceof Skip) {
      gapped.add(client);
      continue;
    }
    const end = s.id.clock + s.length;
    if (end > (ends.get(client) ?? 0)) ends.set(client, end);
  }
  return message((e) => {
    encoding.writeVarUint(e, MESSAGE_STORED);
    const sv = encoding.createEncoder();
    encoding.writeVarUint(sv, ends.size);
    for (const [client, clock] of ends) {
      encoding.writeVarUint(sv, client);
      encoding.writeVarUint(sv, clock);
    }
    encoding.writeVarUint8Array(e, encoding.toUint8Array(sv));
    // A Yjs update (v1) without structs: 0 clients of structs, then the delete set.
    const ds = encoding.createEncoder();
    encoding.writeVarUint(ds, 0);
    const clients = [...update.ds.clients].filter(([, items]) => items.length);
    encoding.writeVarUint(ds, clients.length);
    for (const [client, items] of clients) {
      encoding.writeVarUint(ds, client);
      encoding.writeVarUint(ds, items.length);
      for (const i of items) {
        encoding.writeVarUint(ds, i.clock);
        encoding.writeVarUint(ds, i.len);
      }
    }
    encoding.writeVarUint8Array(e, encoding.toUint8Array(ds));
  });
}

/** Reads message 100's payload (after its type): the stored state vector and delete-set update. */
export function decodeStored(d: decoding.Decoder): { stateVector: Uint8Array; deletes: Uint8Array } {
  const stateVector = decoding.readVarUint8Array(d);
  const deletes = decoding.readVarUint8Array(d);
  return { stateVector, deletes };
}

/** An update that carries nothing (no structs, no deletions): what a peer with nothing new sends as step 2. */
export const isEmptyUpdate = (update: Uint8Array) => update.length === 2 && update[0] === 0 && update[1] === 0;

/** One entry of an awareness update: a client's state as JSON text (`'null'`: the client left). */
export interface AwarenessEntry {
  clientId: number;
  clock: number;
  state: string;
}

/** The entries of an awareness update (varUint count, then clientID, clock, JSON state each); throws when malformed. */
export function decodeAwareness(update: Uint8Array): AwarenessEntry[] {
  const d = decoding.createDecoder(update);
  const n = decoding.readVarUint(d);
  const out: AwarenessEntry[] = [];
  for (let i = 0; i < n; i++) {
    const clientId = decoding.readVarUint(d);
    const clock = decoding.readVarUint(d);
    const state = decoding.readVarString(d);
    out.push({ clientId, clock, state });
  }
  return out;
}

export function encodeAwareness(entries: AwarenessEntry[]): Uint8Array {
  return message((e) => {
    encoding.writeVarUint(e, entries.length);
    for (const a of entries) {
      encoding.writeVarUint(e, a.clientId);
      encoding.writeVarUint(e, a.clock);
      encoding.writeVarString(e, a.state);
    }
  });
}
