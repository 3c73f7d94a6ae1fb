import { existsSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '@sprout/core/errors';
import { fail } from '@sprout/core/http/envelope';

/** Vite's content-hashed files: a name never changes its content, so browsers keep them for a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html and the other unhashed files: asked again (ETag) on every load, so a rebuild shows at once. */
export const REVALIDATE = 'no-cache';

/**
 * Serves the built web app at `/` with an SPA fallback: an unknown path outside `/api`
 * asked for by a browser gets index.html; unknown `/api` paths get the 404 envelope.
 *
 * A rebuild of WEB_DIST is served without a restart: files are looked up on disk per
 * request (one wildcard route, no list of files taken at start), index.html is read per
 * request and revalidated by the browser (`no-cache` + ETag), and hashed assets under
 * `assets/` are immutable. A chunk name that no longer exists (a page loaded before the
 * rebuild) is a 404, never index.html in its place, so the app sees a failed chunk load.
 */
export const webPlugin = fp(
  async (app: FastifyInstance) => {
    const root = resolve(app.config.WEB_DIST);
    const assets = resolve(root, 'assets') + sep;
    const hasWeb = existsSync(resolve(root, 'index.html'));
    if (hasWeb) {
      // The app's files are public (part of the explicit allowlist, like /api/health). This
      // plugin is not encapsulated, so the hook sees every later route: only non-API paths.
      app.addHook('onRoute', (route) => {
        if (route.url !== '/api' && !route.url.startsWith('/api/')) route.config = { ...route.config, public: true };
      });
      await app.register(fastifyStatic, {
        root,
        prefix: '/',
        wildcard: true,
        index: ['index.html'],
        setHeaders(reply, path) {
          reply.header('cache-control', path.startsWith(assets) ? IMMUTABLE : REVALIDATE);
        },
      });
    } else {
      app.log.warn({ root }, 'web app not built: only /api is served');
    }

    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      const isApi = path === '/api' || path.startsWith('/api/');
      const isAsset = path.startsWith('/assets/');
      if (!isApi && !isAsset && hasWeb && (request.method === 'GET' || request.method === 'HEAD')) {
        return reply.type('text/html; charset=utf-8').header('cache-control', REVALIDATE).sendFile('index.html');
      }
      const err = new AppError('route_not_found', 'error.routeNotFound', { method: request.method, url: path });
      return reply.status(404).send(fail(err, request.lang));
    });
  },
  { name: 'sprout-web', dependencies: ['sprout-context'] },
);
