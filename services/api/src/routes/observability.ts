import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '@sprout/core/errors';
import { registerMessages } from '@sprout/core/i18n';
import { httpDuration, metricsAccess, metricsText, withRequestId } from '@sprout/core/observability';

registerMessages({
  zh: {
    'metrics.disabled': '未配置监控令牌（METRICS_TOKEN），/metrics 不对外提供',
    'metrics.network': '/metrics 只对内部网络直接访问开放',
    'metrics.token': '监控令牌无效',
  },
  en: {
    'metrics.disabled': '/metrics is off: no METRICS_TOKEN is configured',
    'metrics.network': '/metrics is served only to the internal network, reached directly',
    'metrics.token': 'The metrics token is not valid',
  },
});

/**
 * Every request runs inside its request id (`x-request-id` given by the balancer, or a new
 * UUID): the request log names it, the answer carries it back, and a job queued while
 * handling it carries it to the worker, whose log names it too. Its duration is counted in
 * `sprout_http_request_duration_seconds` by route pattern (never the raw URL: ids would
 * make a series each). Registered first, so every later hook runs inside the id.
 */
export const requestObservability = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    withRequestId(request.id, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
    httpDuration.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
});

/** Whether `/metrics` serves this caller (METRICS_TOKEN, METRICS_NETWORKS; docs/OPERATIONS.md "Metrics"). */
export function metricsRefusal(config: { METRICS_TOKEN?: string; METRICS_NETWORKS: readonly string[] }) {
  const decide = metricsAccess({ token: config.METRICS_TOKEN, networks: config.METRICS_NETWORKS });
  return (request: Pick<FastifyRequest, 'headers' | 'socket'>) =>
    decide({
      remoteAddress: request.socket.remoteAddress,
      authorization: request.headers.authorization,
      forwarded: Boolean(request.headers['x-forwarded-for'] ?? request.headers.forwarded),
    });
}

/** `GET /metrics`: Prometheus text, for a scraper inside the cluster holding METRICS_TOKEN. */
export async function metricsRoutes(app: FastifyInstance) {
  const refusal = metricsRefusal(app.config);
  app.get(
    '/metrics',
    // Public to the sign-in hook (a scraper has no user): its own token and network check below.
    { config: { public: true }, schema: { hide: true }, logLevel: 'warn' },
    async (request, reply) => {
      const why = refusal(request);
      if (why === 'token') throw new AppError('unauthorized', 'metrics.token');
      if (why) throw new AppError('forbidden', `metrics.${why}`);
      const { contentType, body } = await metricsText();
      return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
    },
  );
}
