// Sprout's app over a fresh PostgreSQL database with the demo kindergarten, its files under a
// temporary DATA_DIR (local disk, the platform default): put-file as the demo's teacher.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bladeAuth, testApp } from '@sprout/api/testing';
import { accessToken } from '@sprout/api/modules/auth/fixtures';
import { MemoryQueue } from '@sprout/core/queue';
import type { Platform } from '@sprout/core/platform';
import { seed } from '@sprout/core/seed';
import { thumbnailProcessor } from '@sprout/api/modules/attach/index';
import { createTestDatabase } from '@sprout/core/testing/pg';
import { benchConfig } from './bench-config';

const dataDir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'sprout-upload-bench-'));
const t = await createTestDatabase(16);
await seed(t.database, { demo: true });
const { config } = await benchConfig('upload-bench-', { DATA_DIR: dataDir });
// The embedded default (one process: api and worker on the in-process queue): the thumbnails
// are made here, after each answer, on the same two cores the requests use.
const queue = new MemoryQueue();
const { app } = await testApp(t.database, { config, queue });
const thumbs = thumbnailProcessor();
// BENCH_NO_THUMBS=1: no worker (the request path alone, for profiling).
if (!process.env.BENCH_NO_THUMBS)
  await queue.process(
    thumbs.queue,
    thumbs.handler({ config, database: t.database, queue } as unknown as Platform),
    thumbs.options,
  );
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address() as { port: number };
const token = await accessToken(app, '100001', 'teacher1', 'sprout123');
console.log(
  JSON.stringify({
    url: `http://127.0.0.1:${address.port}/api/blade-resource/oss/endpoint/put-file`,
    headers: bladeAuth(token),
    dataDir,
  }),
);
const stop = async () => {
  await app.close();
  await t.drop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
