import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { docxParagraphs } from '@sprout/core/records';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { localDate } from '@sprout/core/time';
import { bladeAuth, type FastifyInstance, testApp, testConfig, tokenFor } from '../../testing';
import { semesterOf } from '../records';

/**
 * Word export of the teaching families (`exportForId`; issue 19): each family answers a .docx of
 * one record as printed — its sections (a table's rows one line each, a domain by its name), a
 * research activity's attachments by their names — and refuses a record outside the caller's
 * scope. Demo kindergarten: teacher1 teaches 小一班, teacher3 中一班 only.
 */
const T = '100001';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const semester = semesterOf(localDate(new Date(), 'Asia/Shanghai'));
const doc = (text: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

describe('teaching families’ Word export', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  const config = testConfig();
  const tok: Record<string, string> = {};
  const uid: Record<string, string> = {};
  const cls: Record<string, string> = {};

  const created = async (who: string, url: string, content: unknown) => {
    const r = await app.inject({ method: 'POST', url, headers: bladeAuth(tok[who] as string), payload: { content } });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().data.id as string;
  };
  const exported = async (who: string, base: string, id: string) => {
    const r = await app.inject({
      method: 'GET',
      url: `${base}/exportForId?id=${id}`,
      headers: bladeAuth(tok[who] as string),
    });
    return r;
  };
  const upload = async (who: string, bytes: Buffer, name: string, type: string) => {
    const boundary = `----te${Math.random().toString(16).slice(2)}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const r = await app.inject({
      method: 'POST',
      url: '/api/blade-resource/oss/endpoint/put-file',
      headers: { ...bladeAuth(tok[who] as string), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(r.statusCode, r.body).toBe(200);
    return String(r.json().data.attachId);
  };

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    ({ app } = await testApp(t.database, { config }));
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
    await app?.close();
    await t?.drop();
  });

  it('a class summary prints its sections, its domains by name; another class’s teacher gets none', async () => {
    const base = '/api/t_class_summary/classsummary';
    const id = await created('teacher1', `${base}/update`, {
      title: '小一班期末总结',
      classId: cls['小一班'],
      semester,
      domains: [{ domain: 'health', content: '坚持晨间锻炼' }],
      highlights: doc('种植角的豆芽观察'),
    });
    const r = await exported('teacher1', base, id);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['content-type']).toContain(DOCX);
    const text = docxParagraphs(r.rawPayload).join('\n');
    for (const expected of ['小一班期末总结', '各领域总结', '健康：坚持晨间锻炼', '亮点', '种植角的豆芽观察', '小一班'])
      expect(text).toContain(expected);
    expect((await exported('teacher3', base, id)).statusCode).toBe(404);
  });

  it('a research activity names its attachments; a teacher plan prints its schedule', async () => {
    const pdf = await upload(
      'teacher1',
      Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'),
      '教研方案.pdf',
      'application/pdf',
    );
    const base = '/api/teacher_research/listResearch';
    const id = await created('teacher1', `${base}/update`, {
      title: '绘本共读教研',
      date: '2026-11-24',
      hostId: uid.teacher1,
      form: 'prep',
      summary: doc('共读三本绘本'),
      attachments: [pdf],
    });
    const r = await exported('teacher1', base, id);
    expect(r.statusCode, r.body).toBe(200);
    const text = docxParagraphs(r.rawPayload).join('\n');
    for (const expected of ['绘本共读教研', '附件', '教研方案.pdf', '活动小结', '共读三本绘本'])
      expect(text).toContain(expected);
    // In English, the same sheet in its words.
    const en = await app.inject({
      method: 'GET',
      url: `${base}/exportForId?id=${id}`,
      headers: { ...bladeAuth(tok.teacher1 as string), 'accept-language': 'en' },
    });
    expect(docxParagraphs(en.rawPayload).join('\n')).toContain('Attachments');

    const plan = await created('teacher1', '/api/teacher_plan/plan/update', {
      title: '个人学期计划',
      semester,
      type: 'term',
      schedule: [{ time: '九月', content: '熟悉班级幼儿' }],
    });
    const p = await exported('teacher1', '/api/teacher_plan/plan', plan);
    expect(p.statusCode, p.body).toBe(200);
    expect(docxParagraphs(p.rawPayload).join('\n')).toContain('九月：熟悉班级幼儿');
  });

  it('every teaching family answers its Word export', async () => {
    for (const [base, list] of [
      ['/api/teacher_project/project', 'projectList'],
      ['/api/t_class_work/classwork', 'list'],
      ['/api/t_half_flow/halfflow', 'list'],
    ] as const) {
      const rows = await app.inject({
        method: 'GET',
        url: `${base}/${list}?size=10`,
        headers: bladeAuth(tok.principal as string),
      });
      expect(rows.statusCode, rows.body).toBe(200);
      const data = rows.json().data;
      const id = (Array.isArray(data) ? data : data.records)[0]?.id as string;
      expect(id, base).toMatch(/^\d+$/);
      const r = await exported('principal', base, id);
      expect(r.statusCode, `${base}: ${r.body}`).toBe(200);
      expect(r.headers['content-type']).toContain(DOCX);
    }
  });
});
