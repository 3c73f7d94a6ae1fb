import { MemoryStore } from '@sprout/core/kv';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@sprout/core/config';
import { type Database, inSystem, inTenant, openDatabase, tenantRouter } from '@sprout/core/db';
import { migrateToLatest } from '@sprout/core/db/migrate';
import { appendToStream, registerProjection } from '@sprout/core/events';
import type { Platform } from '@sprout/core/platform';
import { MemoryQueue } from '@sprout/core/queue';
import { copyChecksum, eventCopyProjection } from '@sprout/core/testing/events';
import { startWorker } from './index';

/** The worker starts the async projectors with the platform and stops them before it closes. */
describe('worker: async projections service (embedded mode, PGlite)', () => {
  const queue = new MemoryQueue();
  let platform: Platform;
  afterAll(async () => {
    await platform?.close();
  });

  it('follows the log while running and stops cleanly', async () => {
    registerProjection(eventCopyProjection('worker_copy'));
    const database = await openDatabase({ dataDir: 'memory://' });
    await migrateToLatest(database.db as never);
    platform = {
      config: loadConfig({ DATA_DIR: '/tmp/sprout-test-data', LOG_LEVEL: 'silent', JWT_SECRET: 'x'.repeat(40) }),
      database,
      queue,
      kv: new MemoryStore(),
      close: async () => {
        await queue.close();
        await database.close();
      },
    };
    const logs: string[] = [];
    const worker = await startWorker(platform, (m) => logs.push(m));
    expect(worker.services).toContain('projections');
    expect(logs.join('\n')).toMatch(/projections: .*worker_copy/);
    const ctx = { tenantId: '100001' };
    for (let i = 0; i < 5; i++)
      await inTenant(database, ctx, (trx) =>
        appendToStream(
          trx,
          { tenantId: '100001', type: 'w', id: `w${i}` },
          'no_stream',
          [{ type: 'Wrote', data: { i } }],
          {},
        ),
      );
    const deadline = Date.now() + 10_000;
    let copied = '0';
    while (Date.now() < deadline) {
      copied = (await inSystem(database, (trx) => copyChecksum(trx, 'worker_copy'))).n;
      if (copied === '5') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(copied).toBe('5');
    await worker.stop();
    // Stopped: nothing more is applied.
    await inTenant(database, ctx, (trx) =>
      appendToStream(
        trx,
        { tenantId: '100001', type: 'w', id: 'late' },
        'no_stream',
        [{ type: 'Wrote', data: {} }],
        {},
      ),
    );
    await new Promise((r) => setTimeout(r, 400));
    const n = await inSystem(database, (trx) =>
      sql<{ n: number }>`select count(*)::int as n from worker_copy`.execute(trx),
    );
    expect(n.rows[0]!.n).toBe(5);
  });

  it('runs projectors on a tenant’s own database too, also one bound after the start (issue 21)', async () => {
    registerProjection(eventCopyProjection('worker_copy_ds'));
    const open = async () => {
      const db = await openDatabase({ dataDir: 'memory://' });
      await migrateToLatest(db.db as never);
      return db;
    };
    const main = await open();
    const early = await open();
    const late = await open();
    tenantRouter(main).bind('100002', early);
    const own: Platform = {
      ...platform,
      database: main,
      close: async () => {
        for (const db of [late, early, main]) await db.close();
      },
    };
    const logs: string[] = [];
    const worker = await startWorker(own, (m) => logs.push(m));
    expect(logs.join('\n')).toMatch(/projections: also on 1 tenant data source/);
    // Bound after the start: the router tells the worker, which starts that database's projectors.
    tenantRouter(main).bind('100003', late);
    const append = (tenantId: string, id: string) =>
      inTenant(main, { tenantId }, (trx) =>
        appendToStream(trx, { tenantId, type: 'w', id }, 'no_stream', [{ type: 'Wrote', data: {} }], {}),
      );
    for (let i = 0; i < 3; i++) {
      await append('100002', `e${i}`);
      await append('100003', `l${i}`);
    }
    const copied = (db: Database) => inSystem(db, (trx) => copyChecksum(trx, 'worker_copy_ds')).then((c) => c.n);
    await expect.poll(() => copied(early), { timeout: 15_000 }).toBe('3');
    await expect.poll(() => copied(late), { timeout: 15_000 }).toBe('3');
    // Nothing of theirs went to the main database's log.
    expect(await copied(main)).toBe('0');
    await worker.stop();
    await own.close();
  });
});
