import { Awareness } from 'y-protocols/awareness';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { CollabDenied, CollabReplaced, CollabUnavailable, fetchStatus, probeUrlOf } from './connectionErrors';
import { type DeviceCopies, indexedDbCopies, KeptCopy } from './deviceCopy';
import { readServerMessages, storedQuery } from './serverMessages';
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
 *
 * Identity epoch: the device's copy remembers the epoch of the document it was made from
 * (message 101, told on join) and names it when it connects (`&epoch=`, empty without one).
 * When the server's document was restored or reseeded since, it refuses the copy (4409): the
 * copy is deleted, never merged, and the status says `replaced` (with `dropped` when it held
 * edits the server never stored); the page opens the week again from the server.
 *
 * Not served: a WebSocket never learns why an upgrade failed, so after an attempt that never
 * opened the client asks the same URL over HTTP: the collab service answers 426 there, a
 * server (or proxy) without it 404. Then it stops trying (`unavailable`) and the page saves
 * over HTTP instead.
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
  /** Where this device keeps its copies (default: IndexedDB through y-indexeddb; none without IndexedDB). */
  copies?: DeviceCopies | null;
  /** The HTTP status of a plain GET of `url` (null: no answer); default `fetch`. */
  probe?: (url: string) => Promise<number | null>;
  /**
   * Longest wait for the device copy to say its epoch before connecting (IndexedDB can stall,
   * e.g. behind another tab's pending delete); past it the copy is let go, unmerged.
   */
  copyWaitMs?: number;
}

export interface WeekConnection {
  readonly doc: Y.Doc;
  readonly awareness: Awareness;
  /** Resolves when there is a week to show (synced with the server, or kept on this device); rejects when refused. */
  readonly ready: Promise<void>;
  status(): CollabStatus;
  /** Nothing written now would be kept (read-only connection, or refused). */
  readOnly(): boolean;
  /** Refused or replaced: nothing written goes anywhere (a read-only connection still sends; see open.ts). */
  refused(): boolean;
  subscribe(listener: () => void): () => void;
  flush(timeoutMs?: number): Promise<boolean>;
  /** Closes the connection and lets go of IndexedDB, keeping the document (a hidden page). */
  pause(): void;
  /** Opens them again after `pause`. */
  resume(): void;
  clearLocal(): Promise<void>;
  destroy(): void;
}

/** The server refused this device's copy: it belongs to another epoch of the document. */
const CLOSE_REPLACED = 4409;
/** Asked for the stored state when an acknowledgement has not come by then (slow disk, old server). */
const QUERY_AFTER_MS = 1500;

const paramsFor = (token: string | null, epoch: string) => ({ token: token ?? '', stored: '1', epoch });

export function openWeekConnection(options: ConnectionOptions): WeekConnection {
  const { offlineAfterMs = 2500, probe = fetchStatus, copyWaitMs = 2000 } = options;
  const copies =
    options.copies !== undefined ? options.copies : typeof indexedDB === 'undefined' ? null : indexedDbCopies;
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
  /** The copy belonged to another epoch (4409); `dropped`: it held unsent edits. */
  let replaced: { dropped: boolean } | null = null;
  /** The collab service is not served here (a plain GET of the document answered 404). */
  let unavailable = false;
  /** The current socket opened; a probe is under way. */
  let socketOpened = false;
  let probing = false;

  // ---- this device's copy ---------------------------------------------------------------
  const copy = new KeptCopy(doc, options.dbName, copies, () => {
    if (hasWeek(doc)) markReady();
    update();
  });
  // ---- the connection ------------------------------------------------------------------
  const provider = new WebsocketProvider(options.serverUrl, options.docName, doc, {
    connect: false,
    awareness,
    params: paramsFor(options.token(), copy.epoch),
    WebSocketPolyfill: options.WebSocketPolyfill,
    // No resyncInterval: y-websocket drops a socket that hears nothing for 30 s, and the server
    // sends a quiet connection an empty awareness message every 15 s (its pings never reach
    // the page); what is stored comes with acknowledgements.
    maxBackoffTime: 5000,
  });

  /**
   * Other tabs of this browser share the document (y-websocket's BroadcastChannel) only within
   * one epoch: a tab still holding a copy of an earlier one must never hand it to a fresh tab.
   */
  const bcBase = provider.bcChannel;
  function shareWithTabsOf(e: string) {
    const channel = `${bcBase}#${e}`;
    if (provider.bcChannel === channel) return;
    const was = provider.bcconnected;
    if (was) provider.disconnectBc();
    provider.bcChannel = channel;
    if (was) provider.connectBc();
  }

  readServerMessages(provider, {
    tracker,
    ignoring: () => replaced !== null,
    asServer(apply) {
      fromServer = true;
      try {
        apply();
      } finally {
        fromServer = false;
      }
    },
    afterServerState,
    toldEpoch(told) {
      if (!told || told === copy.epoch) return;
      copy.tellEpoch(told);
      provider.params = paramsFor(options.token(), told);
      shareWithTabsOf(told);
    },
    toldReadOnly() {
      readOnlyHere = true;
      readOnly = true;
      update();
    },
  });

  provider.on('status', ({ status: s }) => {
    if (s === 'connecting') socketOpened = false;
    if (s === 'connected') {
      socketOpened = true;
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
  provider.on('connection-close', (event) => {
    // The next attempt carries the freshest token (refreshed meanwhile by the app).
    provider.params = paramsFor(options.token(), copy.epoch);
    // Never opened: maybe nothing serves live editing here (the status of a refused upgrade
    // never reaches the page), or just no network. A plain GET tells them apart.
    if (event && !socketOpened && !probing && !unavailable) void probeService();
  });

  async function probeService() {
    probing = true;
    const status = await probe(probeUrlOf(options.serverUrl, options.docName));
    probing = false;
    if (status !== 404 || destroyed || paused || unavailable || socketOpened) return;
    unavailable = true;
    provider.disconnect();
    failReady(new CollabUnavailable());
    update();
  }
  // The browser knows about a lost network before the socket does (up to 30 s of silence).
  const onOffline = () => {
    if (provider.ws && !paused) provider.ws.close();
  };
  const onOnline = () => {
    if (paused || destroyed || denied !== null || replaced || unavailable || provider.wsconnected) return;
    provider.disconnect(); // a fresh attempt now, not after the back-off
    provider.connect();
  };
  if (typeof window !== 'undefined') {
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);
  }
  provider.on('closed', ({ code }) => {
    if (code === 4401) void renew();
    else if (code === CLOSE_REPLACED) {
      // Another history of the document: this copy is never merged into it.
      replaced = { dropped: copy.unsent };
      copy.keeping = false;
      provider.disconnectBc();
      void copy.remove();
      failReady(new CollabReplaced(replaced.dropped));
      update();
    } else {
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
    provider.params = paramsFor(fresh, copy.epoch);
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
  doc.on('update', (change: Uint8Array, origin: unknown) => {
    if (fromServer) return;
    // An edit made on this device (not what its copy loaded): unsent until the server has it.
    if (!copy.loadedFrom(origin)) copy.markUnsent(true);
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
    if (!pending && !readOnly) copy.markUnsent(false);
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
    ws.send(storedQuery(tracker));
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
    if (replaced) return { kind: 'replaced', dropped: replaced.dropped };
    if (unavailable) return { kind: 'unavailable' };
    if (denied !== null) return { kind: 'denied', code: denied };
    if (!provider.wsconnected) {
      const since = disconnectedAt ?? startedAt;
      if (Date.now() - since < offlineAfterMs) return everConnected ? { kind: 'syncing' } : { kind: 'connecting' };
      return { kind: 'offline', local: copy.loaded, pending };
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
    copy.follow(next.kind, pending, paused);
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
  // The socket names the copy's epoch: connected once the copy told it (at once without a copy).
  let copyTimer: ReturnType<typeof setTimeout> | undefined;
  const copyStalled = new Promise<'stalled'>((resolve) => {
    copyTimer = setTimeout(() => resolve('stalled'), copyWaitMs);
  });
  void Promise.race([copy.open(), copyStalled]).then((outcome) => {
    clearTimeout(copyTimer);
    if (destroyed || paused) return;
    // A copy that cannot say its epoch is of unknown identity: let go of it, never merge it,
    // and connect from the server's state rather than wait on the device for good.
    if (outcome === 'stalled') void copy.close();
    provider.params = paramsFor(options.token(), copy.epoch);
    shareWithTabsOf(copy.epoch);
    provider.connect();
  });

  const close = () => {
    if (destroyed) return false;
    destroyed = true;
    for (const t of [queryTimer, statusTimer, renewTimer, copyTimer]) if (t) clearTimeout(t);
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
    readOnly: () => readOnly || denied !== null || replaced !== null,
    refused: () => denied !== null || replaced !== null,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush(timeoutMs = 10_000) {
      if (status.kind === 'saved') return Promise.resolve(true);
      // Nothing more will be stored through this connection.
      if (status.kind === 'unavailable' || status.kind === 'replaced' || status.kind === 'denied')
        return Promise.resolve(false);
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
            else if (['readOnly', 'denied', 'replaced', 'unavailable'].includes(status.kind)) done(false);
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
      void copy.close();
      update();
    },
    resume() {
      if (destroyed || !paused) return;
      paused = false;
      if (copy.keeping) void copy.open();
      if (denied === null && !replaced && !unavailable) provider.connect();
      update();
    },
    async clearLocal() {
      if (!close()) return;
      await copy.remove();
      doc.destroy();
    },
    destroy() {
      if (!close()) return;
      // The copy stays in IndexedDB; the document goes once y-indexeddb let go of it.
      void copy.close().then(() => doc.destroy());
    },
  };
}
