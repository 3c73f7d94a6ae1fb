import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTenant } from '@sprout/api/modules/auth/fixtures';
import { testConfig } from '@sprout/api/testing';
import { ensureReadModels } from '@sprout/core/events/projections/async';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { connectClient, createWeek, type Instance, startInstance, themeOf, until, usersFor } from './testing';

const T = '200021';

// A real collection before each measurement (the flag can be set at run time; `gc` is then
// reachable from a fresh context).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapAfterGc = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().heapUsed;
};

describe('collab service: documents leave memory with their last client', () => {
  let t: TestDatabase;
  let inst: Instance;
  const config = testConfig();
  let users: Awaited<ReturnType<typeof usersFor>>;
  let names: string[] = [];

  beforeAll(async () => {
    t = await createTestDatabase(12);
    await seed(t.database, { demo: false });
    await addTenant(t.database, { tenant_id: T });
    await ensureReadModels(t.database);
    users = await usersFor(t.database, config, T);
    inst = await startInstance(t.database, { config, collab: { compactIntervalMs: 3_600_000 } });
    // 1,050 week records (50 to warm up), ten writers at a time.
    const ids: string[] = [];
    for (let i = 0; i < 1050; i += 10)
      ids.push(
        ...(await Promise.all(Array.from({ length: 10 }, () => createWeek(t.database, T, users.author.id)))).map(
          (w) => w.docName,
        ),
      );
    names = ids;
  }, 300_000);
  afterAll(async () => {
    await inst?.app.close();
    await t?.drop();
  });

  /** Opens each document with a real client and makes one edit; returns the clients (still connected). */
  async function open(docNames: string[]) {
    const clients: ReturnType<typeof connectClient>[] = [];
    for (let i = 0; i < docNames.length; i += 50) {
      clients.push(
        ...(await Promise.all(
          docNames.slice(i, i + 50).map(async (name) => {
            const c = connectClient(inst.url, name, users.author.token);
            await c.synced;
            themeOf(c.doc).insert(0, '✓');
            return c;
          }),
        )),
      );
    }
    await inst.app.collab.flush();
    await until(() => clients.every((c) => c.provider.ws?.bufferedAmount === 0), 'the edits to be sent');
    return clients;
  }

  it('opens and closes 1,000 documents: the documents map empties and the heap comes back', async () => {
    const collab = inst.app.collab;
    // Warm-up (code paths, pools, caches), then the baseline.
    for (const c of await open(names.slice(0, 50))) c.destroy();
    await until(() => collab.documentCount === 0, 'the warm-up documents to unload', 30_000);
    await collab.flush();
    const before = await heapAfterGc();

    // All 1,000 open at once, then every client leaves.
    const loads = collab.stats.loads;
    const clients = await open(names.slice(50));
    expect(collab.documentCount).toBe(1000);
    expect(collab.stats.loads - loads).toBe(1000);
    const open1000 = await heapAfterGc();
    for (const c of clients) c.destroy();
    clients.length = 0;
    await until(() => collab.documentCount === 0 && collab.connectionCount === 0, 'every document to unload', 30_000);
    await collab.flush();
    await collab.compactNow();
    const after = await heapAfterGc();
    const growth = after - before;
    console.log(
      `1,000 documents: heap ${(before / 1e6).toFixed(1)} MB before, ${(open1000 / 1e6).toFixed(1)} MB with all open ` +
        `(server and clients in this process), ${(after / 1e6).toFixed(1)} MB after the last client left ` +
        `(${(growth / 1000).toFixed(0)} kB growth)`,
    );
    expect(collab.documentCount).toBe(0);
    // A leak of even 4 kB per document would show as 4 MB.
    expect(growth).toBeLessThan(4 * 1024 * 1024);
    // Every edit reached the database.
    expect(collab.stats.updatesStored).toBeGreaterThanOrEqual(1050);
  }, 300_000);
});
