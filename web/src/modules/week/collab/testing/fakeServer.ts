import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';
import { openWeekConnection, type WeekConnection } from '../connection';
import type { DeviceCopies, DeviceCopy } from '../deviceCopy';

/**
 * The connection against a stand-in for the collab service speaking y-websocket's protocol
 * the way docs/API.md describes it: step 1 and (read-only) the auth message on join, a step 2
 * for every step 1, updates relayed at once and stored (when the test says so) before they
 * are applied and acknowledged to their sender (message 100), closing codes.
 */
export class FakeServer {
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
export class MemoryCopies implements DeviceCopies {
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
/** Closed after the test (`closeConnections`) like the ones `connect` opens. */
export function closeAfterTest(conn: WeekConnection): WeekConnection {
  open.push(conn);
  return conn;
}

/** Closes every connection `connect` opened (each test file's `afterEach`). */
export function closeConnections(): void {
  for (const c of open) c.destroy();
  open = [];
}

/** A connection of client `name` to `server` (through `device`'s copies when given). */
export function connect(
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

export const kind = (conn: WeekConnection) => conn.status().kind;
export async function until(check: () => boolean, ms = 3000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}
