import cors from '@fastify/cors';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
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
 * Security headers (@fastify/helmet's, computed once: `helmetHeaders`) on every answer —
 * the web app's files, API calls, errors and 404s alike — and CORS (@fastify/cors). Registered first, so its hooks run
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
    const headers = await helmetHeaders({
      contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
      // HSTS only behind TLS (below): over plain HTTP (the embedded default on localhost) it means nothing.
      strictTransportSecurity: false,
      // Another origin may load our files only when the deployment lets other origins in.
      crossOriginResourcePolicy: { policy: origins.length ? 'cross-origin' : 'same-origin' },
    });
    // Synchronous, no promise: the same on every request.
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(headers);
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

/** Not helmet's headers: what any answer has. */
const NOT_HELMETS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/**
 * The headers @fastify/helmet sends with these options, computed once: the values are
 * helmet's, but the plugin itself rebuilds helmet's middlewares on every request behind two
 * promise hooks (≈ 30 µs of CPU per request, measured by `npm run bench -- security`), and
 * every Sprout answer gets the same headers, so one synchronous `reply.headers` does it.
 */
export async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, options);
  probe.get('/', async () => '');
  const res = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (!NOT_HELMETS.has(name) && value !== undefined) headers[name] = String(value);
  }
  if (!headers['content-security-policy']) throw new Error('@fastify/helmet sent no Content-Security-Policy');
  return headers;
}
