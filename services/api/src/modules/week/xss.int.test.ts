import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { type Client, connectClient, type Instance, startInstance, until } from '@sprout/collab/testing';
import { docxText } from '@sprout/core/records';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import {
  docxThreats,
  noControlChars,
  SAFE_HREFS,
  XSS_HREFS as ALL_HREFS,
  XSS_STRINGS,
  xssDoc as anyXssDoc,
} from '@sprout/core/testing/xss';
import { addDays, localDate, mondayOf } from '@sprout/core/time';
import { bladeAuth, testConfig } from '../../testing';
import { demoPeople } from './week-setup';
import { weekDoc } from './collab-link';

/**
 * Issue 14, rich text: XSS payloads through every write path of a rich field (a week's add
 * and update, the reviewer's edit in review, a lesson plan, a template, and a live co-edited
 * document saved as a revision)
 * are stored clean, and the Word export of such a week holds nothing that runs.
 */

/** What a stored rich value may hold: the editor's nodes, marks and attributes; links to SAFE_HREFS only. */
const NODE_ATTRS: Record<string, string[]> = {
  paragraph: ['textAlign'],
  heading: ['level', 'textAlign'],
  blockquote: [],
  bulletList: [],
  orderedList: ['start', 'type'],
  listItem: [],
  codeBlock: ['language'],
  hardBreak: [],
  horizontalRule: [],
  text: [],
};
const MARK_ATTRS: Record<string, string[]> = {
  bold: [],
  italic: [],
  underline: [],
  strike: [],
  code: [],
  link: ['href', 'target', 'rel', 'class', 'title'],
};

/** Everything in a stored rich value that the allowlist does not allow (empty when clean). */
function problems(value: unknown): string[] {
  if (typeof value === 'string') return [];
  const out: string[] = [];
  const doc = value as { type?: unknown; content?: unknown[] };
  if (doc?.type !== 'doc') return [`not a document: ${JSON.stringify(value)}`];
  const walk = (n: Record<string, unknown>) => {
    const type = String(n.type);
    if (!(type in NODE_ATTRS)) out.push(`node ${type}`);
    for (const k of Object.keys(n))
      if (!['type', 'attrs', 'content', 'text', 'marks'].includes(k)) out.push(`key ${k}`);
    for (const k of Object.keys((n.attrs as object) ?? {}))
      if (!NODE_ATTRS[type]?.includes(k)) out.push(`${type}.${k}`);
    for (const m of (n.marks as Array<{ type: string; attrs?: Record<string, unknown> }>) ?? []) {
      if (!(m.type in MARK_ATTRS)) out.push(`mark ${m.type}`);
      for (const k of Object.keys(m.attrs ?? {})) if (!MARK_ATTRS[m.type]?.includes(k)) out.push(`${m.type}.${k}`);
      if (m.type === 'link' && !SAFE_HREFS.includes(String(m.attrs?.href))) out.push(`href ${m.attrs?.href}`);
      if (m.type === 'link' && m.attrs?.class != null) out.push(`class ${m.attrs?.class}`);
    }
    for (const c of (n.content as Record<string, unknown>[]) ?? []) walk(c);
  };
  for (const c of (doc.content as Record<string, unknown>[]) ?? []) walk(c);
  return out;
}

/** Control characters other than tab and newlines get a 400 from the shared input validation first. */
const XSS_HREFS = ALL_HREFS.filter(noControlChars);
const xssDoc = () => anyXssDoc({ controlChars: false });

describe('XSS payloads through the rich-text write paths', () => {
  let t: TestDatabase;
  let instance: Instance;
  const config = testConfig();
  const _T = '100001';
  const tok: Record<string, string> = {};
  let classId = '';
  const clients: Client[] = [];

  // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
  const call = async (who: string, method: 'GET' | 'POST', url: string, payload?: unknown): Promise<any> => {
    const r = await instance.app.inject({
      method,
      url,
      headers: bladeAuth(tok[who] as string),
      ...(payload ? { payload: payload as object } : {}),
    });
    return { status: r.statusCode, body: String(r.headers['content-type']).includes('json') ? r.json() : null, raw: r };
  };
  const start = addDays(mondayOf(localDate(new Date(), 'Asia/Shanghai')), 28);
  // One class has one plan per week: each new week takes the next number.
  let nextWeekNo = 17;
  const week = (theme: string) => ({
    classId,
    weekNo: nextWeekNo++,
    startDate: start,
    endDate: addDays(start, 4),
    theme,
    weeklyGoals: xssDoc(),
    environment: XSS_STRINGS.join('\n'),
    homeCooperation: {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: XSS_HREFS.map((href) => ({
            type: 'text',
            text: `link to ${href}`,
            marks: [{ type: 'link', attrs: { href } }],
          })),
        },
      ],
    },
    days: Array.from({ length: 5 }, (_, i) => ({ date: addDays(start, i), morning: XSS_STRINGS[i] })),
    reflection: xssDoc(),
  });
  const RICH = ['weeklyGoals', 'environment', 'homeCooperation', 'reflection'] as const;

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    instance = await startInstance(t.database, { config });
    const cls: Record<string, string> = {};
    await demoPeople(t.database, config, { tok, cls });
    classId = cls['小一班'] as string;
  });
  afterAll(async () => {
    for (const c of clients) c.destroy();
    await instance?.app.close();
    await t?.drop();
  });

  it('a week added and updated with payloads is stored clean; what was typed stays as text', async () => {
    const added = await call('teacher1', 'POST', '/api/week/week/add', {
      content: week('<svg onload=window.__xss=1>'),
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const id = added.body.data.id as string;
    let stored = (await call('teacher1', 'GET', `/api/week/week/alllistForId?id=${id}`)).body.data;
    for (const f of RICH) expect(problems(stored.content[f]), f).toEqual([]);
    expect(JSON.stringify(stored.content.weeklyGoals)).toContain('keep: good link 0');
    expect(stored.content.environment).toBe(XSS_STRINGS.join('\n')); // plain text is text
    expect(stored.content.theme).toBe('<svg onload=window.__xss=1>');

    const updated = await call('teacher1', 'POST', '/api/week/week/updateWeek', {
      id,
      version: stored.version,
      content: { ...stored.content, environment: xssDoc(), weeklyGoals: week('x').homeCooperation },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    stored = (await call('teacher1', 'GET', `/api/week/week/alllistForId?id=${id}`)).body.data;
    for (const f of RICH) expect(problems(stored.content[f]), f).toEqual([]);
    expect(JSON.stringify(stored.content.weeklyGoals)).toContain('link to javascript:window.__xss=1');

    // In review, the reviewer's own edit (bossupdateWeek) is sanitised the same way.
    expect((await call('teacher1', 'POST', '/api/week/week/submit', { id })).status).toBe(200);
    const inReview = (await call('reviewer', 'GET', `/api/week/week/alllistForId?id=${id}`)).body.data;
    const boss = await call('reviewer', 'POST', '/api/week/week/bossupdateWeek', {
      id,
      version: inReview.version,
      content: { ...inReview.content, homeCooperation: xssDoc() },
    });
    expect(boss.status, JSON.stringify(boss.body)).toBe(200);
    stored = (await call('reviewer', 'GET', `/api/week/week/alllistForId?id=${id}`)).body.data;
    for (const f of RICH) expect(problems(stored.content[f]), f).toEqual([]);
    expect(JSON.stringify(stored.content.homeCooperation)).toContain('keep: good link 0');

    // The Word export of it: payloads printed as text, nothing that runs or links.
    const exported = await call('teacher1', 'GET', `/api/week/week/exportForId?id=${id}`);
    expect(exported.status).toBe(200);
    expect(docxThreats(exported.raw.rawPayload)).toEqual([]);
    const text = await docxText(exported.raw.rawPayload);
    expect(text).toContain('<svg onload=window.__xss=1>');
    expect(text).toContain(XSS_STRINGS[0]);
  });

  it('a lesson plan and a template with payloads are stored clean', async () => {
    const w = await call('teacher1', 'POST', '/api/week/week/add', { content: week('教案周') });
    const plan = await call('teacher1', 'POST', '/api/week_plan/weekplan/add', {
      content: {
        weekId: w.body.data.id,
        title: '搭高楼',
        domain: 1,
        activityType: 1,
        goals: xssDoc(),
        process: xssDoc(),
      },
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    for (const f of ['goals', 'process', 'preparation']) expect(problems(plan.body.data.content[f]), f).toEqual([]);
    expect(JSON.stringify(plan.body.data.content.goals)).toContain('keep: quoted');

    const added = await call('teacher1', 'POST', '/api/t_week_template/template/addTemplate', {
      kind: 'week',
      name: '模板',
      content: { theme: '模板', weeklyGoals: xssDoc(), reflection: xssDoc(), environment: 'text' },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const list = (await call('teacher1', 'GET', '/api/t_week_template/template/listTemplate?kind=week')).body
      .data as Array<{
      name: string;
      content: Record<string, unknown>;
    }>;
    const mine = list.find((x) => x.name === '模板');
    expect(problems(mine?.content.weeklyGoals)).toEqual([]);
    expect(problems(mine?.content.reflection)).toEqual([]);
    expect(JSON.stringify(mine?.content.weeklyGoals)).toContain('keep: plain words');
  });

  it('a live co-edited document with hostile nodes and links is saved clean as a revision', async () => {
    const w = await call('teacher1', 'POST', '/api/week/week/add', {
      content: { ...week('共同编辑'), weeklyGoals: '', reflection: '' },
    });
    const id = w.body.data.id as string;
    const c = connectClient(instance.url, weekDoc(id), tok.teacher1 as string);
    clients.push(c);
    await c.synced;
    // What a hostile client can put into the shared document, bypassing the editor's schema.
    c.doc.transact(() => {
      const goals = c.doc.getXmlFragment('weeklyGoals');
      const img = new Y.XmlElement('image');
      img.setAttribute('src', 'x');
      img.setAttribute('onerror', 'window.__xss=1');
      const p = new Y.XmlElement('paragraph');
      p.setAttribute('onclick', 'window.__xss=1');
      const run = new Y.XmlText();
      run.insert(0, 'live link', { link: { href: 'javascript:window.__xss=1', class: 'x' } });
      run.insert(run.length, ' <img src=x onerror=window.__xss=1>');
      p.insert(0, [run]);
      const script = new Y.XmlElement('script');
      const code = new Y.XmlText();
      code.insert(0, 'window.__xss=1');
      script.insert(0, [code]);
      goals.insert(0, [img, p, script]);
    });
    await until(async () => {
      const saved = await call('teacher1', 'POST', '/api/week/week/saveRevision', { id });
      return saved.status === 200 && JSON.stringify(saved.body.data.content.weeklyGoals).includes('live link');
    }, 'the live edit to be saved as a revision');
    const stored = (await call('teacher1', 'GET', `/api/week/week/alllistForId?id=${id}`)).body.data;
    expect(problems(stored.content.weeklyGoals)).toEqual([]);
    expect(JSON.stringify(stored.content.weeklyGoals)).toContain(' <img src=x onerror=window.__xss=1>');
    const exported = await call('teacher1', 'GET', `/api/week/week/exportForId?id=${id}`);
    expect(docxThreats(exported.raw.rawPayload)).toEqual([]);
  });
});
