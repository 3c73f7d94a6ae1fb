import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Y from 'yjs';
import { docAuthorsSince, loadDocState } from '@sprout/collab';
import {
  type Client,
  connectClient,
  dayText,
  type Instance,
  startInstance,
  themeOf,
  until,
} from '@sprout/collab/testing';
import { inTenant } from '@sprout/core/db';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { addDays, localDate, mondayOf } from '@sprout/core/time';
import { bladeAuth, testConfig } from '../../testing';
import { demoPeople } from './week-setup';
import { saveRevisionWhenIdle, weekDoc } from './collab-link';

/**
 * The record link of live co-editing over real sockets (WebsocketProvider clients): while a
 * week is a draft its Y.Doc is its content; a revision (explicit or when idle) and the
 * submission turn the document into one event naming every author; a submitted week turns
 * read-only for its editors. Demo kindergarten: teacher1 (王芳) and teacher2 (刘洋) share 小一班.
 */
describe('live co-editing ↔ week records', () => {
  let t: TestDatabase;
  let instance: Instance;
  const config = testConfig();
  const T = '100001';
  const tok: Record<string, string> = {};
  const uid: Record<string, string> = {};
  let classId: string;
  const clients: Client[] = [];

  const call = async (who: string, method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const r = await instance.app.inject({
      method,
      url,
      headers: bladeAuth(tok[who] as string),
      ...(payload ? { payload: payload as object } : {}),
    });
    return { status: r.statusCode, body: r.json() };
  };
  const start = addDays(mondayOf(localDate(new Date(), 'Asia/Shanghai')), 21);
  // One class has one plan per week: each new week takes the next number.
  let weekNo = 16;
  const newWeek = async (theme: string) => {
    const r = await call('teacher1', 'POST', '/api/week/week/add', {
      content: {
        classId,
        weekNo: weekNo++,
        startDate: start,
        endDate: addDays(start, 4),
        theme,
        days: Array.from({ length: 5 }, (_, i) => ({ date: addDays(start, i) })),
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.id as string;
  };
  const connect = async (who: string, id: string) => {
    const c = connectClient(instance.url, weekDoc(id), tok[who] as string);
    clients.push(c);
    await c.synced;
    return c;
  };
  const authorsSince = (id: string) =>
    inTenant(t.database, { tenantId: T }, (trx) => docAuthorsSince(trx, T, weekDoc(id)));
  const history = async (id: string) =>
    (await call('teacher1', 'GET', `/api/week/week/history?id=${id}`)).body.data as Array<{
      type: string;
      actorName: string;
      authors?: Array<{ id: string; name: string }>;
      changes: Array<{ path: string; after: unknown }>;
    }>;
  const type = (doc: Y.Doc, text: Y.Text, s: string) => doc.transact(() => text.insert(text.length, s));

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    instance = await startInstance(t.database, {
      config,
      collab: { idleMs: 400, onIdle: saveRevisionWhenIdle(t.database, config.TIME_ZONE) },
    });
    const cls: Record<string, string> = {};
    await demoPeople(t.database, config, { tok, uid, cls });
    classId = cls['小一班'] as string;
  });
  afterAll(async () => {
    for (const c of clients) c.destroy();
    await instance?.app.close();
    await t?.drop();
  });

  it('two teachers type into one week; submitting makes one event with the document and both authors', async () => {
    const id = await newWeek('光与影');
    const a = await connect('teacher1', id);
    const b = await connect('teacher2', id);
    expect(themeOf(a.doc).toString()).toBe('光与影');
    type(a.doc, themeOf(a.doc), '的游戏');
    type(b.doc, dayText(b.doc, 0, 'groupTeaching'), '科学：手影游戏');
    await until(
      () =>
        themeOf(b.doc).toString() === '光与影的游戏' &&
        dayText(a.doc, 0, 'groupTeaching').toString() === '科学：手影游戏',
      'both edits to reach both teachers',
    );
    await until(async () => (await authorsSince(id)).length === 2, 'both edits to be stored');

    const submitted = await call('teacher1', 'POST', '/api/week/week/submit', { id });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.data).toMatchObject({ status: 'trial', title: '光与影的游戏' });
    expect(submitted.body.data.content.days[0].groupTeaching).toBe('科学：手影游戏');
    expect(submitted.body.data.coAuthorIds).toEqual([uid.teacher2]);

    const steps = await history(id);
    expect(steps.map((s) => s.type)).toEqual(['RecordCreated', 'RecordSubmitted']);
    const submit = steps[1];
    expect(submit?.actorName).toBe('王芳');
    expect(submit?.authors?.map((x) => x.name).sort()).toEqual(['刘洋', '王芳']);
    expect(submit?.changes).toEqual(
      expect.arrayContaining([
        // Each change names who typed it (issue 23), not only the one who submitted.
        { path: 'theme', before: '光与影', after: '光与影的游戏', authors: [{ id: uid.teacher1, name: '王芳' }] },
        {
          path: 'days.0.groupTeaching',
          before: '',
          after: '科学：手影游戏',
          authors: [{ id: uid.teacher2, name: '刘洋' }],
        },
      ]),
    );

    // In review the document is read-only for its editors: they are told to reconnect, and
    // what they type afterwards is neither relayed nor stored.
    await until(() => a.closes.some((c) => c.code === 4000), 'the editors to be told their access changed');
    await until(() => a.provider.wsconnected, 'the editor to reconnect');
    type(a.doc, themeOf(a.doc), '（改）');
    await new Promise((r) => setTimeout(r, 600));
    const stored = await inTenant(t.database, { tenantId: T }, (trx) => loadDocState(trx, T, weekDoc(id)));
    expect(themeOf(stored as Y.Doc).toString()).toBe('光与影的游戏');
    expect(themeOf(b.doc).toString()).toBe('光与影的游戏');
    stored?.destroy();
  });

  it('a document left quiet becomes a revision naming who wrote it; an explicit save names the saver', async () => {
    const id = await newWeek('好玩的水');
    const b = await connect('teacher2', id);
    type(b.doc, dayText(b.doc, 1, 'outdoor'), '户外：运水接力');
    await until(
      async () => (await history(id)).some((s) => s.type === 'DraftUpdated'),
      'the idle document to be saved as a revision',
    );
    const idle = (await history(id)).find((s) => s.type === 'DraftUpdated');
    expect(idle?.authors?.map((x) => x.name)).toEqual(['刘洋']);
    expect(idle?.changes).toEqual([
      { path: 'days.1.outdoor', before: '', after: '户外：运水接力', authors: [{ id: uid.teacher2, name: '刘洋' }] },
    ]);
    expect((await call('teacher1', 'GET', `/api/week/week/alllistForId?id=${id}`)).body.data.coAuthorIds).toEqual([
      uid.teacher2,
    ]);

    const a = await connect('teacher1', id);
    type(a.doc, themeOf(a.doc), '（一）');
    await until(async () => (await authorsSince(id)).includes(uid.teacher1 as string), 'the edit to be stored');
    const saved = await call('teacher1', 'POST', '/api/week/week/saveRevision', { id });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.title).toBe('好玩的水（一）');
    const revisions = (await history(id)).filter((s) => s.type === 'DraftUpdated');
    expect(revisions).toHaveLength(2);
    expect(revisions[1]?.authors?.map((x) => x.name)).toEqual(['王芳']);
    // Nothing new since: saving again writes nothing.
    await call('teacher1', 'POST', '/api/week/week/saveRevision', { id });
    expect((await history(id)).filter((s) => s.type === 'DraftUpdated')).toHaveLength(2);
  });

  it('a plain save of a co-edited week reaches the live document; an invalid document is not saved', async () => {
    const id = await newWeek('春天');
    const a = await connect('teacher1', id);
    const detail = (await call('teacher1', 'GET', `/api/week/week/alllistForId?id=${id}`)).body.data;
    const r = await call('teacher2', 'POST', '/api/week/week/updateWeek', {
      id,
      version: detail.version,
      content: { ...detail.content, theme: '春天来了' },
    });
    expect(r.status).toBe(200);
    await until(() => themeOf(a.doc).toString() === '春天来了', 'the live document to read the saved theme');
    // Emptying the theme live: a revision of it is refused with the field named.
    a.doc.transact(() => themeOf(a.doc).delete(0, themeOf(a.doc).length));
    await until(async () => (await authorsSince(id)).includes(uid.teacher1 as string), 'the edit to be stored');
    const bad = await call('teacher1', 'POST', '/api/week/week/saveRevision', { id });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual([{ field: 'content.theme', message: '请填写主题' }]);
    const submit = await call('teacher1', 'POST', '/api/week/week/submit', { id });
    expect(submit.status).toBe(400);
    expect((await call('teacher1', 'GET', `/api/week/week/alllistForId?id=${id}`)).body.data.status).toBe('draft');
  });

  it('a NUL typed into the live document is refused by name when it would become a revision', async () => {
    const id = await newWeek('夏天');
    const a = await connect('teacher1', id);
    type(a.doc, themeOf(a.doc), 'x\u0000y');
    await until(async () => (await authorsSince(id)).includes(uid.teacher1 as string), 'the edit to be stored');
    const bad = await call('teacher1', 'POST', '/api/week/week/saveRevision', { id });
    expect(bad.status, JSON.stringify(bad.body)).toBe(400);
    expect(bad.body.fields).toEqual([
      { field: 'content.theme', message: '不能包含控制字符（如 NUL）或无效的 Unicode 字符' },
    ]);
    expect((await call('teacher1', 'POST', '/api/week/week/submit', { id })).status).toBe(400);
  });

  it('a teacher of another class cannot open the document', async () => {
    const id = await newWeek('秘密');
    const c = connectClient(instance.url, weekDoc(id), tok.teacher3 as string);
    clients.push(c);
    await expect(c.synced).rejects.toThrow(/refused: 4403/);
  });

  it('the history credits each field to whoever typed it, and lists the lesson plans added and removed', async () => {
    const id = await newWeek('分工');
    const a = await connect('teacher1', id);
    const b = await connect('teacher2', id);
    type(a.doc, themeOf(a.doc), '合作');
    await until(async () => (await authorsSince(id)).includes(uid.teacher1 as string), '王芳’s edit to be stored');
    type(b.doc, dayText(b.doc, 0, 'groupTeaching'), '科学：手影');
    await until(async () => (await authorsSince(id)).includes(uid.teacher2 as string), '刘洋’s edit to be stored');
    // Saved in 王芳's name (she asks for the revision): the fields still name who typed them.
    const saved = await call('teacher1', 'POST', '/api/week/week/saveRevision', { id });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const plan = (title: string) =>
      call('teacher2', 'POST', '/api/week_plan/weekplan/add', {
        content: { weekId: id, title, date: start, domain: 1, activityType: 1, process: '讲解' },
      });
    const kept = await plan('科学：手影游戏');
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    const dropped = await plan('艺术：影子画');
    const removed = await call('teacher1', 'POST', `/api/week_plan/weekplan/remove?ids=${dropped.body.data.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);

    const steps = (await call('teacher1', 'GET', `/api/week/week/history?id=${id}`)).body.data as Array<{
      type: string;
      actorName: string;
      changes: Array<{ path: string; authors?: Array<{ name: string }> }>;
      child?: { kind: string; title: string };
    }>;
    const credited = (path: string) =>
      steps.flatMap((s) => s.changes.filter((c) => c.path === path).map((c) => c.authors?.map((x) => x.name)));
    expect(credited('theme')).toEqual([['王芳']]);
    expect(credited('days.0.groupTeaching')).toEqual([['刘洋']]);
    const children = steps.filter((s) => s.child);
    expect(children.map((s) => [s.type, s.actorName, s.child?.kind, s.child?.title])).toEqual([
      ['ChildAdded', '刘洋', 'week_plan', '科学：手影游戏'],
      ['ChildAdded', '刘洋', 'week_plan', '艺术：影子画'],
      ['ChildRemoved', '王芳', 'week_plan', '艺术：影子画'],
    ]);
    // In time order among the week's own steps: after the revision.
    expect(steps.findIndex((s) => s.child)).toBeGreaterThan(steps.findIndex((s) => s.type === 'DraftUpdated'));
  });
});
