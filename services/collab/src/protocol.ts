import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';

/**
 * The y-websocket wire protocol (what `WebsocketProvider` speaks): every binary message
 * starts with a varUint type.
 *  - 0 sync (y-protocols/sync): varUint subtype — 0 step 1 (state vector), 1 step 2
 *    (update), 2 update — then a varUint8Array payload;
 *  - 1 awareness: varUint8Array of an awareness update (y-protocols/awareness);
 *  - 2 auth: varUint 0 (permission denied) + varString reason (server → client);
 *  - 3 query awareness (the peer asks for every awareness state).
 */
export const MESSAGE_SYNC = 0;
export const MESSAGE_AWARENESS = 1;
export const MESSAGE_AUTH = 2;
export const MESSAGE_QUERY_AWARENESS = 3;

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
