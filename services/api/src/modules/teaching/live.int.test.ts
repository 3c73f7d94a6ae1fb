import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { type Client, connectClient, type Instance, startInstance, until } from '@sprout/collab/testing';
import { docNameOf, RECORD_MAP } from '@sprout/contracts';
import { inSystem } from '@sprout/core/db';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { localDate } from '@sprout/core/time';
import { addTenant } from '../auth/fixtures';
import { bladeAuth, testConfig, tokenFor, userWithRole } from '../../testing';
import { saveFamilyRevisionWhenIdle, semesterOf } from '../records';

/**
 * 班级总结 and 班级工作计划 written together, live (issue 19): the class's teaching team joins the
 * record's document (`class_summary:<id>`) as it joins a week's; who may join is who may edit
 * the record; a revision and the submission become events naming every author. Demo
 * kindergarten: teacher1 and teacher2 teach 小一班, teacher3 teaches 中一班 only.
 */
const T = '100001';
const OTHER = '200019';
const SUM = '/api/t_class_summary/classsummary';
const WORK = '/api/t_class_work/classwork';
const semester = semesterOf(localDate(new Date(), 'Asia/Shanghai'));

/** Types a paragraph at the end of a rich field's fragment, as Tiptap's Collaboration would. */
function typeParagraph(doc: Y.Doc, field: string, text: string) {
  doc.transact(() => {
    const fragment = doc.getXmlFragment(field);
    const paragraph = new Y.XmlElement('paragraph');
    fragment.push([paragraph]);
    const t = new Y.XmlText();
    paragraph.insert(0, [t]);
    t.insert(0, text);
  });
}
const plain = (doc: Y.Doc, field: string) =>
  doc
    .getXmlFragment(field)
    .toArray()
    .map((n) =>
      n instanceof Y.XmlElement
        ? n
            .toArray()
            .map((c) => (c instanceof Y.XmlText ? c.toString() : ''))
            .join('')
        : '',
    )
    .join('\n');

describe('co-edited class summaries and work plans (live documents of a record family)', () => {
  let t: TestDatabase;
  let instance: Instance;
  const config = testConfig();
  const tok: Record<string, string> = {};
  const uid: Record<string, string> = {};
  const cls: Record<string, string> = {};
  const clients: Client[] = [];

  const call = async (who: string, method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const r = await instance.app.inject({
      method,
      url,
      headers: who in tok ? bladeAuth(tok[who] as string) : bladeAuth(who),
      ...(payload ? { payload: payload as object } : {}),
    });
    return { status: r.statusCode, body: r.json() };
  };
  const connect = (token: string, name: string) => {
    const c = connectClient(instance.url, name, token);
    clients.push(c);
    return c;
  };
  const newSummary = async (title: string) => {
    const r = await call('teacher1', 'POST', `${SUM}/update`, {
      content: { title, classId: cls['小一班'], semester, highlights: '', problems: '', nextSteps: '', domains: [] },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.id as string;
  };

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    await addTenant(t.database, { tenant_id: OTHER });
    instance = await startInstance(t.database, {
      config,
      collab: { idleMs: 60_000, onIdle: saveFamilyRevisionWhenIdle(t.database, config.TIME_ZONE) },
    });
    await inSystem(t.database, async (trx) => {
      for (const u of await trx.selectFrom('app_user').select(['id', 'account']).where('tenant_id', '=', T).execute()) {
        uid[u.account] = String(u.id);
        tok[u.account] = tokenFor(config, { tenant_id: T, user_id: String(u.id) });
      }
      for (const c of await trx.selectFrom('clazz').select(['id', 'name']).where('tenant_id', '=', T).execute())
        cls[c.name] = String(c.id);
    });
  });
  afterAll(async () => {
    for (const c of clients) c.destroy();
    await instance?.app.close();
    await t?.drop();
  });

  it('two teachers of the class write one summary at once; the saved version names both', async () => {
    const id = await newSummary('小一班学期总结');
    const name = docNameOf('class_summary', id);
    const a = connect(tok.teacher1 as string, name);
    const b = connect(tok.teacher2 as string, name);
    await a.synced;
    await b.synced;
    // Seeded from the record: its plain fields in the `record` map.
    expect(a.doc.getMap(RECORD_MAP).get('title')).toBe('小一班学期总结');
    typeParagraph(a.doc, 'highlights', '孩子们在种植角观察了豆芽的生长');
    typeParagraph(b.doc, 'problems', '午睡起床后整理衣物较慢');
    await until(
      () =>
        plain(b.doc, 'highlights') === '孩子们在种植角观察了豆芽的生长' &&
        plain(a.doc, 'problems') === '午睡起床后整理衣物较慢',
      'each teacher to see the other’s text',
    );

    // Saved as a version: one event with the document's content, naming both authors.
    await until(async () => {
      const saved = await call('teacher2', 'POST', `${SUM}/saveRevision`, { id });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      return (
        JSON.stringify(saved.body.data.content).includes('午睡起床后整理衣物较慢') &&
        JSON.stringify(saved.body.data.content).includes('豆芽')
      );
    }, 'both edits stored and saved');
    const history = (await call('teacher1', 'GET', `${SUM}/history?id=${id}`)).body.data as Array<{
      type: string;
      authors?: Array<{ id: string }>;
      changes: Array<{ path: string }>;
    }>;
    const updated = history.filter((h) => h.type === 'DraftUpdated');
    expect(updated.length).toBeGreaterThan(0);
    const authors = new Set(updated.flatMap((h) => (h.authors ?? []).map((x) => x.id)));
    expect(authors).toEqual(new Set([uid.teacher1, uid.teacher2]));
    expect(updated.flatMap((h) => h.changes.map((c) => c.path))).toEqual(
      expect.arrayContaining(['highlights', 'problems']),
    );

    // A save through the API reaches the people writing it live.
    const detail = (await call('teacher1', 'GET', `${SUM}/detail?id=${id}`)).body.data;
    const resaved = await call('teacher1', 'POST', `${SUM}/update`, {
      id,
      content: { ...detail.content, title: '小一班第一学期总结' },
    });
    expect(resaved.status, JSON.stringify(resaved.body)).toBe(200);
    await until(
      () => b.doc.getMap(RECORD_MAP).get('title') === '小一班第一学期总结',
      'the saved title to reach teacher2',
    );

    // Submitted: the document turns read-only; what teacher2 types now is not kept.
    const submitted = await call('teacher1', 'POST', `${SUM}/submit`, { id });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.data.status).toBe('trial');
    expect(JSON.stringify(submitted.body.data.content)).toContain('豆芽');
    const late = connect(tok.teacher2 as string, name);
    await late.synced;
    typeParagraph(late.doc, 'nextSteps', '迟到的文字');
    const stillRefused = await call('teacher2', 'POST', `${SUM}/saveRevision`, { id });
    expect(stillRefused.status).toBe(409);
  });

  it('refuses another class’s teacher, another tenant’s user and a document of a kind nobody co-edits', async () => {
    const id = await newSummary('只有小一班能写');
    const name = docNameOf('class_summary', id);
    const stranger = await userWithRole(t.database, config, OTHER, 'admin');
    const cases: Array<[string, string, number]> = [
      [name, tok.teacher3 as string, 4403],
      [name, stranger.token, 4403],
      [`research:${id}`, tok.teacher1 as string, 4400],
    ];
    for (const [doc, token, code] of cases) {
      const c = connect(token, doc);
      await until(() => c.closes.length > 0, `a refusal for ${doc}`);
      expect(c.closes[0]?.code).toBe(code);
      expect(c.provider.synced).toBe(false);
    }
    // Nor may they save its version through the API.
    expect((await call('teacher3', 'POST', `${SUM}/saveRevision`, { id })).status).toBeGreaterThanOrEqual(400);
    // The class's own teachers join and write.
    const own = connect(tok.teacher2 as string, name);
    await own.synced;
    expect(own.doc.getMap(RECORD_MAP).get('title')).toBe('只有小一班能写');
  });

  it('a document left quiet with unsaved edits becomes a version by itself', async () => {
    const quick = await startInstance(t.database, {
      config,
      collab: { idleMs: 300, onIdle: saveFamilyRevisionWhenIdle(t.database, config.TIME_ZONE) },
    });
    try {
      const id = await newSummary('安静下来就保存');
      const c = connectClient(quick.url, docNameOf('class_summary', id), tok.teacher2 as string);
      clients.push(c);
      await c.synced;
      typeParagraph(c.doc, 'nextSteps', '下学期继续种植');
      await until(async () => {
        const detail = (await call('teacher1', 'GET', `${SUM}/detail?id=${id}`)).body.data;
        return JSON.stringify(detail.content.nextSteps).includes('下学期继续种植');
      }, 'the idle revision');
      const detail = (await call('teacher1', 'GET', `${SUM}/detail?id=${id}`)).body.data;
      expect(detail.coAuthorIds).toEqual([uid.teacher2]);
    } finally {
      await quick.app.close();
    }
  });

  it('a class work plan is co-edited the same way (its months a plain field of the document)', async () => {
    const r = await call('teacher1', 'POST', `${WORK}/update`, {
      content: { title: '工作计划', classId: cls['小一班'], semester, monthly: [{ month: '九月', focus: '适应' }] },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const id = r.body.data.id as string;
    const b = connect(tok.teacher2 as string, docNameOf('class_work', id));
    await b.synced;
    b.doc.getMap(RECORD_MAP).set('monthly', [
      { month: '九月', focus: '适应' },
      { month: '十月', focus: '秋天' },
    ]);
    typeParagraph(b.doc, 'situation', '本班共有幼儿 28 名');
    await until(async () => {
      const saved = await call('teacher2', 'POST', `${WORK}/saveRevision`, { id });
      return (
        saved.status === 200 &&
        saved.body.data.content.monthly.length === 2 &&
        JSON.stringify(saved.body.data.content.situation).includes('28')
      );
    }, 'the months and the analysis saved');
    const detail = (await call('teacher1', 'GET', `${WORK}/ForWorkId?id=${id}`)).body.data;
    expect(JSON.stringify(detail.content.situation)).toContain('本班共有幼儿 28 名');
    expect(detail.coAuthorIds).toEqual([uid.teacher2]);
  });
});
