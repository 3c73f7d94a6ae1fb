// Sprout's collab service for the collab benchmark: the whole app (context, auth, collab) on
// PostgreSQL — and Redis when reachable, as in server mode — with `COLLAB_DOCS` week records
// to edit. Prints {url, statsUrl, docs, tokens, kv} as its first line. COLLAB_SYNC_COMMIT=off
// runs the `synchronousCommit: false` variant.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '@sprout/api/app';
import { addTenant } from '@sprout/api/modules/auth/fixtures';
import { userWithRole } from '@sprout/api/testing';
import { createCollabPlugin } from '@sprout/collab';
import { createWeek } from '@sprout/collab/testing';
import { ensureReadModels } from '@sprout/core/events/projections/async';
import { MemoryQueue } from '@sprout/core/queue';
import { seed } from '@sprout/core/seed';
import { createTestDatabase } from '@sprout/core/testing/pg';
import { loopStats } from './loop-stats';
import { benchConfig } from './bench-config';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const TENANT = '300001';
const docsWanted = Number(process.env.COLLAB_DOCS ?? 501);
const t = await createTestDatabase(16);
await seed(t.database, { demo: false });
await addTenant(t.database, { tenant_id: TENANT });
await ensureReadModels(t.database);

const { config, redisUrl } = await benchConfig('bench-collab-');
const authors: Array<{ id: string; token: string }> = [];
for (let i = 0; i < 4; i++) authors.push(await userWithRole(t.database, config, TENANT, 'admin'));
const docs: string[] = [];
for (let i = 0; i < docsWanted; i += 10) {
  const batch = await Promise.all(
    Array.from({ length: Math.min(10, docsWanted - i) }, () =>
      createWeek(t.database, TENANT, authors[0]!.id, { coAuthorIds: authors.slice(1).map((a) => a.id) }),
    ),
  );
  docs.push(...batch.map((w) => w.docName));
}

const loop = loopStats();
async function statsRoutes(app: FastifyInstance) {
  app.get('/bench/stats', { config: { public: true } }, async (request) => {
    const query = request.query as { gc?: string; reset?: string };
    if (query.gc) for (let i = 0; i < 3; i++) gc();
    const m = process.memoryUsage();
    return {
      cpu: process.cpuUsage(),
      at: performance.now(),
      heapUsed: m.heapUsed,
      rss: m.rss,
      external: m.external, // includes array buffers
      documents: app.collab.documentCount,
      connections: app.collab.connectionCount,
      collab: app.collab.stats,
      quiet: app.collab.quiet,
      loop: loop.read(query.reset === '1'),
    };
  });
}

const app = await buildApp(config, {
  database: t.database,
  queue: new MemoryQueue(),
  fastify: { logger: false },
  // COLLAB_SYNC_COMMIT=off: relay once committed, without waiting for the disk flush.
  plugins: [createCollabPlugin({ synchronousCommit: process.env.COLLAB_SYNC_COMMIT !== 'off' }), statsRoutes],
});
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;
console.log(
  JSON.stringify({
    url: `ws://127.0.0.1:${port}/api/collab`,
    statsUrl: `http://127.0.0.1:${port}/bench/stats`,
    docs,
    tokens: authors.map((a) => a.token),
    kv: redisUrl ? 'Redis' : 'memory',
  }),
);

const stop = async () => {
  await app.close();
  await t.drop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
