import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { type Client, connectClient, dayText, type Instance, startInstance, until } from '@sprout/collab/testing';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { addDays, localDate, mondayOf } from '@sprout/core/time';
import { bladeAuth, testConfig } from '../../testing';
import { demoPeople } from './week-setup';
import { weekDoc } from './collab-link';

/**
 * Submitting while a co-author types (issue 23, item 5) over real sockets and PostgreSQL:
 * 刘洋 (teacher2) types without pause while 王芳 (teacher1) submits. Every character she typed
 * is either in the submitted version or kept for her and offered back by `lateText`; after a
 * return the offer leaves out what the document already holds, and she can dismiss it.
 */
describe('submitting while a co-author types', () => {
  let t: TestDatabase;
  let instance: Instance;
  const config = testConfig();
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
  const start = addDays(mondayOf(localDate(new Date(), 'Asia/Shanghai')), 28);
  const newWeek = async (weekNo: number) => {
    const r = await call('teacher1', 'POST', '/api/week/week/add', {
      content: {
        classId,
        weekNo,
        startDate: addDays(start, 7 * weekNo),
        endDate: addDays(start, 7 * weekNo + 4),
        theme: '风',
        days: Array.from({ length: 5 }, (_, i) => ({ date: addDays(start, 7 * weekNo + i) })),
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.id as string;
  };
  const connect = async (who: string, id: string) => {
    const c = connectClient(instance.url, weekDoc(id), tok[who] as string, { acks: true });
    clients.push(c);
    await c.synced;
    return c;
  };
  /** Everything this client made is acknowledged as kept (stored or kept for its user). */
  const allAcked = (c: Client) =>
    [...Y.decodeStateVector(Y.encodeStateVector(c.doc))].every(
      ([client, clock]) => client !== c.doc.clientID || (c.acked.get(client) ?? 0) >= clock,
    );
  const lateText = async (who: string, id: string) => {
    const r = await call(who, 'GET', `/api/week/week/lateText?id=${id}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data as {
      fields: Array<{ path: string; text: string; added: string; rich: boolean }>;
      chars: number;
    };
  };

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    instance = await startInstance(t.database, { config });
    const cls: Record<string, string> = {};
    await demoPeople(t.database, config, { tok, uid, cls });
    classId = cls['小一班'] as string;
  });
  afterAll(async () => {
    for (const c of clients) c.destroy();
    await instance?.app.close();
    await t?.drop();
  });

  it('every character typed is in the submitted version or offered back to its author', async () => {
    const id = await newWeek(1);
    const b = await connect('teacher2', id);
    const field = dayText(b.doc, 0, 'groupTeaching');
    let typed = '';
    let stop = false;
    // 刘洋 types one character every few milliseconds, before, during and after the submit.
    const typing = (async () => {
      for (let i = 0; !stop; i++) {
        const ch = String.fromCharCode(0x4e00 + (i % 200));
        b.doc.transact(() => field.insert(field.length, ch));
        typed += ch;
        await new Promise((r) => setTimeout(r, 3));
      }
    })();
    await until(() => typed.length > 30, 'some typing');
    const submitted = await call('teacher1', 'POST', '/api/week/week/submit', { id });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    // She is told the week is read-only and reconnects; she keeps typing meanwhile.
    await until(() => b.closes.some((c) => c.code === 4000), 'teacher2 to be told her access changed');
    await until(() => b.provider.wsconnected && b.provider.synced, 'teacher2 to reconnect');
    const atSubmit = typed.length;
    await until(() => typed.length > atSubmit + 20, 'typing after the reconnect');
    stop = true;
    await typing;
    await until(() => allAcked(b), 'every update of teacher2 to be acknowledged (stored or kept)');

    const inSubmission = submitted.body.data.content.days[0].groupTeaching as string;
    expect(typed.startsWith(inSubmission)).toBe(true);
    expect(inSubmission.length).toBeGreaterThan(0);
    const offered = await lateText('teacher2', id);
    const late = offered.fields.find((f) => f.path === 'days.0.groupTeaching');
    expect(late, JSON.stringify(offered)).toBeDefined();
    expect(late?.rich).toBe(false);
    // Kept + offered = typed: not one character lost, none doubled.
    expect(inSubmission + late?.added).toBe(typed);
    expect(late?.text).toBe(typed);
    expect(offered.chars).toBe(typed.length - inSubmission.length);
    // Hers only: the submitter typed nothing after it.
    expect((await lateText('teacher1', id)).fields).toEqual([]);
    // The record under review holds exactly the submission.
    const detail = await call('teacher1', 'GET', `/api/week/week/alllistForId?id=${id}`);
    expect(detail.body.data.content.days[0].groupTeaching).toBe(inSubmission);
  });

  it('after a return the offer leaves out what the document holds; dismissing forgets it; scope applies', async () => {
    const id = await newWeek(2);
    const b = await connect('teacher2', id);
    const field = dayText(b.doc, 1, 'morning');
    b.doc.transact(() => field.insert(0, '晨间：'));
    await until(() => allAcked(b), 'the first words to be stored');
    expect((await call('teacher1', 'POST', '/api/week/week/submit', { id })).status).toBe(200);
    await until(() => b.closes.some((c) => c.code === 4000) && b.provider.synced, 'teacher2 to reconnect read-only');
    b.doc.transact(() => field.insert(field.length, '观察风车'));
    await until(() => allAcked(b), 'the late words to be kept');
    expect((await lateText('teacher2', id)).fields).toMatchObject([
      { path: 'days.1.morning', added: '观察风车', text: '晨间：观察风车' },
    ]);
    // The reviewer reads the week and has nothing kept; a teacher of another class cannot see it (404).
    expect((await call('reviewer', 'GET', `/api/week/week/lateText?id=${id}`)).status).toBe(200);
    expect((await lateText('reviewer', id)).fields).toEqual([]);
    expect((await call('teacher3', 'GET', `/api/week/week/lateText?id=${id}`)).status).toBe(404);

    const returned = await call('reviewer', 'POST', '/api/week/week/review', {
      id,
      action: 'return',
      comment: '请补充晨间活动',
    });
    expect(returned.status, JSON.stringify(returned.body)).toBe(200);
    // Editable again: offered until she takes or dismisses it.
    const again = await lateText('teacher2', id);
    expect(again.fields.map((f) => f.added)).toEqual(['观察风车']);
    expect((await call('teacher2', 'POST', '/api/week/week/lateText/dismiss', { id })).status).toBe(200);
    expect((await lateText('teacher2', id)).fields).toEqual([]);
  });

  it('a week never co-edited live has nothing kept; a bad id is a 400 and writes nothing', async () => {
    const id = await newWeek(3);
    expect(await lateText('teacher1', id)).toEqual({ fields: [], chars: 0 });
    expect((await call('teacher1', 'GET', '/api/week/week/lateText?id=abc')).status).toBe(400);
    expect((await call('teacher1', 'POST', '/api/week/week/lateText/dismiss', {})).status).toBe(400);
  });
});
