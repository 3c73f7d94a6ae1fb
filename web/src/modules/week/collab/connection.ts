import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { IndexeddbPersistence } from 'y-indexeddb';
import { Awareness } from 'y-protocols/awareness';
import { messageAuth, messageSync, WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { hasWeek } from './store';
import { StoredTracker } from './stored';
import type { CollabStatus, CollabUser } from './types';

/**
 * One live week document in the browser (docs/API.md "Live co-editing"): a Y.Doc kept in
 * IndexedDB (`y-indexeddb`, so offline edits survive a reload and are merged when the
 * connection is back) and synced with the collab service by y-websocket's
 * `WebsocketProvider` at `<serverUrl>/<docName>?token=<access token>&stored=1` (the server
 * acknowledges each of this client's updates once stored: message 100).
 *
 * Closing codes: 4401 (token missing, expired, session over) → a fresh token is fetched
 * (`renewToken`) and the connection opened again; 4403 / 4400 → stopped (`denied`);
 * 4000 (access changed, e.g. the week was submitted), 1001, 1013… → y-websocket reconnects,
 * and the server tells a read-only connection so with an auth message (`read-only: …`).
 * The status (`CollabStatus`) follows the connection and what the server is known to hold
 * (`stored.ts`).
 */

export interface ConnectionOptions {
  /** `ws(s)://<host>/api/collab`. */
  serverUrl: string;
  /** `week:<id>`. */
  docName: string;
  /** The IndexedDB database of this device's copy; null: none. */
  dbName: string | null;
  user: CollabUser;
  /** The current access token. */
  token(): string | null;
  /** After a 4401: get a fresh token if there is one to get (a refresh); may sign the user out. */
  renewToken(): Promise<void>;
  WebSocketPolyfill?: typeof WebSocket;
  /** Disconnected for longer than this: `offline` (shorter: `syncing`, reconnecting). */
  offlineAfterMs?: number;
}

export interface WeekConnection {
  readonly doc: Y.Doc;
  readonly awareness: Awareness;
  /** Resolves when there is a week to show (synced with the server, or kept on this device); rejects when refused. */
  readonly ready: Promise<void>;
  status(): CollabStatus;
  /** Nothing written now would be kept (read-only connection, or refused). */
  readOnly(): boolean;
  subscribe(listener: () => void): () => void;
  flush(timeoutMs?: number): Promise<boolean>;
  /** Closes the connection and lets go of IndexedDB, keeping the document (a hidden page). */
  pause(): void;
  /** Opens them again after `pause`. */
  resume(): void;
  clearLocal(): Promise<void>;
  destroy(): void;
}

/** The server refused the document (4403 no access, 4400 bad name). */
export class CollabDenied extends Error {
  constructor(readonly code: number) {
    super(`collab: refused (${code})`);
    this.name = 'CollabDenied';
  }
}

const SYNC_STEP1 = 0;
const SYNC_STEP2 = 1;
const SYNC_UPDATE = 2;
/** Sprout's stored acknowledgement (services/collab protocol.ts). */
const MESSAGE_STORED = 100;
/** Asked for the stored state when an acknowledgement has not come by then (slow disk, old server). */
const QUERY_AFTER_MS = 1500;

const paramsFor = (token: string | null) => ({ token: token ?? '', stored: '1' });

export function openWeekConnection(options: ConnectionOptions): WeekConnection {
  const { offlineAfterMs = 2500 } = options;
  const doc = new Y.Doc();
  const awareness = new Awareness(doc);
  awareness.setLocalState({ user: options.user, field: null });
  const tracker = new StoredTracker(doc);
  const listeners = new Set<() => void>();

  const startedAt = Date.now();
  let status: CollabStatus = { kind: 'connecting' };
  let destroyed = false;
  let paused = false;
  let denied: number | null = null;
  let everConnected = false;
  let disconnectedAt: number | null = null;
  /** The server said read-only on the current socket. */
  let readOnlyHere = false;
  /** Decided when a socket has synced (kept meanwhile, so a reconnection does not flicker). */
  let readOnly = false;
  /** Some change is not known to be stored. */
  let pending = false;
  let savedAt = Date.now();
  /** Inside the handling of a message from the server (its updates are not this client's to save). */
  let fromServer = false;
  let queryTimer: ReturnType<typeof setTimeout> | null = null;
  let queryAttempt = 0;
  let statusTimer: ReturnType<typeof setTimeout> | null = null;
  let renewTimer: ReturnType<typeof setTimeout> | null = null;
  let renewAttempt = 0;

  // ---- this device's copy ---------------------------------------------------------------
  let idb: IndexeddbPersistence | null = null;
  let idbReady = false;
  const openIdb = () => {
    if (!options.dbName || typeof indexedDB === 'undefined') return;
    try {
      const opened = new IndexeddbPersistence(options.dbName, doc);
      idb = opened;
      void opened.whenSynced.then(() => {
        if (idb !== opened) return;
        idbReady = true;
        if (hasWeek(doc)) markReady();
        update();
      });
    } catch {
      idb = null;
    }
  };
  const closeIdb = () => {
    const db = idb;
    idb = null;
    idbReady = false;
    return db ? db.destroy().catch(() => undefined) : Promise.resolve();
  };
  const deleteIdb = async () => {
    await closeIdb();
    if (!options.dbName || typeof indexedDB === 'undefined') return;
    const request = indexedDB.deleteDatabase(options.dbName);
    await new Promise<void>((resolve) => {
      request.onsuccess = request.onerror = request.onblocked = () => resolve();
    });
  };
  /**
   * The copy on this device is for edits: none is kept of a week this user can only read
   * now (submitted, say) once the server holds everything; editable again, it comes back.
   */
  let keepingCopy = true;
  const followCopy = (kind: CollabStatus['kind']) => {
    if (kind === 'readOnly' && !pending && keepingCopy) {
      keepingCopy = false;
      void deleteIdb();
    } else if ((kind === 'saved' || kind === 'syncing') && !keepingCopy && !paused) {
      keepingCopy = true;
      openIdb();
    }
  };

  // ---- the connection ------------------------------------------------------------------
  const provider = new WebsocketProvider(options.serverUrl, options.docName, doc, {
    connect: false,
    awareness,
    params: paramsFor(options.token()),
    WebSocketPolyfill: options.WebSocketPolyfill,
    // No resyncInterval: y-websocket drops a socket that hears nothing for 30 s, and the server
    // sends a quiet connection an empty awareness message every 15 s (its pings never reach
    // the page); what is stored comes with acknowledgements.
    maxBackoffTime: 5000,
  });

  // Messages from the server pass through here first: what they say about the server's copy.
  const syncHandler = provider.messageHandlers[messageSync];
  provider.messageHandlers[messageSync] = (encoder, decoder, p, fromSocket, type) => {
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
    fromServer = true;
    try {
      syncHandler?.(encoder, decoder, p, fromSocket, type);
    } finally {
      fromServer = false;
    }
    if (kind === SYNC_STEP2 || kind === SYNC_UPDATE) afterServerState();
  };
  provider.messageHandlers[MESSAGE_STORED] = (_encoder, decoder) => {
    const stateVector = decoding.readVarUint8Array(decoder);
    const deletes = decoding.readVarUint8Array(decoder);
    try {
      tracker.acknowledged(stateVector, deletes);
    } catch {
      return; // unreadable: the fallback query finds out instead
    }
    afterServerState();
  };
  // The auth message (permission denied) is how the server says a connection is read-only.
  provider.messageHandlers[messageAuth] = (_encoder, decoder) => {
    if (decoding.readVarUint(decoder) === 0) {
      decoding.readVarString(decoder);
      readOnlyHere = true;
      readOnly = true;
      update();
    }
  };

  provider.on('status', ({ status: s }) => {
    if (s === 'connected') {
      everConnected = true;
      disconnectedAt = null;
      readOnlyHere = false;
      tracker.reset();
      queryAttempt = 0;
    } else if (s === 'disconnected') {
      disconnectedAt = Date.now();
      scheduleStatusCheck(offlineAfterMs);
    }
    update();
  });
  provider.on('sync', (synced) => {
    if (!synced) return update();
    readOnly = readOnlyHere;
    markReady();
    afterServerState();
  });
  provider.on('connection-close', () => {
    // The next attempt carries the freshest token (refreshed meanwhile by the app).
    provider.params = paramsFor(options.token());
  });
  // The browser knows about a lost network before the socket does (up to 30 s of silence).
  const onOffline = () => {
    if (provider.ws && !paused) provider.ws.close();
  };
  const onOnline = () => {
    if (paused || destroyed || denied !== null || provider.wsconnected) return;
    provider.disconnect(); // a fresh attempt now, not after the back-off
    provider.connect();
  };
  if (typeof window !== 'undefined') {
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);
  }
  provider.on('closed', ({ code }) => {
    if (code === 4401) void renew();
    else {
      denied = code;
      failReady(new CollabDenied(code));
      update();
    }
  });

  async function renew() {
    const used = provider.params.token;
    try {
      await options.renewToken();
    } catch {
      /* renewing failed: tried again below */
    }
    if (destroyed || paused) return;
    const fresh = options.token();
    if (!fresh) return update(); // signed out: the app leaves the page
    provider.params = paramsFor(fresh);
    if (fresh !== used) {
      renewAttempt = 0;
      provider.connect();
      return;
    }
    // The same token was refused and is all there is: try again later, less and less often.
    renewAttempt += 1;
    renewTimer = setTimeout(
      () => {
        if (!paused && !destroyed) provider.connect();
      },
      Math.min(5000 * 2 ** (renewAttempt - 1), 60_000),
    );
    update();
  }

  // ---- what is stored --------------------------------------------------------------------
  doc.on('update', (change: Uint8Array) => {
    if (fromServer) return;
    tracker.localUpdate(change);
    // This tab's edit, another tab's, or this device's copy: not known to be stored.
    pending = true;
    queryAttempt = 0;
    if (!queryTimer) scheduleQuery(QUERY_AFTER_MS);
    update();
  });

  function afterServerState() {
    if (!provider.synced) return;
    const was = pending;
    pending = !tracker.allStored();
    if (was && !pending) savedAt = Date.now();
    // Other people's updates keep coming: an answer already awaited is not pushed back by them.
    if (pending && !readOnly && !queryTimer) scheduleQuery(Math.min(QUERY_AFTER_MS * 2 ** queryAttempt++, 6000));
    else if (!pending) {
      queryAttempt = 0;
      if (queryTimer) clearTimeout(queryTimer);
      queryTimer = null;
    }
    update();
  }

  function scheduleQuery(ms: number) {
    if (queryTimer) clearTimeout(queryTimer);
    queryTimer = setTimeout(sendQuery, ms);
  }

  function sendQuery() {
    queryTimer = null;
    const ws = provider.ws;
    if (destroyed || !provider.wsconnected || !provider.synced || readOnly || !ws || ws.readyState !== 1) return;
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, messageSync);
    encoding.writeVarUint(e, SYNC_STEP1);
    encoding.writeVarUint8Array(e, tracker.queryVector());
    ws.send(encoding.toUint8Array(e));
  }

  function scheduleStatusCheck(ms: number) {
    if (statusTimer) clearTimeout(statusTimer);
    statusTimer = setTimeout(() => {
      statusTimer = null;
      update();
    }, ms + 10);
  }

  // ---- status ----------------------------------------------------------------------------
  function compute(): CollabStatus {
    if (denied !== null) return { kind: 'denied', code: denied };
    if (!provider.wsconnected) {
      const since = disconnectedAt ?? startedAt;
      if (Date.now() - since < offlineAfterMs) return everConnected ? { kind: 'syncing' } : { kind: 'connecting' };
      return { kind: 'offline', local: idbReady, pending };
    }
    if (readOnly) return { kind: 'readOnly', unsaved: pending };
    if (!provider.synced || pending) return { kind: 'syncing' };
    return { kind: 'saved', at: savedAt };
  }

  function update() {
    if (destroyed) return;
    const next = compute();
    if (JSON.stringify(next) === JSON.stringify(status)) return;
    status = next;
    followCopy(next.kind);
    for (const listener of [...listeners]) listener();
  }

  // ---- ready -----------------------------------------------------------------------------
  let markReady: () => void = () => undefined;
  let failReady: (e: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  ready.catch(() => undefined);

  scheduleStatusCheck(offlineAfterMs);
  openIdb();
  provider.connect();

  const close = () => {
    if (destroyed) return false;
    destroyed = true;
    for (const t of [queryTimer, statusTimer, renewTimer]) if (t) clearTimeout(t);
    if (typeof window !== 'undefined') {
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('online', onOnline);
    }
    listeners.clear();
    awareness.setLocalState(null);
    provider.destroy();
    awareness.destroy();
    return true;
  };

  return {
    doc,
    awareness,
    ready,
    status: () => status,
    readOnly: () => readOnly || denied !== null,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush(timeoutMs = 10_000) {
      if (status.kind === 'saved') return Promise.resolve(true);
      if (!pending && provider.synced) afterServerState();
      else scheduleQuery(0);
      return new Promise<boolean>((resolve) => {
        const done = (ok: boolean) => {
          clearTimeout(timer);
          stop();
          resolve(ok);
        };
        const timer = setTimeout(() => done(false), timeoutMs);
        const stop = (() => {
          const listener = () => {
            if (status.kind === 'saved') done(true);
            else if (status.kind === 'readOnly' || status.kind === 'denied') done(false);
          };
          listeners.add(listener);
          return () => listeners.delete(listener);
        })();
        if (status.kind === 'saved') done(true);
      });
    },
    pause() {
      if (destroyed || paused) return;
      paused = true;
      if (renewTimer) clearTimeout(renewTimer);
      provider.disconnect();
      void closeIdb();
      update();
    },
    resume() {
      if (destroyed || !paused) return;
      paused = false;
      if (keepingCopy) openIdb();
      if (denied === null) provider.connect();
      update();
    },
    async clearLocal() {
      if (!close()) return;
      await deleteIdb();
      doc.destroy();
    },
    destroy() {
      if (!close()) return;
      // The copy stays in IndexedDB; the document goes once y-indexeddb let go of it.
      void closeIdb().then(() => doc.destroy());
    },
  };
}
