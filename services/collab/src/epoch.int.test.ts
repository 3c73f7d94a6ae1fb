import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { buildApp } from '@sprout/api/app';
import { addTenant } from '@sprout/api/modules/auth/fixtures';
import { testConfig } from '@sprout/api/testing';
import { inTenant } from '@sprout/core/db';
import { ensureReadModels } from '@sprout/core/events/projections/async';
import { MemoryQueue } from '@sprout/core/queue';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import type { KeyValueStore } from '@sprout/core/kv';
import { docToWeekContent } from '@sprout/contracts';
import { notifyEpochRenewed } from './server';
import { loadDocState, renewEpoch } from './store';
import {
  type Client,
  connectClient,
  contentOf,
  converged,
  createWeek,
  type Instance,
  startInstance,
  themeOf,
  until,
  usersFor,
} from './testing';

const T = '200011';

/**
 * The identity epoch of a live document (migration 0016): a browser's copy of another history
 * (the server's state restored or reseeded since) is refused and never merged back in, while
 * stock y-websocket clients, which know nothing of epochs, are told nothing and work as before.
 */
describe('collab: the document identity epoch', () => {
  let t: TestDatabase;
  let inst: Instance;
  const config = testConfig();
  let users: Awaited<ReturnType<typeof usersFor>>;
  const clients: Client[] = [];
  const client = (docName: string, opts: { doc?: Y.Doc; epoch?: string } = {}) => {
    const c = connectClient(inst.url, docName, users.author.token, opts);
    clients.push(c);
    return c;
  };
  const storedTheme = async (docName: string) =>
    inTenant(t.database, { tenantId: T }, async (trx) => {
      const doc = await loadDocState(trx, T, docName);
      return doc ? docToWeekContent(doc).theme : null;
    });
  const epochOf = async (docName: string) =>
    (
      await sql<{
        epoch: string;
      }>`select epoch from collab_doc where tenant_id = ${T} and doc_name = ${docName}`.execute(t.database.db)
    ).rows[0]?.epoch;
  /** A closed connection's document leaves memory (the next connection loads it from the database). */
  const leave = async (...cs: Client[]) => {
    for (const c of cs) c.destroy();
    await until(() => inst.app.collab.documentCount === 0, 'the document to leave memory');
  };

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: false });
    await addTenant(t.database, { tenant_id: T });
    await ensureReadModels(t.database);
    users = await usersFor(t.database, config, T);
    inst = await startInstance(t.database, { config });
  });
  afterAll(async () => {
    for (const c of clients) c.destroy();
    await inst?.app.close();
    await t?.drop();
  });

  it('tells a client that asks (?epoch=) the epoch before anything else, and takes it back when it names it', async () => {
    const { docName } = await createWeek(t.database, T, users.author.id);
    const a = client(docName, { epoch: '' });
    await a.synced;
    const epoch = await epochOf(docName);
    expect(epoch).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.epochs).toEqual([epoch]);
    themeOf(a.doc).insert(0, '认得的 ');
    await until(async () => (await storedTheme(docName))?.startsWith('认得的 ') === true, 'the edit to be stored');
    await leave(a);

    // The same copy, reconnecting with its epoch: accepted, and its offline edit is merged.
    const copy = new Y.Doc();
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(a.doc));
    themeOf(copy).insert(0, '离线 ');
    const again = client(docName, { doc: copy, epoch });
    await again.synced;
    await until(async () => (await storedTheme(docName))?.startsWith('离线 认得的 ') === true, 'the offline edit');
    expect(again.closes).toEqual([]);
    await leave(again);
  });

  it('refuses a copy of another epoch with 4409 after a restore, and stores nothing of it', async () => {
    const { docName } = await createWeek(t.database, T, users.author.id);
    const a = client(docName, { epoch: '' });
    await a.synced;
    const old = a.epochs[0] as string;
    const copy = new Y.Doc();
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(a.doc));
    await leave(a);

    // The operator restores a backup (here: the stored state as it was) and renews the epoch.
    expect(await renewEpoch(t.database, { tenantId: T, docName })).toBe(1);
    const fresh = await epochOf(docName);
    expect(fresh).not.toBe(old);
    const before = await storedTheme(docName);

    // The copy holds an edit the restored server never had: it must not come back.
    themeOf(copy).insert(0, '旧的 ');
    const stale = client(docName, { doc: copy, epoch: old });
    await expect(stale.synced).rejects.toThrow(/4409/);
    expect(stale.closes.map((c) => c.code)).toEqual([4409]);
    expect(stale.epochs).toEqual([]);
    await leave(stale);
    expect(await storedTheme(docName)).toBe(before);
    expect(inst.app.collab.stats.staleCopies).toBeGreaterThan(0);

    // Without a copy the browser starts from the server's state, under the new epoch.
    const b = client(docName, { epoch: '' });
    await b.synced;
    expect(b.epochs).toEqual([fresh]);
    expect(contentOf(b.doc).theme).toBe(before);
    await leave(b);
  });

  it('a reseeded document (its rows gone, opened anew) has a new epoch by itself', async () => {
    const { docName } = await createWeek(t.database, T, users.author.id);
    const a = client(docName, { epoch: '' });
    await a.synced;
    const old = a.epochs[0] as string;
    themeOf(a.doc).insert(0, '重置前 ');
    await until(async () => (await storedTheme(docName))?.startsWith('重置前 ') === true, 'the edit to be stored');
    const copy = new Y.Doc();
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(a.doc));
    await leave(a);
    for (const table of ['collab_update', 'collab_author', 'collab_doc'])
      await sql`delete from ${sql.table(table)} where tenant_id = ${T} and doc_name = ${docName}`.execute(
        t.database.db,
      );

    const stale = client(docName, { doc: copy, epoch: old });
    await expect(stale.synced).rejects.toThrow(/4409/);
    await leave(stale);
    const theme = await storedTheme(docName);
    expect(theme).not.toContain('重置前');
    expect(await epochOf(docName)).not.toBe(old);
  });

  /** A client that names its epoch from now on, as Sprout's web client does (message 101). */
  const namingItsEpoch = async (docName: string) => {
    const c = client(docName, { epoch: '' });
    await c.synced;
    c.provider.params = { ...c.provider.params, epoch: c.epochs[0] as string };
    return c;
  };
  const codes = (c: Client) => c.closes.map((x) => x.code);

  it('renewed while loaded: a write of the old epoch is never stored, its writers reconnect and are refused', async () => {
    const { docName } = await createWeek(t.database, T, users.author.id);
    const a = await namingItsEpoch(docName);
    const before = await storedTheme(docName);
    const { stats } = inst.app.collab;
    const stale = stats.staleUpdates;
    expect(await renewEpoch(t.database, { tenantId: T, docName })).toBe(1);

    themeOf(a.doc).insert(0, '恢复后写的 ');
    await until(() => codes(a).includes(4409), 'the writer to be closed, then refused');
    expect(codes(a)[0]).toBe(4000);
    expect(stats.staleUpdates).toBeGreaterThan(stale);
    await leave(a);
    expect(await storedTheme(docName)).toBe(before);

    // Loaded again under the new epoch.
    const b = client(docName, { epoch: '' });
    await b.synced;
    expect(b.epochs).toEqual([await epochOf(docName)]);
    expect(contentOf(b.doc).theme).toBe(before);
    await leave(b);
  });

  it('renewed and announced (notifyEpochRenewed): a loaded document closes its connections at once', async () => {
    const { docName } = await createWeek(t.database, T, users.author.id);
    const a = await namingItsEpoch(docName);
    await renewEpoch(t.database, { tenantId: T, docName });
    const kv = (inst.app as unknown as { auth: { kv: KeyValueStore } }).auth.kv;
    await notifyEpochRenewed(kv, T);
    await until(() => codes(a).includes(4409), 'the client to be closed, then refused');
    expect(codes(a)[0]).toBe(4000);
    await leave(a);
  });

  it('a stock y-websocket client (no ?epoch=) is told nothing and converges with one that asks', async () => {
    const { docName } = await createWeek(t.database, T, users.author.id);
    const stock = client(docName);
    const sprout = client(docName, { epoch: '' });
    await Promise.all([stock.synced, sprout.synced]);
    themeOf(stock.doc).insert(0, 'stock ');
    themeOf(sprout.doc).insert(0, 'sprout ');
    await converged([stock.doc, sprout.doc]);
    expect(stock.epochs).toEqual([]);
    expect(sprout.epochs).toHaveLength(1);
    await leave(stock, sprout);
  });

  it('a plain GET of a document answers 426 where the collab service is served, 404 where it is not', async () => {
    const served = await inst.app.inject({ method: 'GET', url: '/api/collab/week:1' });
    expect(served.statusCode).toBe(426);
    expect(served.headers.upgrade).toBe('websocket');
    expect(served.json().msg).toBe('这里是实时协同编辑服务，请用 WebSocket 连接');
    const english = await inst.app.inject({
      method: 'GET',
      url: '/api/collab/week:1',
      headers: { 'accept-language': 'en' },
    });
    expect(english.json().msg).toBe('This is the live co-editing service: connect with a WebSocket');
    const api = await buildApp(config, { database: t.database, queue: new MemoryQueue(), fastify: { logger: false } });
    try {
      const notServed = await api.inject({ method: 'GET', url: '/api/collab/week:1' });
      expect(notServed.statusCode).toBe(404);
    } finally {
      await api.close();
    }
  });
});
