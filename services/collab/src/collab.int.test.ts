import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { addTenant } from '@sprout/api/modules/auth/fixtures';
import { bladeAuth, testConfig, tokenFor, userWithRole } from '@sprout/api/testing';
import { inSystem, inTenant } from '@sprout/core/db';
import { ensureReadModels } from '@sprout/core/events/projections/async';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { docToWeekContent } from '@sprout/contracts';
import { encodeAwareness, encodeAwarenessMessage } from './protocol';
import { notifyDocChanged } from './server';
import {
  appendUpdates,
  docAuthorsSince,
  docState,
  loadDocState,
  markRevision,
  markSubmitted,
  readRevision,
  writeWeekContent,
} from './store';
import {
  type Client,
  connectClient,
  contentOf,
  converged,
  createWeek,
  dayText,
  type Instance,
  runWeek,
  sampleWeek,
  startInstance,
  themeOf,
  until,
  usersFor,
} from './testing';

const T = '200001';
const OTHER = '200002';

describe('collab service: real y-websocket clients over real sockets, on PostgreSQL', () => {
  let t: TestDatabase;
  let inst: Instance;
  const config = testConfig();
  let users: Awaited<ReturnType<typeof usersFor>>;
  const idle: Array<{ docName: string; tenantId: string; authorIds: string[] }> = [];
  const clients: Client[] = [];
  const client = (docName: string, token: string) => {
    const c = connectClient(inst.url, docName, token);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: false });
    await addTenant(t.database, { tenant_id: T });
    await addTenant(t.database, { tenant_id: OTHER });
    await ensureReadModels(t.database);
    users = await usersFor(t.database, config, T);
    inst = await startInstance(t.database, {
      config,
      collab: {
        idleMs: 300,
        onIdle: (docName, tenantId, authorIds) => {
          idle.push({ docName, tenantId, authorIds });
        },
      },
    });
  });
  afterAll(async () => {
    for (const c of clients) c.destroy();
    await inst?.app.close();
    await t?.drop();
  });

  const week = (coAuthors = [users.coA.id, users.coB.id]) =>
    createWeek(t.database, T, users.author.id, { coAuthorIds: coAuthors });
  const stored = async (docName: string) =>
    inTenant(t.database, { tenantId: T }, async (trx) => {
      const doc = await loadDocState(trx, T, docName);
      return doc ? docToWeekContent(doc) : null;
    });

  it('seeds the document from the record and lets two clients converge on concurrent edits', async () => {
    const { docName } = await week();
    const a = client(docName, users.author.token);
    const b = client(docName, users.coA.token);
    await Promise.all([a.synced, b.synced]);
    expect(contentOf(a.doc)).toEqual({
      ...sampleWeek(),
      weeklyGoals: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: '认识落叶' }] }] },
    });
    // Concurrent edits in the same text and in different fields.
    themeOf(a.doc).insert(0, '【大班】');
    themeOf(b.doc).insert(themeOf(b.doc).length, '（第二稿）');
    dayText(a.doc, 0, 'outdoor').insert(0, '捡落叶');
    dayText(b.doc, 0, 'outdoor').insert(0, '跳房子');
    await converged([a.doc, b.doc]);
    expect(themeOf(a.doc).toString()).toBe('【大班】秋天的秘密（第二稿）');
    expect(dayText(a.doc, 0, 'outdoor').toString()).toMatch(/^(捡落叶跳房子|跳房子捡落叶)$/);
    // What every peer has is what is stored.
    await inst.app.collab.flush();
    expect(await stored(docName)).toEqual(contentOf(a.doc));
  });

  it('ten clients editing at once converge, and the database holds the same document', async () => {
    const { docName } = await week();
    const tokens = [users.author.token, users.coA.token, users.coB.token];
    const ten = Array.from({ length: 10 }, (_, i) => client(docName, tokens[i % 3] as string));
    await Promise.all(ten.map((c) => c.synced));
    await Promise.all(
      ten.map(async (c, i) => {
        for (let k = 0; k < 20; k++) {
          dayText(c.doc, k % 5, 'notes').insert(0, `${i}.${k};`);
          if (k % 7 === 0) themeOf(c.doc).insert(0, `${i}`);
          await new Promise((r) => setTimeout(r, Math.random() * 5));
        }
      }),
    );
    await converged(ten.map((c) => c.doc));
    const notes = [0, 1, 2, 3, 4].map((d) => dayText(ten[0]!.doc, d, 'notes').toString()).join('');
    for (let i = 0; i < 10; i++) for (let k = 0; k < 20; k++) expect(notes).toContain(`${i}.${k};`);
    await inst.app.collab.flush();
    expect(await stored(docName)).toEqual(contentOf(ten[0]!.doc));
  });

  it('a client offline for a while merges its edits on reconnect', async () => {
    const { docName } = await week();
    const a = client(docName, users.author.token);
    const b = client(docName, users.coA.token);
    await Promise.all([a.synced, b.synced]);
    b.provider.disconnect();
    for (let k = 0; k < 10; k++) dayText(b.doc, 1, 'life').insert(0, `offline${k};`);
    const f = b.doc.getXmlFragment('reflection');
    const p = new Y.XmlElement('paragraph');
    p.insert(0, [new Y.XmlText('离线写的反思')]);
    f.insert(0, [p]);
    for (let k = 0; k < 10; k++) dayText(a.doc, 1, 'life').insert(0, `online${k};`);
    await new Promise((r) => setTimeout(r, 300));
    expect(dayText(a.doc, 1, 'life').toString()).not.toContain('offline');
    b.provider.connect();
    await converged([a.doc, b.doc]);
    const life = dayText(a.doc, 1, 'life').toString();
    for (let k = 0; k < 10; k++) expect(life).toContain(`offline${k};`);
    for (let k = 0; k < 10; k++) expect(life).toContain(`online${k};`);
    expect(contentOf(a.doc).reflection).toEqual({
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: '离线写的反思' }] }],
    });
    await inst.app.collab.flush();
    expect(await stored(docName)).toEqual(contentOf(a.doc));
  });

  it('relays an update to peers at once, acknowledges it to its writer only once stored, and hands it to a newcomer meanwhile', async () => {
    const { docName } = await week();
    const a = connectClient(inst.url, docName, users.author.token, { acks: true });
    clients.push(a);
    const b = client(docName, users.coA.token);
    await Promise.all([a.synced, b.synced]);
    const mine = () => Y.getState(a.doc.store, a.doc.clientID);
    const acked = () => a.acked.get(a.doc.clientID) ?? 0;
    // The append waits while another transaction holds the table.
    await t.database.db.transaction().execute(async (trx) => {
      await sql`lock table collab_update in share mode`.execute(trx);
      themeOf(a.doc).insert(0, '【草稿】');
      themeOf(a.doc).delete(7, 2); // 秋天的秘密 → 秋天的
      await until(() => themeOf(b.doc).toString() === '【草稿】秋天的', 'the peer to see the edit while it is stored');
      const c = client(docName, users.coB.token);
      await c.synced;
      await until(() => themeOf(c.doc).toString() === '【草稿】秋天的', 'a newcomer to get the edit not stored yet');
      await new Promise((r) => setTimeout(r, 150));
      expect(acked(), 'acknowledged before it was stored').toBeLessThan(mine());
    });
    await until(() => acked() >= mine(), 'the stored acknowledgement');
    expect((await stored(docName))?.theme).toBe('【草稿】秋天的');
    // A plain y-websocket client (no `stored=1`) never receives the extra message.
    expect(b.acked.size).toBe(0);
  });

  it('shares presence, and nobody can move or rename someone else’s cursor', async () => {
    const { docName } = await week();
    const a = client(docName, users.author.token);
    const b = client(docName, users.coA.token);
    const c = client(docName, users.coB.token);
    await Promise.all([a.synced, b.synced, c.synced]);
    a.provider.awareness.setLocalState({ user: { name: '王芳' }, field: 'theme' });
    b.provider.awareness.setLocalState({ user: { name: '刘洋' }, field: null });
    const nameAt = (x: Client, id: number) =>
      (x.provider.awareness.getStates().get(id) as { user?: { name?: string } } | undefined)?.user?.name;
    await until(
      () => nameAt(c, a.doc.clientID) === '王芳' && nameAt(c, b.doc.clientID) === '刘洋',
      'presence to spread',
    );
    // b forges an update of a's state (a newer clock, another name), then one of its own.
    const forged = encodeAwareness([
      { clientId: a.doc.clientID, clock: 1000, state: JSON.stringify({ user: { name: '冒充' }, field: 'reflection' }) },
    ]);
    b.provider.ws?.send(encodeAwarenessMessage(forged) as Uint8Array<ArrayBuffer>);
    b.provider.awareness.setLocalState({ user: { name: '刘洋' }, field: 'weeklyGoals' });
    await until(
      () => (c.provider.awareness.getStates().get(b.doc.clientID) as { field?: string })?.field === 'weeklyGoals',
      'b’s own change to arrive',
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(nameAt(c, a.doc.clientID)).toBe('王芳');
    // A newcomer is told the true state too.
    const d = client(docName, users.author.token);
    await d.synced;
    await until(() => nameAt(d, b.doc.clientID) === '刘洋', 'the newcomer to hear presence');
    expect(nameAt(d, a.doc.clientID)).toBe('王芳');
  });

  it('keeps a lone, quiet client’s socket open with messages the page hears (y-websocket drops a silent one)', async () => {
    const quick = await startInstance(t.database, { config, collab: { keepAliveMs: 300 } });
    try {
      const { docName } = await week();
      const lone = connectClient(quick.url, docName, users.author.token);
      clients.push(lone);
      await lone.synced;
      const heard = lone.provider.wsLastMessageReceived;
      await until(() => lone.provider.wsLastMessageReceived > heard, 'a keep-alive message', 3000);
      expect(lone.provider.wsconnected).toBe(true);
    } finally {
      await quick.app.close();
    }
  });

  it('an update relayed but never stored: its writer is closed, and the peers that hold it send it back', async () => {
    const { docName } = await week();
    const a = client(docName, users.author.token);
    const b = client(docName, users.coA.token);
    await Promise.all([a.synced, b.synced]);
    // The next four appends fail (every attempt the server makes for one batch), later ones succeed.
    await sql`create sequence collab_fail_once`.execute(t.database.db);
    await sql`create function collab_fail_once() returns trigger language plpgsql as $$
      begin if nextval('collab_fail_once') <= 4 then raise exception 'disk on fire'; end if; return new; end $$`.execute(
      t.database.db,
    );
    await sql`create trigger collab_fail_once before insert on collab_update for each row execute function collab_fail_once()`.execute(
      t.database.db,
    );
    try {
      themeOf(a.doc).insert(0, '【甲】');
      a.provider.disconnect(); // the writer leaves at once: only its peer holds the edit now
      await until(() => themeOf(b.doc).toString() === '【甲】秋天的秘密', 'the peer to get the edit');
      await until(() => inst.app.collab.stats.storeFailures > 0, 'the append to fail', 5000);
      await until(async () => (await stored(docName))?.theme === '【甲】秋天的秘密', 'the peer to send it back', 5000);
      expect(b.closes).toEqual([]); // without reconnecting
    } finally {
      await sql`drop trigger collab_fail_once on collab_update`.execute(t.database.db);
      await sql`drop function collab_fail_once()`.execute(t.database.db);
      await sql`drop sequence collab_fail_once`.execute(t.database.db);
    }
  });

  it('an append stuck behind a lock gives up (appendTimeoutMs): its writer is closed to retry later, and the document can leave memory', async () => {
    const impatient = await startInstance(t.database, { config, collab: { appendTimeoutMs: 100 } });
    try {
      const { docName } = await week();
      const a = connectClient(impatient.url, docName, users.author.token);
      clients.push(a);
      await a.synced;
      await t.database.db.transaction().execute(async (trx) => {
        await sql`lock table collab_update in share mode`.execute(trx);
        themeOf(a.doc).insert(0, '卡住');
        await until(() => a.closes.some((c) => c.code === 1013), 'the writer to be closed', 5000);
      });
      expect(impatient.app.collab.stats.storeFailures).toBe(1);
      // The client reconnects and sends it again; now it is stored.
      await until(
        async () => (await stored(docName))?.theme === '卡住秋天的秘密',
        'the edit to be stored after all',
        5000,
      );
      a.destroy();
      await until(() => impatient.app.collab.documentCount === 0, 'the document to leave memory');
    } finally {
      await impatient.app.close();
    }
  });

  it('drops a read-only user’s updates: never relayed, never stored', async () => {
    const { docName } = await week();
    const writer = client(docName, users.author.token);
    const reader = client(docName, users.reader.token);
    await Promise.all([writer.synced, reader.synced]);
    const dropped = inst.app.collab.stats.updatesDroppedReadOnly;
    themeOf(reader.doc).insert(0, 'READER WAS HERE ');
    await until(() => inst.app.collab.stats.updatesDroppedReadOnly > dropped, 'the update to be dropped');
    // The reader still receives everyone else's edits.
    themeOf(writer.doc).insert(0, '【定稿】');
    await until(() => themeOf(reader.doc).toString().includes('【定稿】'), 'the reader to see the writer');
    await new Promise((r) => setTimeout(r, 200));
    expect(themeOf(writer.doc).toString()).toBe('【定稿】秋天的秘密');
    await inst.app.collab.flush();
    expect((await stored(docName))?.theme).toBe('【定稿】秋天的秘密');
    // A reconnect of the reader (its sync step 2 carries the dropped edit again) changes nothing either.
    reader.provider.disconnect();
    reader.provider.connect();
    await reader.synced;
    await new Promise((r) => setTimeout(r, 300));
    expect((await stored(docName))?.theme).toBe('【定稿】秋天的秘密');
    expect(await inTenant(t.database, { tenantId: T }, (trx) => docAuthorsSince(trx, T, docName))).toEqual([
      users.author.id,
    ]);
  });

  it('refuses a user of another tenant, a missing or forged token, a bad document name', async () => {
    const { docName } = await week();
    const stranger = await userWithRole(t.database, config, OTHER, 'admin');
    const cases: Array<[string, string, number]> = [
      [docName, stranger.token, 4403],
      [docName, '', 4401],
      [docName, `${users.author.token}x`, 4401],
      ['page:1', users.author.token, 4400],
      [`week:${'9'.repeat(20)}`, users.author.token, 4400],
    ];
    for (const [name, token, code] of cases) {
      const c = connectClient(inst.url, name, token);
      clients.push(c);
      await until(() => c.closes.length > 0, `a refusal for ${name}`);
      expect(c.closes[0]?.code).toBe(code);
      // 44xx is final for y-websocket: it does not retry.
      expect(c.provider.shouldConnect).toBe(false);
      expect(c.provider.synced).toBe(false);
    }
    // A guest token (a social sign-in not registered yet) is refused too.
    const guest = connectClient(inst.url, docName, tokenFor(config, { tenant_id: T, user_id: '-1' }));
    clients.push(guest);
    await until(() => guest.closes.length > 0, 'the guest refusal');
    expect(guest.closes[0]?.code).toBe(4403);
  });

  it('closes the socket when the user logs out', async () => {
    const { docName } = await week();
    const c = client(docName, users.coB.token);
    await c.synced;
    const res = await inst.app.inject({
      method: 'GET',
      url: '/api/blade-auth/oauth/logout',
      headers: bladeAuth(users.coB.token),
    });
    expect(res.statusCode).toBe(200);
    await until(() => c.closes.length > 0, 'the socket to close');
    expect(c.closes[0]).toEqual({ code: 4401, reason: 'session ended' });
    // Logged out for good: a new connection with that token is refused.
    const again = connectClient(inst.url, docName, users.coB.token);
    clients.push(again);
    await until(() => again.closes.length > 0, 'the refusal');
    expect(again.closes[0]?.code).toBe(4401);
  });

  it('closes the socket when the user’s permissions change, and a submitted week turns read-only', async () => {
    const someone = await userWithRole(t.database, config, T, 'admin');
    const { docName, id } = await week([someone.id]);
    const c = client(docName, someone.token);
    await c.synced;
    // Roles taken away: no access left.
    await inSystem(t.database, (trx) => trx.deleteFrom('user_role').where('user_id', '=', someone.id).execute());
    await inst.app.permissions.invalidateTenant(T);
    await until(() => c.closes.length > 0, 'the socket to close');
    expect(c.closes[0]).toEqual({ code: 4403, reason: 'access revoked' });

    // Submitting: the author's connection is re-decided (read-only now) and reconnects read-only,
    // her later typing kept for her (issue 23), never in the document; a reader's is dropped.
    const w = client(docName, users.author.token);
    await w.synced;
    themeOf(w.doc).insert(0, 'A');
    await until(() => themeOf(w.doc).toString().startsWith('A'), 'the edit');
    await inst.app.collab.flush();
    await runWeek(t.database, T, id, {
      type: 'SubmitRecord',
      actor: { id: users.author.id, name: 'author' },
      at: new Date().toISOString(),
    });
    await notifyDocChanged(inst.app.auth.kv, T, docName);
    await until(() => w.closes.length > 0, 'the mode change');
    expect(w.closes[0]?.code).toBe(4000);
    await until(() => w.provider.synced, 'the reconnect');
    const kept = inst.app.collab.stats.updatesKeptLate;
    themeOf(w.doc).insert(0, 'B');
    await until(() => inst.app.collab.stats.updatesKeptLate > kept, 'the author’s trial edit to be kept for her');
    const r = client(docName, users.reader.token);
    await r.synced;
    const dropped = inst.app.collab.stats.updatesDroppedReadOnly;
    themeOf(r.doc).insert(0, 'C');
    await until(() => inst.app.collab.stats.updatesDroppedReadOnly > dropped, 'the reader’s edit to be dropped');
    await inst.app.collab.flush();
    expect((await stored(docName))?.theme).toBe('A秋天的秘密');
    const late = await inTenant(t.database, { tenantId: T }, (trx) =>
      trx.selectFrom('collab_late').select('user_id').where('doc_name', '=', docName).execute(),
    );
    expect(late.map((l) => String(l.user_id))).toEqual([users.author.id]);
  });

  it('links to the record: authors since the last revision, the revision mark, onIdle, content written by the API', async () => {
    const { docName } = await week();
    const a = client(docName, users.author.token);
    const b = client(docName, users.coA.token);
    await Promise.all([a.synced, b.synced]);
    themeOf(a.doc).insert(0, '甲');
    themeOf(b.doc).insert(0, '乙');
    await converged([a.doc, b.doc]);
    await inst.app.collab.flush();
    const ctx = { tenantId: T };
    expect(await inTenant(t.database, ctx, (trx) => docAuthorsSince(trx, T, docName))).toEqual(
      [users.author.id, users.coA.id].sort(),
    );
    // onIdle once nothing happened for idleMs, with the authors.
    await until(() => idle.some((i) => i.docName === docName), 'onIdle');
    expect(idle.find((i) => i.docName === docName)).toEqual({
      docName,
      tenantId: T,
      authorIds: [users.author.id, users.coA.id].sort(),
    });
    // Saving a revision: read under the row lock, then mark it.
    const rev = await inTenant(t.database, ctx, async (trx) => {
      const r = await readRevision(trx, T, docName);
      if (r) await markRevision(trx, T, docName, r.seq);
      return r;
    });
    expect(rev && docToWeekContent(rev.doc)).toEqual(contentOf(a.doc));
    expect(rev?.authorIds).toEqual([users.author.id, users.coA.id].sort());
    expect(await inTenant(t.database, ctx, (trx) => docAuthorsSince(trx, T, docName))).toEqual([]);
    // Only later writers count for the next revision.
    themeOf(b.doc).insert(0, '丙');
    await until(() => themeOf(a.doc).toString().startsWith('丙'), 'the edit');
    await inst.app.collab.flush();
    expect(await inTenant(t.database, ctx, (trx) => docAuthorsSince(trx, T, docName))).toEqual([users.coA.id]);

    // Content written through the HTTP API reaches the live clients (smallest edit, after notify).
    const next = { ...contentOf(a.doc), theme: '冬天来了' };
    const wrote = await inTenant(t.database, ctx, (trx) => writeWeekContent(trx, T, docName, next, users.author.id));
    expect(wrote).toBe(true);
    await notifyDocChanged(inst.app.auth.kv, T, docName);
    await until(() => themeOf(a.doc).toString() === '冬天来了', 'the API write to arrive');
    await converged([a.doc, b.doc]);
    expect(await inTenant(t.database, ctx, (trx) => writeWeekContent(trx, T, docName, next, users.author.id))).toBe(
      false,
    );
  });

  it('seeds once, compacts without changing the document, and leaves memory with the last client', async () => {
    const { docName } = await week();
    const a = client(docName, users.author.token);
    await a.synced;
    for (let k = 0; k < 50; k++) dayText(a.doc, 2, 'regional').insert(0, `${k},`);
    const b = client(docName, users.coA.token);
    await b.synced;
    await converged([a.doc, b.doc]);
    await inst.app.collab.flush();
    const before = await stored(docName);
    const rows = async () =>
      (
        await inTenant(t.database, { tenantId: T }, (trx) =>
          trx.selectFrom('collab_update').select('seq').where('doc_name', '=', docName).execute(),
        )
      ).length;
    expect(await rows()).toBeGreaterThan(0);
    const authors = () => inTenant(t.database, { tenantId: T }, (trx) => docAuthorsSince(trx, T, docName));
    expect(await authors()).toEqual([users.author.id]);
    await inst.app.collab.compactNow();
    expect(await rows()).toBe(0);
    expect(await stored(docName)).toEqual(before);
    // The merged rows' authors are still the next revision's co-authors.
    expect(await authors()).toEqual([users.author.id]);
    // One seed: the seeded theme appears once.
    expect(before?.theme).toBe('秋天的秘密');
    const docsBefore = inst.app.collab.documentCount;
    a.provider.disconnect();
    b.provider.disconnect();
    await until(() => inst.app.collab.documentCount < docsBefore, 'the document to unload');
    // Reopened from the database: the same document.
    const c = client(docName, users.coA.token);
    await c.synced;
    expect(contentOf(c.doc)).toEqual(before);
  });

  it('stores with or without waiting for the disk flush (synchronousCommit), the same rows either way', async () => {
    const { docName } = await week();
    const a = client(docName, users.author.token);
    await a.synced;
    const doc = new Y.Doc();
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(a.doc));
    const updates: Uint8Array[] = [];
    doc.on('update', (u: Uint8Array) => updates.push(u));
    themeOf(doc).insert(0, '甲');
    themeOf(doc).insert(0, '乙');
    const [first, second] = updates as [Uint8Array, Uint8Array];
    const one = await appendUpdates(t.database, T, [{ docName, userId: users.coA.id, update: first }]);
    const two = await appendUpdates(t.database, T, [{ docName, userId: users.coB.id, update: second }], {
      synchronousCommit: false,
    });
    expect(one.get(docName)).toHaveLength(1);
    expect(BigInt(two.get(docName)?.[0] as string)).toBeGreaterThan(BigInt(one.get(docName)?.[0] as string));
    expect((await stored(docName))?.theme).toBe('乙甲秋天的秘密');
    expect(await inTenant(t.database, { tenantId: T }, (trx) => docAuthorsSince(trx, T, docName))).toEqual(
      [users.coA.id, users.coB.id].sort(),
    );
  });
  it('a submission waits for the appends in flight: no update commits below its cut (issue 23, item 5)', async () => {
    const { docName } = await week();
    const a = client(docName, users.author.token);
    await a.synced;
    // Two co-authors' updates, each made on the document as it is (neither depends on the other).
    const made = (text: string) => {
      const doc = new Y.Doc();
      Y.applyUpdate(doc, Y.encodeStateAsUpdate(a.doc));
      let update: Uint8Array | undefined;
      doc.on('update', (u: Uint8Array) => {
        update = u;
      });
      themeOf(doc).insert(0, text);
      return update as Uint8Array;
    };
    const early = made('早');
    const late = made('晚');
    // coA's append is held after its row got its seq, before it commits (a trigger waiting on a
    // lock this test holds): the order two batches stored at once can commit in.
    const holder = new pg.Client({ connectionString: t.url });
    await holder.connect();
    const waiting = async (space: number) =>
      Number(
        (
          await holder.query(
            'select count(*)::int as n from pg_locks where locktype = $1 and not granted and classid = $2',
            ['advisory', space],
          )
        ).rows[0].n,
      );
    try {
      await holder.query('select pg_advisory_lock(4242, 7)');
      await holder.query(`create function test_hold_append() returns trigger language plpgsql as $$
        begin perform pg_advisory_lock(4242, 7); perform pg_advisory_unlock(4242, 7); return null; end $$`);
      await holder.query(`create trigger test_hold_append after insert on collab_update for each row
        when (new.user_id = ${BigInt(users.coA.id)}) execute function test_hold_append()`);
      const first = appendUpdates(t.database, T, [{ docName, userId: users.coA.id, update: early }]);
      await until(async () => (await waiting(4242)) === 1, 'coA’s append to hold');
      // coB's append commits first, with the higher seq.
      const second = await appendUpdates(t.database, T, [{ docName, userId: users.coB.id, update: late }]);
      let settled = false;
      const submit = inTenant(t.database, { tenantId: T }, async (trx) => {
        const r = await readRevision(trx, T, docName);
        if (!r) throw new Error('no document');
        try {
          await markSubmitted(trx, T, docName, r.seq, docState(r.doc));
          return { seq: r.seq, theme: themeOf(r.doc).toString() };
        } finally {
          r.doc.destroy();
        }
      }).finally(() => {
        settled = true;
      });
      // The submission is waiting for coA's append (or, without the cut lock, already read).
      await until(async () => settled || (await waiting(7301)) > 0, 'the submission to read or wait');
      await holder.query('select pg_advisory_unlock(4242, 7)');
      const firstSeq = (await first).get(docName)?.[0] as string;
      const cut = await submit;
      expect(BigInt(firstSeq)).toBeLessThan(BigInt(second.get(docName)?.[0] as string));
      // coA's character is in the submission, or typed after it (offered back): never neither.
      expect(cut.theme.includes('早') || BigInt(firstSeq) > BigInt(cut.seq)).toBe(true);
      expect(cut.theme).toContain('晚');
    } finally {
      await holder.query('drop trigger if exists test_hold_append on collab_update').catch(() => undefined);
      await holder.query('drop function if exists test_hold_append()').catch(() => undefined);
      await holder.end();
    }
  });
});
