import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AccessClaims } from '@sprout/core/auth/jwt';
import { GUEST_USER_ID } from '@sprout/core/auth/service';
import type { SessionRevocations } from '@sprout/core/auth/revocation';
import type { Database } from '@sprout/core/db';
import { type Lang, registerMessages, resolveLang, t } from '@sprout/core/i18n';
import { collabGauge } from '@sprout/core/observability';
import type { KeyValueStore } from '@sprout/core/kv';
import type { PermissionCache } from '@sprout/core/permissions/cache';
import { parseDocName } from '@sprout/contracts';
import { recordAccess } from './access';
import { later } from './options';
import { CLOSE } from './protocol';
import { type Admission, type CollabOptions, CollabServer } from './server';
import type { WebSocket } from 'ws';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live co-editing service (services/collab), when the process serves `collab`. */
    collab: CollabServer;
  }
}

export type CollabPluginOptions = Partial<CollabOptions>;

/** What the collab plugin needs from the app: the API's context and auth plugins. */
interface Host {
  database: Database;
  auth: { kv: KeyValueStore; revocations: SessionRevocations };
  permissions: PermissionCache;
  verifyAccessToken?: (token: string) => AccessClaims | null;
}

/**
 * The route every collab client connects to: `ws(s)://<host>/api/collab/<docName>?token=<access token>`,
 * plus `&stored=1` for stored acknowledgements (message 100, protocol.ts).
 */
export const COLLAB_PATH = '/api/collab/:docName';

registerMessages({
  zh: { 'collab.upgradeRequired': '这里是实时协同编辑服务，请用 WebSocket 连接' },
  en: { 'collab.upgradeRequired': 'This is the live co-editing service: connect with a WebSocket' },
});

/**
 * The collab service as a Fastify plugin: a WebSocket route at `/api/collab/:docName`
 * speaking the y-websocket protocol (a `WebsocketProvider` with `params: { token }` connects
 * to `ws(s)://<host>/api/collab` with room `week:<id>`).
 *
 * A browser WebSocket sends no headers, so the route is outside the HTTP auth hook and
 * authenticates itself: the access token in `?token=` is checked exactly as the hook checks
 * `Blade-Auth` (the same cached verification, the same session-revocation check; guests
 * refused), the tenant comes from the token only, and `access` decides read-write,
 * read-only or refused. Refusals close the socket with a 44xx code and a reason, which
 * y-websocket's client takes as final. The route logs at `warn` only, so the URL (with its
 * token) is never written to the request log.
 *
 * Needs the app's context and auth plugins (buildApp registers them first).
 */
export function createCollabPlugin(opts: CollabPluginOptions = {}) {
  return fp(
    async (app: FastifyInstance) => {
      const host = app as unknown as Host;
      const verify = host.verifyAccessToken;
      if (!verify || !host.auth || !host.permissions) throw new Error('the collab plugin needs the sprout-auth plugin');
      const access = opts.access ?? recordAccess({ database: host.database, permissions: host.permissions });
      const server = new CollabServer({ database: host.database, kv: host.auth.kv, log: app.log }, { ...opts, access });
      await server.start();
      server.watch({ revocations: host.auth.revocations, permissions: host.permissions });
      app.decorate('collab', server);
      const unwatch = collabGauge.add(() => [
        [{ what: 'documents' }, server.documentCount],
        [{ what: 'connections' }, server.connectionCount],
        [{ what: 'pending_stores' }, server.pendingStores],
      ]);
      app.addHook('onClose', async () => unwatch());

      const maxPayload = opts.maxMessageBytes ?? 4 * 1024 * 1024;
      const upgrades = new UpgradeSockets();
      app.server.prependListener('upgrade', upgrades.onUpgrade);
      const closeGraceMs = opts.closeGraceMs ?? 2_000;
      // A bounded stop: no new WebSocket, everything received stored, every socket closed (a
      // client that never answers the close is cut after closeGraceMs), nothing left open for
      // the HTTP server's close to wait on.
      const stop = async (instance: FastifyInstance) => {
        upgrades.closing = true;
        await server.stop();
        instance.websocketServer.close();
        upgrades.endWaiting();
        await closeWebSockets(instance.websocketServer.clients, closeGraceMs);
      };
      if (app.hasDecorator('websocketServer')) {
        app.addHook('preClose', () => stop(app));
      } else {
        // Our stop replaces the plugin's default (which closes sockets before anything is flushed).
        await app.register(websocket, {
          options: { maxPayload, perMessageDeflate: false },
          preClose: function (this: FastifyInstance) {
            return stop(this);
          },
        });
      }

      const admit = async (request: FastifyRequest): Promise<Admission> => {
        const refuse = (code: number, reason: string): Admission => ({ ok: false, code, reason });
        const docName = (request.params as { docName?: unknown }).docName;
        if (typeof docName !== 'string' || !parseDocName(docName))
          return refuse(CLOSE.badDocName, 'invalid document name');
        const raw = (request.query as { token?: unknown }).token;
        const token = typeof raw === 'string' ? raw : undefined;
        if (!token) return refuse(CLOSE.unauthorized, 'access token required');
        const claims = verify(token);
        if (!claims) return refuse(CLOSE.unauthorized, 'invalid or expired access token');
        if (claims.user_id === GUEST_USER_ID) return refuse(CLOSE.forbidden, 'not allowed for guests');
        if (await host.auth.revocations.isRevoked(claims.tenant_id, claims.sid))
          return refuse(CLOSE.unauthorized, 'session ended');
        const user = { tenantId: claims.tenant_id, userId: claims.user_id, sessionId: claims.sid, claims };
        const mode = await access(user, docName);
        if (!mode) return refuse(CLOSE.forbidden, 'no access to this document');
        const query = request.query as { stored?: unknown; epoch?: unknown };
        const acks = query.stored === '1';
        const epoch = typeof query.epoch === 'string' ? query.epoch.slice(0, 64) : undefined;
        return { ok: true, user, docName, mode, acks, epoch };
      };

      // The upgrade's HTTP response object stays attached to the socket for its whole life
      // (it is never sent); detaching it lets the request and response go (a few kB per socket).
      const responses = new WeakMap<object, ServerResponse>();
      app.route({
        method: 'GET',
        url: COLLAB_PATH,
        logLevel: 'warn',
        schema: { hide: true },
        // Authenticated here, not by the HTTP hook: a browser WebSocket cannot send headers.
        config: { public: true },
        onRequest: (request, reply, done) => {
          responses.set(request.raw, reply.raw);
          done();
        },
        // A plain GET (no upgrade) is how the web app tells "the collab service is served here,
        // the WebSocket failed for another reason" (426) from "not served" (404, the API's or
        // a proxy's): a browser's WebSocket never sees the status of a refused upgrade.
        handler: (request, reply) => {
          responses.delete(request.raw);
          return reply
            .code(426)
            .header('upgrade', 'websocket')
            .send({
              code: 426,
              success: false,
              data: { collab: true },
              msg: t(
                (request as { lang?: Lang }).lang ?? resolveLang(request.headers['accept-language']),
                'collab.upgradeRequired',
              ),
            });
        },
        wsHandler: (socket, request) => {
          const response = responses.get(request.raw);
          responses.delete(request.raw);
          const raw = request.raw.socket;
          upgrades.upgraded(raw);
          if (response && raw) response.detachSocket(raw);
          server.accept(socket, () => admit(request), raw ?? undefined);
        },
      });
      app.log.info('collab service: live co-editing at /api/collab/:docName');
    },
    { name: 'sprout-collab', dependencies: ['sprout-auth'] },
  );
}

/** How long a socket answered without an upgrade may take to close its end before it is cut. */
const ANSWERED_GRACE_MS = 1_000;

/**
 * The upgrade requests' sockets, until they become WebSockets. Fastify answers an upgrade
 * request that arrives while the app is closing with a bare 503 (no hook runs, so
 * @fastify/websocket never ends the socket) and leaves the socket open: the HTTP server's
 * close then waits for it forever — and every client closed with 1001 by the stop reconnects
 * at once, while the stop is still running. So once the app closes, every upgrade socket not
 * upgraded is ended after its answer (and cut if its peer never closes its end).
 */
class UpgradeSockets {
  /** The app is closing: upgrades are no longer answered with a WebSocket. */
  closing = false;
  private readonly waiting = new Set<Duplex>();

  /** The HTTP server's `upgrade` listener (runs before @fastify/websocket's, which answers). */
  readonly onUpgrade = (_request: unknown, socket: Duplex) => {
    if (this.closing) {
      this.endAfterAnswer(socket);
      return;
    }
    this.waiting.add(socket);
    socket.once('close', () => this.waiting.delete(socket));
  };

  /** The socket became a WebSocket: the collab server closes it (stop) from now on. */
  upgraded(socket: Duplex | null | undefined) {
    if (socket) this.waiting.delete(socket);
  }

  /** Ends every upgrade socket still waiting (answered with a 503 or about to be refused). */
  endWaiting() {
    for (const socket of this.waiting) this.endAfterAnswer(socket);
    this.waiting.clear();
  }

  private endAfterAnswer(socket: Duplex) {
    // Fastify's answer is written in the same turn of the event loop: ended after it.
    setImmediate(() => {
      socket.end();
      later(() => socket.destroy(), ANSWERED_GRACE_MS);
    });
  }
}

/**
 * Waits until the WebSockets still open have finished their close handshake (the stop closed
 * them with 1001; a refused reconnect is closed the same way), at most `graceMs`; then cuts
 * those whose client never answered, so the HTTP server's close is never held by them.
 */
async function closeWebSockets(clients: Set<WebSocket>, graceMs: number) {
  const open = [...clients].filter((ws) => ws.readyState !== ws.CLOSED);
  if (!open.length) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(open.map((ws) => new Promise((resolve) => ws.once('close', resolve)))),
    new Promise((resolve) => {
      timer = later(() => resolve(undefined), graceMs);
    }),
  ]);
  clearTimeout(timer);
  for (const ws of open) if (ws.readyState !== ws.CLOSED) ws.terminate();
}
