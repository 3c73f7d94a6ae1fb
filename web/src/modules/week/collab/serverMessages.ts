import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { messageAuth, messageSync, type WebsocketProvider } from 'y-websocket';
import type { StoredTracker } from './stored';

const SYNC_STEP1 = 0;
const SYNC_STEP2 = 1;
const SYNC_UPDATE = 2;
/** Sprout's stored acknowledgement and the document's epoch (services/collab protocol.ts). */
const MESSAGE_STORED = 100;
const MESSAGE_EPOCH = 101;

/** What a connection does with what the server's messages say (connection.ts). */
export interface ServerMessageHooks {
  /** What the server is known to hold. */
  tracker: StoredTracker;
  /** Nothing more of the document is taken, from anywhere (it was replaced on the server). */
  ignoring(): boolean;
  /** Runs Yjs's own handling of a server message (its updates are not this client's to save). */
  asServer(apply: () => void): void;
  /** The server's state may now hold what was waiting to be stored. */
  afterServerState(): void;
  /** The document's epoch, told first on join. */
  toldEpoch(epoch: string): void;
  /** The server says this connection is read-only (its auth message: permission denied). */
  toldReadOnly(): void;
}

/** Messages from the server pass through here first: what they say about the server's copy. */
export function readServerMessages(provider: WebsocketProvider, hooks: ServerMessageHooks): void {
  const { tracker } = hooks;
  const syncHandler = provider.messageHandlers[messageSync];
  provider.messageHandlers[messageSync] = (encoder, decoder, p, fromSocket, type) => {
    if (hooks.ignoring()) return; // nothing more of a replaced document, from anywhere
    if (!fromSocket) {
      syncHandler?.(encoder, decoder, p, fromSocket, type); // another tab (BroadcastChannel)
      return;
    }
    const peek = decoding.createDecoder(decoder.arr);
    peek.pos = decoder.pos;
    const kind = decoding.readVarUint(peek);
    const payload = decoding.readVarUint8Array(peek);
    try {
      // Relayed updates (SYNC_UPDATE) are other people's to save: they tell nothing here.
      if (kind === SYNC_STEP1) tracker.serverStateVector(payload);
      else if (kind === SYNC_STEP2) tracker.serverSync(payload);
    } catch {
      /* a message Yjs cannot read fails below as it would have anyway */
    }
    hooks.asServer(() => syncHandler?.(encoder, decoder, p, fromSocket, type));
    if (kind === SYNC_STEP2 || kind === SYNC_UPDATE) hooks.afterServerState();
  };
  provider.messageHandlers[MESSAGE_STORED] = (_encoder, decoder) => {
    const stateVector = decoding.readVarUint8Array(decoder);
    const deletes = decoding.readVarUint8Array(decoder);
    try {
      tracker.acknowledged(stateVector, deletes);
    } catch {
      return; // unreadable: the fallback query finds out instead
    }
    hooks.afterServerState();
  };
  // The document's epoch, told first on join: the copy on this device belongs to it from now on.
  provider.messageHandlers[MESSAGE_EPOCH] = (_encoder, decoder) => {
    hooks.toldEpoch(decoding.readVarString(decoder));
  };
  // The auth message (permission denied) is how the server says a connection is read-only.
  provider.messageHandlers[messageAuth] = (_encoder, decoder) => {
    if (decoding.readVarUint(decoder) === 0) {
      decoding.readVarString(decoder);
      hooks.toldReadOnly();
    }
  };
}

/** Asks the server for its state as far as it concerns what this client is waiting to have stored (a sync step 1). */
export function storedQuery(tracker: StoredTracker) {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, messageSync);
  encoding.writeVarUint(e, SYNC_STEP1);
  encoding.writeVarUint8Array(e, tracker.queryVector());
  return encoding.toUint8Array(e);
}
