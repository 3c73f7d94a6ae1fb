import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '@sprout/core/config';

/**
 * The Content-Security-Policy of everything Sprout serves (the web app, the API docs, API
 * answers). Scripts only from this origin, never inline (`script-src 'self'`, no
 * `'unsafe-inline'`, no inline event handlers); styles may be inline because Mantine
 * injects `<style>` tags and style attributes. The iframe route (`/myiframe/:routerPath`,
 * spec §2) embeds the http(s) pages a menu points to, and avatars and login backgrounds
 * may be any http(s) image; nothing may frame Sprout except Sprout.
 */
export const CSP_DIRECTIVES = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:', 'http:', 'https:'],
  'font-src': ["'self'", 'data:'],
  // 'self' covers the same-origin WebSocket of live co-editing (ws:/wss: to this host).
  'connect-src': ["'self'"],
  'frame-src': ["'self'", 'http:', 'https:'],
  'frame-ancestors': ["'self'"],
  'form-action': ["'self'"],
  'object-src': ["'none'"],
  'worker-src': ["'self'", 'blob:'],
  'manifest-src': ["'self'"],
} as const;

/** Sent only on requests that arrived over TLS (directly, or per X-Forwarded-Proto with TRUST_PROXY). */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** Request headers a Saber front end on another origin sends (docs/API.md "Conventions"). */
const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Blade-Auth',
  'Tenant-Id',
  'Captcha-Key',
  'Captcha-Code',
  'Content-Type',
  'Accept-Language',
  'X-Request-Id',
];

/**
 * Security headers (@fastify/helmet) on every answer — the web app's files, API calls,
 * errors and 404s alike — and CORS (@fastify/cors). Registered first, so its hooks run
 * before authentication: a CORS preflight (which carries no credentials) is answered here.
 *
 * CORS: same-origin by default. `CORS_ORIGINS` lists the origins (a separately hosted Saber
 * front end) whose browsers may call the API; they get `Access-Control-Allow-Origin` with
 * credentials, any other origin none. Every preflight (OPTIONS with `Origin` and
 * `Access-Control-Request-Method`) gets a 204 with the allowed methods and headers; without
 * an allowed origin in it the browser refuses the call.
 */
export const securityPlugin = fp<{ config: Pick<Config, 'CORS_ORIGINS'> }>(
  async (app: FastifyInstance, opts) => {
    const origins = opts.config.CORS_ORIGINS;
    await app.register(helmet, {
      contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
      // HSTS only behind TLS (below): over plain HTTP (the embedded default on localhost) it means nothing.
      strictTransportSecurity: false,
      // Another origin may load our files only when the deployment lets other origins in.
      crossOriginResourcePolicy: { policy: origins.length ? 'cross-origin' : 'same-origin' },
    });
    app.addHook('onRequest', (request, reply, done) => {
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
      done();
    });
    await app.register(cors, {
      origin: [...origins],
      credentials: origins.length > 0,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'],
      allowedHeaders: CORS_ALLOWED_HEADERS,
      exposedHeaders: ['Content-Disposition', 'Retry-After', 'X-Request-Id'],
      maxAge: 600,
    });
  },
  { name: 'sprout-security' },
);
