import { createServer, type Server } from 'node:http';
import type { Config } from '@sprout/core/config';
import type { Database } from '@sprout/core/db';
import { metricsText } from '@sprout/core/observability';
import { metricsRefusal } from './observability';

/**
 * A worker-only process has no HTTP app: this small server gives it `/metrics` (same token
 * and network rule as the app's) and `/api/health` for its liveness probe, on METRICS_PORT
 * (main.ts opens it only when METRICS_PORT is set: worker processes beside each other bind no port by default).
 */
export async function startWorkerHttp(config: Config, database: Database): Promise<Server> {
  const refusal = metricsRefusal(config);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, body: string, type = 'application/json; charset=utf-8') => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (req.method !== 'GET')
      return send(405, JSON.stringify({ code: 405, success: false, msg: 'method not allowed' }));
    if (path === '/api/health') {
      const { stalledMs, limitMs } = database.stall();
      const up = stalledMs <= limitMs;
      return send(
        up ? 200 : 503,
        JSON.stringify({ code: up ? 200 : 503, success: up, data: { status: up ? 'UP' : 'DOWN' } }),
      );
    }
    if (path === '/metrics') {
      const why = refusal(req);
      if (why)
        return send(
          why === 'token' ? 401 : 403,
          JSON.stringify({ code: why === 'token' ? 401 : 403, success: false, msg: `metrics refused: ${why}` }),
        );
      metricsText().then(
        ({ contentType, body }) => send(200, body, contentType),
        () => send(500, JSON.stringify({ code: 500, success: false, msg: 'metrics failed' })),
      );
      return;
    }
    send(404, JSON.stringify({ code: 404, success: false, msg: 'not found' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.METRICS_PORT ?? config.PORT, config.HOST, () => resolve());
  });
  return server;
}
