import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { addTenant } from '@sprout/api/modules/auth/fixtures';
import { bladeAuth, testConfig, userWithRole } from '@sprout/api/testing';
import { inTenant } from '@sprout/core/db';
import { ensureReadModels } from '@sprout/core/events/projections/async';
import { seed } from '@sprout/core/seed';
import { type KeyValueStore, openKeyValueStore } from '@sprout/core/kv';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { testRedisUrl } from '@sprout/core/testing/services';
import { docToWeekContent } from '@sprout/contracts';
import { loadDocState } from './store';
import {
  type Client,
  connectClient,
  contentOf,
  converged,
  createWeek,
  dayText,
  type Instance,
  startInstance,
  themeOf,
  until,
  usersFor,
} from './testing';

const T = '200011';

/**
 * Several instances serving the same documents through Redis (server mode), as replicas
 * behind a load balancer do: convergence across instances, one seed when two open a new
 * document at once, and an instance stopped (or crashing) mid-edit losing nothing it
 * acknowledged.
 */
describe('collab service: several instances on one PostgreSQL and one Redis', () => {
  let t: TestDatabase;
  let config: ReturnType<typeof testConfig>;
  let users: Awaited<ReturnType<typeof usersFor>>;
  const instances: Instance[] = [];
  const clients: Client[] = [];

  const start = async (port?: number) => {
    const inst = await startInstance(t.database, { config, port, collab: { resyncMs: 1000 } });
    instances.push(inst);
    return inst;
  };
  const client = (inst: { url: string }, docName: string, token: string) => {
    const c = connectClient(inst.url, docName, token, { acks: true });
    clients.push(c);
    return c;
  };

  /** A store to publish through whose document updates never reach anyone (the rest does). */
  const losingDocumentUpdates = (kv: KeyValueStore) =>
    new Proxy(kv, {
      get(target, prop, receiver) {
        if (prop === 'publish')
          return (channel: string, message: string) =>
            channel.includes('collab:') && message.startsWith('u ')
              ? Promise.resolve()
              : target.publish(channel, message);
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });

  beforeAll(async () => {
    t = await createTestDatabase(12);
    await seed(t.database, { demo: false });
    await addTenant(t.database, { tenant_id: T });
    await ensureReadModels(t.database);
    config = testConfig({ REDIS_URL: await testRedisUrl(), KV_PREFIX: `collab-${randomBytes(4).toString('hex')}` });
    users = await usersFor(t.database, config, T);
  });
  afterAll(async () => {
    for (const c of clients) c.destroy();
    for (const i of instances) await i.app.close().catch(() => undefined);
    await t?.drop();
  });

  const week = () => createWeek(t.database, T, users.author.id, { coAuthorIds: [users.coA.id, users.coB.id] });
  const stored = (docName: string) =>
    inTenant(t.database, { tenantId: T }, async (trx) => {
      const doc = await loadDocState(trx, T, docName);
      return doc ? docToWeekContent(doc) : null;
    });

  it('clients on two instances converge; a new document opened on both at once is seeded once', async () => {
    const a = await start();
    const b = await start();
    const { docName } = await week();
    // Both instances open the new document at the same moment.
    const onA = [client(a, docName, users.author.token), client(a, docName, users.coA.token)];
    const onB = [client(b, docName, users.coB.token), client(b, docName, users.author.token)];
    const all = [...onA, ...onB];
    await Promise.all(all.map((c) => c.synced));
    await converged(all.map((c) => c.doc));
    expect(themeOf(onA[0]!.doc).toString()).toBe('秋天的秘密'); // one seed, not two merged
    expect(contentOf(onB[0]!.doc).days).toHaveLength(5);

    await Promise.all(
      all.map(async (c, i) => {
        for (let k = 0; k < 25; k++) {
          dayText(c.doc, k % 5, 'afternoon').insert(0, `${i}:${k};`);
          if (k % 10 === 0) themeOf(c.doc).insert(themeOf(c.doc).length, `#${i}`);
          await new Promise((r) => setTimeout(r, Math.random() * 8));
        }
      }),
    );
    await converged(all.map((c) => c.doc));
    const text = [0, 1, 2, 3, 4].map((d) => dayText(onA[0]!.doc, d, 'afternoon').toString()).join('');
    for (let i = 0; i < all.length; i++) for (let k = 0; k < 25; k++) expect(text).toContain(`${i}:${k};`);
    await Promise.all([a.app.collab.flush(), b.app.collab.flush()]);
    expect(await stored(docName)).toEqual(contentOf(onA[0]!.doc));
  });

  it('a logout on one instance closes the user’s socket on another', async () => {
    const [a, b] = instances as [Instance, Instance];
    const { docName } = await week();
    const someone = await userWithRole(t.database, config, T, 'admin');
    const { docName: other } = await createWeek(t.database, T, someone.id);
    const c = client(b, other, someone.token);
    await c.synced;
    expect(docName).not.toBe(other);
    const res = await a.app.inject({
      method: 'GET',
      url: '/api/blade-auth/oauth/logout',
      headers: bladeAuth(someone.token),
    });
    expect(res.statusCode).toBe(200);
    await until(() => c.closes.length > 0, 'the socket on the other instance to close');
    expect(c.closes[0]?.code).toBe(4401);
  });

  it('an instance whose pub/sub messages are lost: the others catch up from PostgreSQL, reading only what they lack', async () => {
    // Instance A's document messages never reach anyone (its own still arrive).
    const kv = await openKeyValueStore(config);
    const lossy = losingDocumentUpdates(kv);
    const a = await startInstance(t.database, { config, kv: lossy, collab: { resyncMs: 500 } });
    const b = await startInstance(t.database, { config, collab: { resyncMs: 500 } });
    try {
      const { docName } = await week();
      const onA = client(a, docName, users.author.token);
      const onB = client(b, docName, users.coA.token);
      await Promise.all([onA.synced, onB.synced]);
      for (let k = 0; k < 5; k++) {
        dayText(onA.doc, 0, 'notes').insert(0, `a${k};`);
        dayText(onB.doc, 1, 'notes').insert(0, `b${k};`);
        await new Promise((r) => setTimeout(r, 20));
      }
      await converged([onA.doc, onB.doc], 10_000);
      expect(dayText(onB.doc, 0, 'notes').toString()).toBe('a4;a3;a2;a1;a0;');
      await Promise.all([a.app.collab.flush(), b.app.collab.flush()]);
      await new Promise((r) => setTimeout(r, 1500)); // a few more resyncs: nothing new to read
      // B read exactly A's rows (never its own, never one twice). A hears B: at most a row
      // whose message was still on its way when A looked.
      expect(b.app.collab.stats.resyncRows).toBe(a.app.collab.stats.updatesStored);
      expect(a.app.collab.stats.resyncRows).toBeLessThanOrEqual(1);
    } finally {
      await a.app.close();
      await b.app.close();
      await kv.close();
    }
  });

  it('rows another instance compacted away before this one read them come back with the compacted state', async () => {
    const kv = await openKeyValueStore(config);
    const lossy = losingDocumentUpdates(kv);
    // No periodic resync during the test: B looks when the test says so.
    const a = await startInstance(t.database, { config, kv: lossy, collab: { resyncMs: 3_600_000 } });
    const b = await startInstance(t.database, { config, collab: { resyncMs: 3_600_000 } });
    try {
      const { docName } = await week();
      const onA = client(a, docName, users.author.token);
      const onB = client(b, docName, users.coA.token);
      await Promise.all([onA.synced, onB.synced]);
      dayText(onA.doc, 0, 'notes').insert(0, 'from A;'); // never announced to B
      dayText(onB.doc, 1, 'notes').insert(0, 'from B;');
      await until(() => dayText(onA.doc, 1, 'notes').toString() === 'from B;', 'A to hear B');
      await Promise.all([a.app.collab.flush(), b.app.collab.flush()]);
      await a.app.collab.compactNow(); // A's row is merged into the state and deleted
      await b.app.collab.compactNow(); // nothing left to merge: B must not take A's state for its own
      await b.app.collab.resyncNow();
      await until(() => dayText(onB.doc, 0, 'notes').toString() === 'from A;', 'B to catch up from the state');
      await converged([onA.doc, onB.doc]);
    } finally {
      await a.app.close();
      await b.app.close();
      await kv.close();
    }
  });

  for (const how of ['stopped', 'crashes'] as const) {
    it(`an instance that ${how === 'stopped' ? 'is stopped' : 'crashes'} mid-edit loses nothing it acknowledged`, async () => {
      const b = instances[1] as Instance;
      let a = await start();
      const { docName } = await week();
      const tokens = [users.author.token, users.coA.token, users.coB.token];
      const onA = [0, 1, 2].map((i) => client(a, docName, tokens[i] as string));
      const onB = [3, 4].map((i) => client(b, docName, tokens[i % 3] as string));
      const all = [...onA, ...onB];
      await Promise.all(all.map((c) => c.synced));

      // Every client writes numbered marks `c<i>-<k>;` into its own day, without pause.
      const written: string[][] = all.map(() => []);
      /** Per mark, the clock its client's structs end at once it is written. */
      const ends: Array<Map<string, number>> = all.map(() => new Map());
      let editing = true;
      const loops = all.map(async (c, i) => {
        for (let k = 0; editing; k++) {
          const mark = `c${i}-${k};`;
          dayText(c.doc, i % 5, 'notes').insert(0, mark);
          written[i]?.push(mark);
          ends[i]?.set(mark, Y.getState(c.doc.store, c.doc.clientID));
          await new Promise((r) => setTimeout(r, 5));
        }
      });
      await new Promise((r) => setTimeout(r, 400));

      if (how === 'stopped') await a.app.close();
      else {
        await a.app.collab.abort();
        await a.app.close();
      }
      instances.splice(instances.indexOf(a), 1);
      await new Promise((r) => setTimeout(r, 200)); // frames already on the wire arrive
      // Acknowledged: marks of an instance-A client that the server said it stored (message 100).
      const acknowledged = new Set<string>();
      onA.forEach((c, i) => {
        const upTo = c.acked.get(c.doc.clientID) ?? 0;
        for (const [m, end] of ends[i] ?? []) if (end <= upTo) acknowledged.add(m);
      });
      expect(acknowledged.size).toBeGreaterThan(10);
      const afterStop = await stored(docName);
      const persisted = (afterStop?.days ?? []).map((d) => d.notes).join('');
      const lost = [...acknowledged].filter((m) => !persisted.includes(m));
      expect(lost, 'acknowledged updates missing from PostgreSQL').toEqual([]);

      // A comes back on its old port: its clients reconnect on their own and send what it never stored.
      a = await start(a.port);
      await new Promise((r) => setTimeout(r, 300));
      editing = false;
      await Promise.all(loops);
      await Promise.all(onA.map((c) => until(() => c.provider.synced, 'the reconnect')));
      await converged(
        all.map((c) => c.doc),
        20_000,
      );
      await Promise.all(instances.map((i) => i.app.collab.flush()));
      const final = contentOf(all[0]!.doc);
      const text = final.days.map((d) => d.notes).join('');
      for (const marks of written) for (const m of marks) expect(text).toContain(m);
      expect(await stored(docName)).toEqual(final);
    });
  }
});
