import { buildApp } from './app';
import { workerContributions } from './contexts';
import { createCollabPlugin } from '@sprout/collab';
import { loadConfigOrExit } from '@sprout/core/config';
import { openPlatform } from '@sprout/core/platform';
import { startWorker } from '@sprout/worker';
import { saveFamilyRevisionWhenIdle } from './modules/records';
import { saveRevisionWhenIdle } from './modules/week/collab-link';
import { startWorkerHttp } from './routes/worker-http';

/** The collab service's idle revisions: the week's documents and the co-edited families' (each ignores the other's). */
function onIdle(database: Parameters<typeof saveRevisionWhenIdle>[0], timeZone: string, say: (msg: string) => void) {
  const week = saveRevisionWhenIdle(database, timeZone, say);
  const families = saveFamilyRevisionWhenIdle(database, timeZone, say);
  return async (docName: string, tenantId: string, authorIds: string[]) => {
    await week(docName, tenantId, authorIds);
    await families(docName, tenantId, authorIds);
  };
}

/**
 * One Sprout process: any subset of api, collab and worker (`SERVICES`). The embedded
 * default runs all three on PGlite and the in-process queue.
 */
async function main() {
  const config = loadConfigOrExit('Sprout cannot start.');
  const say = (msg: string) => console.log(`[sprout] ${msg}`);
  say(`starting ${config.SERVICES.join(', ')} in ${config.mode} mode`);
  const platform = await openPlatform(config, say);

  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  if (config.SERVICES.includes('worker')) {
    worker = await startWorker(platform, say, workerContributions());
    const { queues } = worker;
    say(
      `worker: ${queues.length ? queues.join(', ') : 'no processors registered'}; services: ${worker.services.join(', ')}`,
    );
  }
  const http = config.SERVICES.includes('api') || config.SERVICES.includes('collab');
  const app = http
    ? await buildApp(config, {
        database: platform.database,
        queue: platform.queue,
        kv: platform.kv,
        plugins: config.SERVICES.includes('collab')
          ? // A co-edited week or record left quiet for a while is saved as a revision (an event naming its authors).
            [createCollabPlugin({ onIdle: onIdle(platform.database, config.TIME_ZONE, say) })]
          : [],
      })
    : undefined;
  // A worker alone answers its liveness probe and a scraper (/api/health, /metrics) on METRICS_PORT when set.
  const workerHttp =
    app || config.METRICS_PORT === undefined ? undefined : await startWorkerHttp(config, platform.database);
  if (workerHttp) say(`worker: /metrics and /api/health on port ${(workerHttp.address() as { port: number }).port}`);
  if (app) {
    await app.listen({ port: config.PORT, host: config.HOST });
    const port = (app.server.address() as { port: number }).port;
    const docs = `http://localhost:${port}/api/docs${config.API_DOCS_PUBLIC ? '' : ', platform administrator only'}`;
    say(`ready: http://localhost:${port}/  (API docs: ${docs})`);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping (draining requests, closing queue and database)`);
    const force = setTimeout(() => {
      console.error('[sprout] shutdown timed out; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    try {
      await app?.close();
      await new Promise((r) => (workerHttp ? workerHttp.close(r) : r(undefined)));
      await worker?.stop(); // async projectors finish their batch before the database closes
      await platform.close();
      say('stopped');
      process.exit(0);
    } catch (err) {
      console.error('[sprout] error while stopping', err);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error('[sprout] failed to start:', err instanceof Error ? err.message : err);
  if (process.env.LOG_LEVEL === 'debug') console.error(err);
  process.exit(1);
});
