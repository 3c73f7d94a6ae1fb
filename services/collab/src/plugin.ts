import type { ServerResponse } from 'node:http';
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AccessClaims } from '@sprout/core/auth/jwt';
import { GUEST_USER_ID } from '@sprout/core/auth/service';
import type { SessionRevocations } from '@sprout/core/auth/revocation';
import type { Database } from '@sprout/core/db';
import { type Lang, registerMessages, resolveLang, t } from '@sprout/core/i18n';
import type { KeyValueStore } from '@sprout/core/kv';
import type { PermissionCache } from '@sprout/core/permissions/cache';
import { parseDocName } from '@sprout/contracts';
import { recordAccess } from './access';
import { CLOSE } from './protocol';
import { type Admission, type CollabOptions, CollabServer } from './server';

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

      const maxPayload = opts.maxMessageBytes ?? 4 * 1024 * 1024;
      if (app.hasDecorator('websocketServer')) {
        app.addHook('preClose', () => server.stop());
      } else {
        // Our stop replaces the plugin's default (which closes sockets before anything is flushed).
        await app.register(websocket, {
          options: { maxPayload, perMessageDeflate: false },
          preClose: async function (this: FastifyInstance) {
            await server.stop();
            this.websocketServer.close();
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
          if (response && raw) response.detachSocket(raw);
          server.accept(socket, () => admit(request), raw ?? undefined);
        },
      });
      app.log.info('collab service: live co-editing at /api/collab/:docName');
    },
    { name: 'sprout-collab', dependencies: ['sprout-auth'] },
  );
}
