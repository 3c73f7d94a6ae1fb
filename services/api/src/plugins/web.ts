import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '@sprout/core/errors';
import { fail } from '@sprout/core/http/envelope';

/**
 * Serves the built web app at `/` with an SPA fallback: an unknown path outside `/api`
 * asked for by a browser gets index.html; unknown `/api` paths get the 404 envelope.
 */
export const webPlugin = fp(
  async (app: FastifyInstance) => {
    const root = resolve(app.config.WEB_DIST);
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
        wildcard: false,
        index: ['index.html'],
        setHeaders(reply, path) {
          reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    } else {
      app.log.warn({ root }, 'web app not built: only /api is served');
    }

    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      const isApi = path === '/api' || path.startsWith('/api/');
      if (!isApi && hasWeb && (request.method === 'GET' || request.method === 'HEAD')) {
        return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').sendFile('index.html');
      }
      const err = new AppError('route_not_found', 'error.routeNotFound', { method: request.method, url: path });
      return reply.status(404).send(fail(err, request.lang));
    });
  },
  { name: 'sprout-web', dependencies: ['sprout-context'] },
);
