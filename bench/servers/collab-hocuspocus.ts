// @hocuspocus/server for the collab benchmark, as it ships (no extensions: documents in
// memory only), each document loaded with the same week content Sprout seeds from the
// record. Prints {url, statsUrl} as its first line.
import { createServer } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Server } from '@hocuspocus/server';
import { sampleWeek } from '@sprout/collab/testing';
import { weekContentToDoc } from '@sprout/contracts';
import { loopStats } from './loop-stats';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const server = new Server({
  port: 0,
  address: '127.0.0.1',
  quiet: true,
  stopOnSignals: false,
  async onLoadDocument({ document }) {
    weekContentToDoc(sampleWeek(), document);
    return document;
  },
});
await server.listen(0);

const loop = loopStats();
const stats = createServer((request, response) => {
  if (request.url?.includes('gc=1')) for (let i = 0; i < 3; i++) gc();
  const m = process.memoryUsage();
  response.setHeader('content-type', 'application/json');
  response.end(
    JSON.stringify({
      cpu: process.cpuUsage(),
      at: performance.now(),
      heapUsed: m.heapUsed,
      rss: m.rss,
      external: m.external, // includes array buffers
      documents: server.hocuspocus.getDocumentsCount(),
      connections: server.hocuspocus.getConnectionsCount(),
      loop: loop.read(request.url?.includes('reset=1') ?? false),
    }),
  );
});
await new Promise<void>((resolve) => stats.listen(0, '127.0.0.1', resolve));
const statsPort = (stats.address() as { port: number }).port;
console.log(
  JSON.stringify({
    url: `ws://127.0.0.1:${server.address.port}`,
    statsUrl: `http://127.0.0.1:${statsPort}/stats`,
  }),
);

const stop = async () => {
  stats.close();
  await server.destroy();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
