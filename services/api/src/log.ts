import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Config } from '@sprout/core/config';

/**
 * A request's URL as the log records it: the path and the names of its query parameters,
 * never their values. Query strings carry credentials (the BladeX token endpoint's
 * `md5(password)`, the live co-editing socket's access token, OAuth codes) and personal data
 * (a phone number to look up); ASVS 7.1.1, docs/SECURITY.md V7.
 */
export function urlForLog(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const names = url
    .slice(q + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => pair.split('=')[0]);
  return names.length ? `${url.slice(0, q)}?${names.join('&')}` : url.slice(0, q);
}

/** Fastify's logger options: a request is logged without its headers (so no credentials) and without query values. */
export function loggerOptions(config: Config): NonNullable<Exclude<FastifyServerOptions['logger'], boolean>> {
  return {
    level: config.LOG_LEVEL,
    serializers: {
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: urlForLog(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}
