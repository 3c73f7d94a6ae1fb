import type { WebSocket } from 'ws';
import type { CollabUser, DocAccess } from './access';
import type { LiveDoc } from './documents';
import { later } from './options';
import { CLOSE } from './protocol';
import type { CollabContext } from './server';

/** The outcome of authenticating a connection: a user with access, or a refusal. */
export type Admission =
  | {
      ok: true;
      user: CollabUser;
      docName: string;
      mode: Exclude<DocAccess, null>;
      /** The client asked to be told when its updates are stored (message 100, `?stored=1`). */
      acks?: boolean;
      /**
       * The epoch of the client's copy (`?epoch=`): absent, the client does not know about epochs
       * (a stock y-websocket client: told nothing); empty, it holds no copy (told the epoch,
       * message 101); otherwise refused with 4409 unless it is the document's epoch.
       */
      epoch?: string;
    }
  | { ok: false; code: number; reason: string };

/** Where session revocations and permission changes come from (see `CollabServer.watch`). */
export interface WatchSources {
  revocations?: { onRevoked(l: (sids: string[]) => void): () => void };
  permissions?: { onChange(l: (c: { tenantId: string; userId?: string }) => void): () => void };
}

const OPEN = 1;
/** Slow readers: a connection whose unsent data passes this is closed (it reconnects and resyncs). */
const MAX_BUFFERED = 32 * 1024 * 1024;
/** WebSocket pings (the page never sees them): a connection that missed one is cut. */
const PING_MS = 30_000;

const toBytes = (data: Buffer | ArrayBuffer | Buffer[]): Uint8Array =>
  Array.isArray(data) ? Buffer.concat(data) : data instanceof ArrayBuffer ? new Uint8Array(data) : data;

/** The TCP socket under a WebSocket. */
export interface RawStream {
  cork(): void;
  uncork(): void;
}

/**
 * Sockets written to since the event loop last went round: corked, and uncorked together
 * once every socket that was readable has been handled (setImmediate runs after the poll
 * phase). Under load a socket then gets the updates of many senders in one write instead of
 * one system call each; when it is quiet that is one update, sent at once.
 */
const corked = new Set<RawStream>();
let uncorkScheduled = false;
const uncorkAll = () => {
  uncorkScheduled = false;
  for (const raw of corked)
    try {
      raw.uncork();
    } catch {
      // a socket torn down meanwhile: nothing to send
    }
  corked.clear();
};
function corkUntilLoopTurns(raw: RawStream) {
  if (corked.has(raw)) return;
  raw.cork();
  corked.add(raw);
  if (!uncorkScheduled) {
    uncorkScheduled = true;
    setImmediate(uncorkAll);
  }
}

/** One live WebSocket on one document. */
export class Conn {
  readonly awarenessIds = new Set<number>();
  pendingBytes = 0;
  lastSend = Date.now();
  alive = true;
  closed = false;
  /** Bytes kept for this connection's user after a submit (`late` mode), and the chain storing them. */
  lateBytes = 0;
  lateChain: Promise<void> = Promise.resolve();
  expiry: NodeJS.Timeout | undefined;

  constructor(
    readonly socket: WebSocket,
    readonly user: CollabUser,
    readonly doc: LiveDoc,
    public mode: Exclude<DocAccess, null>,
    readonly acks: boolean,
    readonly raw: RawStream | undefined,
  ) {}

  send(message: Uint8Array) {
    if (this.closed || this.socket.readyState !== OPEN) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED) {
      this.socket.close(CLOSE.tryLater, 'too slow');
      return;
    }
    if (this.raw) corkUntilLoopTurns(this.raw);
    this.socket.send(message);
    this.lastSend = Date.now();
  }
}

/** A socket's state between upgrade and close. */
interface SocketState {
  /** Messages that arrived before the connection was admitted. */
  early: Uint8Array[];
  earlyBytes: number;
  conn: Conn | undefined;
  gone: boolean;
}

/**
 * The sockets: taken over after the upgrade, admitted (token, tenant, access) or refused
 * with a close code, joined to their document, re-checked when sessions or permissions
 * change, pinged, and forgotten when they close.
 */
export class Connections {
  private readonly conns = new Set<Conn>();
  private recheckPending = new Set<Conn>();
  private recheckTimer: NodeJS.Timeout | undefined;
  private lastPing = Date.now();

  constructor(private readonly ctx: CollabContext) {}

  get count() {
    return this.conns.size;
  }

  /**
   * Takes over an upgraded socket: buffers what the client sends while `admit` decides
   * (token, tenant, access), then joins the document or closes with the refusal's code.
   */
  accept(socket: WebSocket, admit: () => Promise<Admission>, raw?: RawStream) {
    const state = this.listen(socket);
    if (this.ctx.stopping) return this.refuse(socket, CLOSE.goingAway, 'server stopping');
    void this.admitAndJoin(socket, state, admit, raw);
  }

  /**
   * The socket's listeners, in a scope of their own: they live as long as the socket, and
   * must not keep the upgrade request (Fastify's request and reply) alive with them.
   */
  private listen(socket: WebSocket): SocketState {
    const s: SocketState = { early: [], earlyBytes: 0, conn: undefined, gone: false };
    // @fastify/websocket's error listener holds the request and reply for the socket's life.
    socket.removeAllListeners('error');
    socket.on('error', () => undefined);
    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      const bytes = toBytes(data);
      if (s.conn) return this.ctx.sync.receive(s.conn, bytes);
      s.early.push(bytes);
      s.earlyBytes += bytes.length;
      if (s.early.length > 64 || s.earlyBytes > this.ctx.opts.maxMessageBytes)
        socket.close(CLOSE.tryLater, 'too much too early');
    });
    socket.on('close', () => {
      s.gone = true;
      if (s.conn) this.detach(s.conn);
    });
    return s;
  }

  private refuse(socket: WebSocket, code: number, reason: string) {
    this.ctx.stats.refused++;
    if (socket.readyState === OPEN) socket.close(code, reason);
  }

  private async admitAndJoin(
    socket: WebSocket,
    s: SocketState,
    admit: () => Promise<Admission>,
    raw: RawStream | undefined,
  ) {
    const { ctx } = this;
    let admission: Admission;
    try {
      admission = await admit();
    } catch (err) {
      ctx.deps.log.error({ err }, 'collab: admission failed');
      return this.refuse(socket, CLOSE.internal, 'internal error');
    }
    if (!admission.ok) return this.refuse(socket, admission.code, admission.reason);
    if (s.gone || ctx.stopping) return this.refuse(socket, CLOSE.goingAway, 'server stopping');
    let doc: LiveDoc;
    try {
      doc = await ctx.documents.acquire(admission.user.tenantId, admission.docName);
    } catch (err) {
      ctx.deps.log.error({ err, doc: admission.docName }, 'collab: document could not be loaded');
      return this.refuse(socket, CLOSE.tryLater, 'document unavailable');
    }
    if (s.gone || ctx.stopping) {
      ctx.documents.release(doc);
      return this.refuse(socket, CLOSE.goingAway, 'server stopping');
    }
    if (doc.retired) {
      // Leaving memory to be loaded again under its new epoch: the client retries shortly.
      ctx.documents.release(doc);
      return this.refuse(socket, CLOSE.tryLater, 'document reloading');
    }
    if (admission.epoch && admission.epoch !== doc.epoch) {
      // A copy of another history (the document was restored or reseeded since): whatever it
      // sent meanwhile is dropped with it, never stored nor relayed.
      ctx.stats.staleCopies++;
      ctx.documents.release(doc);
      return this.refuse(socket, CLOSE.replaced, 'document replaced: drop your copy');
    }
    const conn = new Conn(socket, admission.user, doc, admission.mode, admission.acks === true, raw);
    s.conn = conn;
    this.join(conn, admission.epoch !== undefined);
    const early = s.early;
    s.early = [];
    for (const m of early) ctx.sync.receive(conn, m);
  }

  private join(conn: Conn, tellEpoch: boolean) {
    conn.doc.conns.add(conn);
    this.conns.add(conn);
    this.ctx.stats.connections++;
    conn.socket.on('pong', () => {
      conn.alive = true;
    });
    const ms = conn.user.claims.exp * 1000 - Date.now();
    conn.expiry = later(
      () => this.close(conn, CLOSE.unauthorized, 'token expired'),
      Math.min(Math.max(ms, 0), 2 ** 31 - 1),
    );
    this.ctx.sync.greet(conn, tellEpoch);
    this.ctx.presence.greet(conn);
  }

  /** Closes a connection now (its document forgets it at once; the socket finishes closing on its own). */
  close(conn: Conn, code: number, reason: string) {
    if (conn.socket.readyState === OPEN) conn.socket.close(code, reason);
    this.detach(conn);
  }

  private detach(conn: Conn) {
    if (conn.closed) return;
    conn.closed = true;
    clearTimeout(conn.expiry);
    this.conns.delete(conn);
    this.recheckPending.delete(conn);
    conn.doc.conns.delete(conn);
    this.ctx.presence.leave(conn);
    this.ctx.documents.release(conn.doc);
  }

  /** Closes every connection (stop). */
  closeAll(code: number, reason: string) {
    for (const c of [...this.conns]) this.close(c, code, reason);
  }

  /** Cuts every socket without a close handshake (a crash). */
  cutAll() {
    for (const c of [...this.conns]) {
      c.socket.terminate();
      this.detach(c);
    }
  }

  /**
   * Follows session revocations and permission changes (see `CollabServer.watch`); returns
   * how to stop following them.
   */
  watch(sources: WatchSources): Array<() => unknown> {
    const cleanups: Array<() => unknown> = [];
    if (sources.revocations)
      cleanups.push(
        sources.revocations.onRevoked((sids) => {
          const set = new Set(sids);
          for (const c of this.conns) if (set.has(c.user.sessionId)) this.close(c, CLOSE.unauthorized, 'session ended');
        }),
      );
    if (sources.permissions)
      cleanups.push(
        sources.permissions.onChange((change) => {
          for (const c of this.conns) {
            if (change.tenantId !== '*' && c.user.tenantId !== change.tenantId) continue;
            if (change.userId && c.user.userId !== change.userId) continue;
            this.recheckPending.add(c);
          }
          this.scheduleRecheck();
        }),
      );
    return cleanups;
  }

  /** Decides the access of a document's connections again (its record changed). */
  recheckDoc(doc: LiveDoc) {
    for (const c of doc.conns) this.recheckPending.add(c);
    this.scheduleRecheck();
  }

  private scheduleRecheck() {
    if (this.recheckTimer || !this.recheckPending.size) return;
    this.recheckTimer = later(() => {
      this.recheckTimer = undefined;
      void this.recheck();
    }, 20);
  }

  /** Closes a connection that has no access left, or whose access changed between read-write and read-only. */
  private async recheck() {
    const conns = [...this.recheckPending];
    this.recheckPending.clear();
    for (const c of conns) {
      if (c.closed) continue;
      let access: DocAccess;
      try {
        access = await this.ctx.opts.access(c.user, c.doc.docName);
      } catch (err) {
        this.ctx.deps.log.warn({ err }, 'collab: access re-check failed');
        continue;
      }
      if (c.closed) continue;
      if (access === null) this.close(c, CLOSE.forbidden, 'access revoked');
      else if (access !== c.mode) this.close(c, CLOSE.accessChanged, `access changed to ${access}; reconnect`);
    }
    this.scheduleRecheck();
  }

  /** Pings every connection every PING_MS, cutting one that missed the last; presence keeps quiet ones talking. */
  keepAlive() {
    const now = Date.now();
    const ping = now - this.lastPing >= PING_MS;
    if (ping) this.lastPing = now;
    for (const c of this.conns) {
      if (ping) {
        if (!c.alive) {
          c.socket.terminate();
          this.detach(c);
          continue;
        }
        c.alive = false;
        try {
          c.socket.ping();
        } catch {
          // closing already
        }
      }
      this.ctx.presence.keepAlive(c, now);
    }
  }

  /** No more access re-checks (shutdown). */
  shutdown() {
    clearTimeout(this.recheckTimer);
  }
}
