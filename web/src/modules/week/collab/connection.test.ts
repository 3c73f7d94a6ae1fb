import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { type DeviceCopies, type DeviceCopy, openWeekConnection, type WeekConnection } from './connection';
import type { CollabStatus } from './types';

/**
 * The connection against a stand-in for the collab service speaking y-websocket's protocol
 * the way docs/API.md describes it: step 1 and (read-only) the auth message on join, a step 2
 * for every step 1, updates relayed at once and stored (when the test says so) before they
 * are applied and acknowledged to their sender (message 100), closing codes.
 */
class FakeServer {
  doc = new Y.Doc();
  /** The document's identity epoch (told to clients that name one: `&epoch=`). */
  epoch = 'epoch-1';
  /** Nothing serves live editing here: every upgrade fails, a plain GET answers 404. */
  notServed = false;
  readonly sockets = new Set<FakeSocket>();
  readonly urls: string[] = [];
  readOnly = false;
  /** Refuse new sockets with this code (e.g. 4403). */
  refuse: number | null = null;
  /** Store updates at once (else they wait for `store()`). */
  autoStore = true;
  private unstored: Array<[FakeSocket, Uint8Array]> = [];
  /** Sync step 1 messages received (the client's questions). */
  questions = 0;

  constructor() {
    this.doc.getMap('week').set('startDate', '2026-11-23');
  }

  /** A WebSocket class bound to this server (what `WebSocketPolyfill` takes). */
  get WebSocket(): typeof WebSocket {
    const server = this;
    return class extends FakeSocket {
      constructor(url: string) {
        super(server, url);
      }
    } as unknown as typeof WebSocket;
  }

  open(socket: FakeSocket) {
    this.urls.push(socket.url);
    if (this.refuse) return socket.serverClose(this.refuse);
    const named = new URL(socket.url).searchParams.get('epoch');
    // A copy of another epoch is refused before it is heard (what it sent meanwhile is dropped).
    if (named && named !== this.epoch) return socket.serverClose(4409);
    this.sockets.add(socket);
    if (named !== null) {
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 101);
      encoding.writeVarString(e, this.epoch);
      socket.receive(encoding.toUint8Array(e));
    }
    socket.receive(sync(0, Y.encodeStateVector(this.doc)));
    if (this.readOnly) {
      const e = encoding.createEncoder();
      encoding.writeVarUint(e, 2);
      encoding.writeVarUint(e, 0);
      encoding.writeVarString(e, 'read-only: your changes are not saved');
      socket.receive(encoding.toUint8Array(e));
    }
  }

  message(socket: FakeSocket, data: Uint8Array) {
    const d = decoding.createDecoder(data);
    if (decoding.readVarUint(d) !== 0) return; // awareness: not needed here
    const kind = decoding.readVarUint(d);
    const payload = decoding.readVarUint8Array(d);
    if (kind === 0) {
      this.questions++;
      socket.receive(sync(1, Y.encodeStateAsUpdate(this.doc, payload)));
    } else if (!this.readOnly) {
      for (const s of this.sockets) if (s !== socket) s.receive(sync(2, payload));
      this.unstored.push([socket, payload]);
      if (this.autoStore) this.store();
    }
  }

  store() {
    for (const [from, update] of this.unstored.splice(0)) {
      Y.applyUpdate(this.doc, update);
      if (from.url.includes('stored=1')) from.receive(stored(update));
    }
  }

  /** Hands every update not stored yet back to its own writer (as a peer that held it would, after a failure). */
  echo() {
    for (const [from, update] of this.unstored) from.receive(sync(2, update));
  }

  closeAll(code: number) {
    for (const s of [...this.sockets]) s.serverClose(code);
  }

  /** What a plain GET of a document's URL answers: 426 where the collab service is served. */
  probes = 0;
  probe = async (_url: string) => {
    this.probes++;
    return this.notServed ? 404 : 426;
  };

  /** The stored state goes back to a backup (without what was written since) under a new epoch. */
  restore(backup: Uint8Array, epoch: string) {
    this.doc = new Y.Doc();
    Y.applyUpdate(this.doc, backup);
    this.epoch = epoch;
  }
}

/** Copies kept in memory the way y-indexeddb keeps them: every update, and values beside them. */
class MemoryCopies implements DeviceCopies {
  readonly stores = new Map<string, { updates: Uint8Array[]; values: Map<string, unknown> }>();
  open(name: string, doc: Y.Doc): DeviceCopy {
    let store = this.stores.get(name);
    if (!store) {
      store = { updates: [], values: new Map() };
      this.stores.set(name, store);
    }
    const kept = store;
    const origin = { copy: name };
    const onUpdate = (update: Uint8Array, from: unknown) => {
      if (from !== origin) kept.updates.push(update);
    };
    doc.on('update', onUpdate);
    const loaded = Promise.resolve().then(() => {
      for (const u of kept.updates.slice()) Y.applyUpdate(doc, u, origin);
    });
    return {
      origin,
      loaded,
      get: async (key) => kept.values.get(key),
      set: async (key, value) => {
        kept.values.set(key, value);
      },
      close: async () => doc.off('update', onUpdate),
    };
  }
  async remove(name: string) {
    this.stores.delete(name);
  }
}

function sync(kind: number, payload: Uint8Array) {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 0);
  encoding.writeVarUint(e, kind);
  encoding.writeVarUint8Array(e, payload);
  return encoding.toUint8Array(e);
}

/** Message 100 for an update: the clocks its structs end at, and its deletions. */
function stored(update: Uint8Array) {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 100);
  encoding.writeVarUint8Array(e, Y.encodeStateVector(Y.parseUpdateMeta(update).to));
  encoding.writeVarUint8Array(e, Y.diffUpdate(update, Y.encodeStateVectorFromUpdate(update)));
  return encoding.toUint8Array(e);
}

class FakeSocket {
  readonly OPEN = 1;
  readonly CONNECTING = 0;
  readyState = 0;
  binaryType = 'arraybuffer';
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: ArrayBuffer }) => void) | null = null;
  onclose: ((e: { code: number; reason: string }) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;

  constructor(
    readonly server: FakeServer,
    readonly url: string,
  ) {
    setTimeout(() => {
      if (this.readyState !== 0) return;
      if (this.server.notServed) {
        // The upgrade was answered 404: the page sees only an error and 1006.
        this.readyState = 3;
        this.onerror?.({});
        this.onclose?.({ code: 1006, reason: '' });
        return;
      }
      this.readyState = 1;
      // The server's step 1 (and auth message) go out on join, before it answers anything.
      this.server.open(this);
      this.onopen?.();
    }, 1);
  }
  send(data: Uint8Array) {
    if (this.readyState === 1) this.server.message(this, data);
  }
  receive(data: Uint8Array) {
    setTimeout(() => {
      if (this.readyState === 1) this.onmessage?.({ data: data.slice().buffer });
    }, 1);
  }
  close() {
    this.readyState = 3;
    this.server.sockets.delete(this);
  }
  serverClose(code: number) {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.server.sockets.delete(this);
    setTimeout(() => this.onclose?.({ code, reason: '' }), 1);
  }
}

let open: WeekConnection[] = [];
afterEach(() => {
  for (const c of open) c.destroy();
  open = [];
});

function connect(
  server: FakeServer,
  name: string,
  token: { value: string; renew?: () => void } = { value: 't1' },
  device?: MemoryCopies,
) {
  const conn = openWeekConnection({
    // One URL per client: no BroadcastChannel between the clients of a test.
    serverUrl: `ws://test/${name}`,
    docName: 'week:1',
    dbName: device ? 'copy' : null,
    copies: device ?? null,
    probe: server.probe,
    user: { id: name, name, color: '#1c7ed6' },
    token: () => token.value,
    renewToken: async () => token.renew?.(),
    WebSocketPolyfill: server.WebSocket,
    offlineAfterMs: 200,
  });
  open.push(conn);
  return conn;
}

const kind = (conn: WeekConnection) => conn.status().kind;
async function until(check: () => boolean, ms = 3000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('a live week connection', () => {
  it('is ready once synced, says saved only when the server holds every local change', async () => {
    const server = new FakeServer();
    server.autoStore = false;
    const conn = connect(server, 'a');
    const seen: CollabStatus['kind'][] = [];
    conn.subscribe(() => seen.push(kind(conn)));
    await conn.ready;
    expect(conn.doc.getMap('week').get('startDate')).toBe('2026-11-23');
    await until(() => kind(conn) === 'saved');

    conn.doc.getText('x').insert(0, 'hello');
    expect(kind(conn)).toBe('syncing');
    await new Promise((r) => setTimeout(r, 600)); // asked, but nothing is stored yet
    expect(kind(conn)).toBe('syncing');
    server.store();
    await until(() => kind(conn) === 'saved');
    expect(server.doc.getText('x').toString()).toBe('hello');
    expect(seen).toContain('syncing');
  });

  it('says saved as soon as the server acknowledges the update as stored, without asking', async () => {
    const server = new FakeServer();
    server.autoStore = false;
    const a = connect(server, 'a');
    const b = connect(server, 'b');
    await Promise.all([a.ready, b.ready]);
    await until(() => kind(a) === 'saved' && kind(b) === 'saved');
    const asked = server.questions;
    a.doc.getText('x').insert(0, 'hi');
    a.doc.getText('x').delete(0, 1);
    // The peer has it at once; it is a's to save, not b's.
    await until(() => b.doc.getText('x').toString() === 'i');
    expect(kind(a)).toBe('syncing');
    expect(kind(b)).toBe('saved');
    server.store();
    await until(() => kind(a) === 'saved', 500);
    expect(server.questions).toBe(asked);
  });

  it('its own update coming back relayed is not taken for stored', async () => {
    const server = new FakeServer();
    server.autoStore = false;
    const a = connect(server, 'a');
    await a.ready;
    await until(() => kind(a) === 'saved');
    a.doc.getText('x').insert(0, 'mine');
    server.echo();
    await new Promise((r) => setTimeout(r, 100));
    expect(kind(a)).toBe('syncing');
    server.store();
    await until(() => kind(a) === 'saved', 500);
  });

  it('flush resolves when everything is stored', async () => {
    const server = new FakeServer();
    const conn = connect(server, 'a');
    await conn.ready;
    conn.doc.getText('x').insert(0, 'abc');
    expect(await conn.flush(3000)).toBe(true);
    expect(server.doc.getText('x').toString()).toBe('abc');
  });

  it('relays between two clients', async () => {
    const server = new FakeServer();
    const a = connect(server, 'a');
    const b = connect(server, 'b');
    await Promise.all([a.ready, b.ready]);
    a.doc.getText('x').insert(0, 'from a');
    await until(() => b.doc.getText('x').toString() === 'from a');
    await until(() => kind(a) === 'saved' && kind(b) === 'saved');
  });

  it('goes offline, keeps typing, and merges when the server is back', async () => {
    const server = new FakeServer();
    const a = connect(server, 'a');
    const b = connect(server, 'b');
    await Promise.all([a.ready, b.ready]);
    server.refuse = 1006;
    server.closeAll(1006);
    await until(() => kind(a) === 'offline');
    expect(a.status()).toEqual({ kind: 'offline', local: false, pending: false });
    a.doc.getText('x').insert(0, 'offline words');
    expect(a.status()).toEqual({ kind: 'offline', local: false, pending: true });
    server.refuse = null;
    await until(() => kind(a) === 'saved', 8000);
    await until(() => b.doc.getText('x').toString() === 'offline words', 8000);
  }, 15_000);

  it('reconnects with a fresh token after 4401', async () => {
    const server = new FakeServer();
    const token = { value: 'old', renew: () => (token.value = 'new') };
    const conn = connect(server, 'a', token);
    await conn.ready;
    server.closeAll(4401);
    await until(() => server.urls.some((u) => u.includes('token=new&')));
    await until(() => kind(conn) === 'saved');
  });

  it('stops on 4403: denied, and opening fails', async () => {
    const server = new FakeServer();
    server.refuse = 4403;
    const conn = connect(server, 'a');
    await expect(conn.ready).rejects.toThrow(/4403/);
    expect(conn.status()).toEqual({ kind: 'denied', code: 4403 });
    const attempts = server.urls.length;
    await new Promise((r) => setTimeout(r, 500));
    expect(server.urls.length).toBe(attempts);
    expect(conn.readOnly()).toBe(true);
  });

  it('follows the server to read-only after 4000, and writes stay unsaved', async () => {
    const server = new FakeServer();
    const conn = connect(server, 'a');
    await conn.ready;
    await until(() => kind(conn) === 'saved');
    server.readOnly = true;
    server.closeAll(4000);
    await until(() => kind(conn) === 'readOnly');
    expect(conn.readOnly()).toBe(true);
    expect(conn.status()).toEqual({ kind: 'readOnly', unsaved: false });
    conn.doc.getText('x').insert(0, 'ignored');
    await until(() => conn.status().kind === 'readOnly' && (conn.status() as { unsaved: boolean }).unsaved);
    expect(await conn.flush(300)).toBe(false);
    expect(server.doc.getText('x').toString()).toBe('');
  });
});

describe('the identity epoch of a week’s document', () => {
  /** Writes on this device while the server cannot be reached, then closes the page. */
  async function editOffline(server: FakeServer, device: MemoryCopies, text: string) {
    const conn = connect(server, 'a', undefined, device);
    await conn.ready;
    await until(() => kind(conn) === 'saved');
    server.refuse = 1006;
    server.closeAll(1006);
    await until(() => kind(conn) === 'offline');
    conn.doc.getText('x').insert(0, text);
    conn.destroy();
    server.refuse = null;
  }

  it('keeps the epoch beside the copy, and a copy of the same epoch merges its offline edits', async () => {
    const server = new FakeServer();
    const device = new MemoryCopies();
    await editOffline(server, device, 'offline words');
    expect(device.stores.get('copy')?.values.get('epoch')).toBe('epoch-1');
    expect(device.stores.get('copy')?.values.get('unsent')).toBe(1);

    const again = connect(server, 'a', undefined, device);
    await again.ready;
    await until(() => kind(again) === 'saved');
    expect(server.doc.getText('x').toString()).toBe('offline words');
    expect(server.urls.at(-1)).toContain('epoch=epoch-1');
    await until(() => device.stores.get('copy')?.values.get('unsent') === 0);
  });

  it('drops a copy of another epoch (a restored server) without merging it, and says it held unsent edits', async () => {
    const server = new FakeServer();
    const device = new MemoryCopies();
    const backup = Y.encodeStateAsUpdate(server.doc);
    await editOffline(server, device, 'written before the restore');
    server.restore(backup, 'epoch-2');

    const stale = connect(server, 'a', undefined, device);
    await until(() => kind(stale) === 'replaced');
    expect(stale.status()).toEqual({ kind: 'replaced', dropped: true });
    expect(stale.readOnly()).toBe(true);
    expect(device.stores.has('copy')).toBe(false);
    expect(server.doc.getText('x').toString()).toBe('');

    // Opened again: from the server's state, under its epoch.
    const fresh = connect(server, 'a', undefined, device);
    await fresh.ready;
    await until(() => kind(fresh) === 'saved');
    expect(fresh.doc.getText('x').toString()).toBe('');
    expect(fresh.doc.getMap('week').get('startDate')).toBe('2026-11-23');
    await until(() => device.stores.get('copy')?.values.get('epoch') === 'epoch-2');
  });

  it('drops a copy whose edits were all stored without saying anything was lost', async () => {
    const server = new FakeServer();
    const device = new MemoryCopies();
    const backup = Y.encodeStateAsUpdate(server.doc);
    const first = connect(server, 'a', undefined, device);
    await first.ready;
    first.doc.getText('x').insert(0, 'stored, then lost in the restore');
    await until(() => kind(first) === 'saved');
    await until(() => device.stores.get('copy')?.values.get('unsent') === 0);
    first.destroy();
    server.restore(backup, 'epoch-2');

    const stale = connect(server, 'a', undefined, device);
    await until(() => kind(stale) === 'replaced');
    expect(stale.status()).toEqual({ kind: 'replaced', dropped: false });
    expect(server.doc.getText('x').toString()).toBe('');
  });

  it('connects from the server when the device copy never answers, and never merges that copy', async () => {
    const server = new FakeServer();
    server.doc.getText('x').insert(0, 'server text');
    // IndexedDB stalled (say behind another tab's pending delete): nothing ever answers.
    const never = new Promise<never>(() => undefined);
    const stalled: DeviceCopies = {
      open: () => ({
        origin: {},
        loaded: never,
        get: () => never,
        set: async () => undefined,
        close: async () => undefined,
      }),
      remove: async () => undefined,
    };
    const conn = openWeekConnection({
      serverUrl: 'ws://test/stalled',
      docName: 'week:1',
      dbName: 'copy',
      copies: stalled,
      probe: server.probe,
      user: { id: 'a', name: 'a', color: '#1c7ed6' },
      token: () => 't1',
      renewToken: async () => undefined,
      WebSocketPolyfill: server.WebSocket,
      offlineAfterMs: 200,
      copyWaitMs: 50,
    });
    open.push(conn);
    await until(() => conn.doc.getText('x').toString() === 'server text');
    expect(server.urls.at(-1)).toContain('epoch=');
    expect(server.urls.at(-1)).not.toContain('epoch=epoch');
  });

  it('opening while refused rejects with CollabReplaced when the copy held no week to show', async () => {
    const server = new FakeServer();
    const device = new MemoryCopies();
    device.stores.set('copy', { updates: [], values: new Map<string, unknown>([['epoch', 'epoch-0']]) });
    const conn = connect(server, 'a', undefined, device);
    await expect(conn.ready).rejects.toMatchObject({ name: 'CollabReplaced', dropped: false });
  });
});

describe('when the collab service is not served', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks over HTTP after a failed attempt, gives up on a 404 (unavailable) and never tries again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const server = new FakeServer();
    server.notServed = true;
    const conn = connect(server, 'a');
    const opened = conn.ready.then(
      () => 'ready',
      (e: Error) => e.name,
    );
    await vi.advanceTimersByTimeAsync(100);
    expect(await opened).toBe('CollabUnavailable');
    expect(conn.status()).toEqual({ kind: 'unavailable' });
    expect(await conn.flush(10)).toBe(false);
    const attempts = server.urls.length + server.probes;
    await vi.advanceTimersByTimeAsync(120_000);
    expect(server.urls.length + server.probes).toBe(attempts);
    expect(conn.status()).toEqual({ kind: 'unavailable' });
  });

  it('keeps trying while the service answers (426): a network or proxy problem, shown as offline', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const server = new FakeServer();
    server.notServed = true;
    server.probe = async () => {
      server.probes++;
      return 426;
    };
    const conn = connect(server, 'a');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(conn.status().kind).toBe('offline');
    expect(server.probes).toBeGreaterThan(1);
    server.notServed = false;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(conn.status().kind).toBe('saved');
  });
});
