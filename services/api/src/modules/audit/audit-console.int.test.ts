import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { foldEvents, readStream, requireDecider } from '@sprout/core/events';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { addDays, localDate, mondayOf } from '@sprout/core/time';
import { bladeAuth, type FastifyInstance, fieldNames, testApp, testConfig, userWithRole } from '../../testing';
import { demoPeople } from '../week/week-setup';

/**
 * The auditors' console on the demo kindergarten (PostgreSQL): the cross-family search, the
 * state as of a version or a moment, replay, diffs, evidence, the security log, read-only
 * rights and other tenants' ids.
 */
describe('auditors’ console', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  const config = testConfig();
  const T = '100001';
  const tok: Record<string, string> = {};
  const uid: Record<string, string> = {};
  const cls: Record<string, string> = {};
  let otherTenant: string;
  /** 小一班's week two weeks ago: returned by the reviewer, resubmitted, approved. */
  let resubmitted: { id: string; createTime: string };

  const get = async (url: string, who = 'auditor', lang = 'zh-CN') => {
    const r = await app.inject({
      method: 'GET',
      url,
      headers: { ...bladeAuth(tok[who] ?? who), 'accept-language': lang },
    });
    return r;
  };
  const search = async (query: string, who = 'auditor') =>
    (await get(`/api/audit/search?size=200&${query}`, who)).json();

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    app = (await testApp(t.database, { config })).app;
    await demoPeople(t.database, config, { tok, uid, cls });
    otherTenant = (await userWithRole(t.database, config, '100002', 'auditor')).token;
    const thursday = addDays(mondayOf(localDate(new Date(), 'Asia/Shanghai')), -14 - 4);
    const found = await search(
      `streamType=week&className=${encodeURIComponent('小一班')}&createTime_dategt=${thursday}%2000:00:00&createTime_datelt=${thursday}%2023:59:59`,
    );
    expect(found.data.total).toBe(1);
    resubmitted = found.data.records[0];
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('finds streams by family, class, author, reviewer, title, state, date range and changed between', async () => {
    const all = await search('');
    expect(all.data.total).toBeGreaterThan(40);
    const weeks = await search('streamType=week');
    expect(weeks.data.records.every((r: { streamType: string }) => r.streamType === 'week')).toBe(true);
    expect(weeks.data.total).toBe(15);
    const ours = await search(`streamType=week&className=${encodeURIComponent('小一')}`);
    expect(ours.data.total).toBe(6);
    expect((await search(`streamType=week&classId=${cls['小一班']}`)).data.total).toBe(6);
    const byReviewer = await search(`streamType=week&reviewerName=${encodeURIComponent('张敏')}&className=小一班`);
    // 4 approved weeks (one of them returned first) name the reviewer; this week's and next week's do not.
    expect(byReviewer.data.total).toBe(4);
    expect(byReviewer.data.records.map((r: { reviewerName: string }) => r.reviewerName)).toEqual(Array(4).fill('张敏'));
    const byAuthor = await search(`streamType=week&authorName=${encodeURIComponent('赵丽')}`);
    expect(byAuthor.data.records.map((r: { className: string }) => r.className)).toEqual(Array(5).fill('中一班'));
    const drafts = await search('streamType=week&status=draft');
    expect(drafts.data.total).toBe(3);
    const returned = await search('streamType=week&status=returned');
    expect(returned.data.records.map((r: { className: string }) => r.className)).toEqual(['小二班']);
    const theme = resubmitted.id;
    const titled = await search(
      `title=${encodeURIComponent((resubmitted as unknown as { title: string }).title.slice(0, 6))}&streamType=week`,
    );
    expect(titled.data.records.map((r: { id: string }) => r.id)).toContain(theme);
    expect(resubmitted).toMatchObject({
      status: 'success',
      className: '小一班',
      reviewerName: '张敏',
      lastEvent: 'RecordApproved',
    });
    // Changed between: every demo event was recorded at seeding time, none in 2000.
    expect(
      (await search('lastTime_dategt=2000-01-01%2000:00:00&lastTime_datelt=2000-12-31%2023:59:59')).data.total,
    ).toBe(0);
    expect((await search('lastTime_dategt=2000-01-01%2000:00:00')).data.total).toBe(all.data.total);
    // Paging: the kit's pages, the total once.
    const page2 = (await get('/api/audit/search?size=10&current=2')).json().data;
    expect(page2).toMatchObject({ current: 2, size: 10, total: all.data.total });
    expect(page2.records).toHaveLength(10);
    // Bad filters: 400 naming each field, in both languages.
    const bad = await get('/api/audit/search?status=lost&streamType=Week!&createTime_dategt=yesterday');
    expect(bad.statusCode).toBe(400);
    expect(fieldNames(bad).sort()).toEqual(['createTime_dategt', 'status', 'streamType']);
    const badEn = await get('/api/audit/search?streamType=Week!', 'auditor', 'en');
    expect(JSON.stringify(badEn.json())).toContain('lowercase letters');
  });

  it('lists the tenant’s stream types with their names', async () => {
    const zh = (await get('/api/audit/types')).json().data;
    expect(zh).toEqual(expect.arrayContaining([{ value: 'week', label: '周计划' }]));
    const en = (await get('/api/audit/types', 'auditor', 'en')).json().data;
    expect(en).toEqual(expect.arrayContaining([{ value: 'week', label: 'Weekly plan' }]));
  });

  it('replays: the state the API gives at N equals folding the first N events, for every N', async () => {
    const events = await inSystem(t.database, (trx) => readStream(trx, T, resubmitted.id));
    expect(events.map((e) => e.type)).toEqual([
      'RecordCreated',
      'RecordSubmitted',
      'RecordReturned',
      'DraftUpdated',
      'RecordSubmitted',
      'RecordApproved',
    ]);
    const decider = requireDecider('week');
    for (let n = 0; n <= events.length; n++) {
      const api = (await get(`/api/audit/streams/${resubmitted.id}/state?version=${n}`)).json().data;
      const folded = foldEvents(decider, events.slice(0, n));
      expect(api.version, `version ${n}`).toBe(n);
      expect(api.state, `state ${n}`).toEqual(JSON.parse(JSON.stringify(folded.state)));
    }
    const returned = (await get(`/api/audit/streams/${resubmitted.id}/state?version=3`)).json().data.state;
    expect(returned).toMatchObject({ status: 'returned', reviewerName: '张敏' });
    // The resubmission's diff: the draft update added the home cooperation text.
    const diff = (await get(`/api/audit/streams/${resubmitted.id}/diff?from=3&to=5`)).json().data;
    expect(diff.changes.map((c: { path: string }) => c.path)).toEqual(
      expect.arrayContaining(['status', 'content.homeCooperation.content.1', 'submitTime']),
    );
  });

  it('answers the state as of a moment, also between two events; before the stream existed is a 400', async () => {
    // Spread the stream's events one minute apart (as written over a morning).
    await inSystem(t.database, (trx) =>
      sql`update events set recorded_at = timestamptz '2026-11-02 08:00:00+08' + (stream_version - 1) * interval '1 minute'
          where tenant_id = ${T} and stream_id = ${resubmitted.id}`.execute(trx),
    );
    const at = async (time: string, lang = 'zh-CN') =>
      get(`/api/audit/streams/${resubmitted.id}/state?at=${encodeURIComponent(time)}`, 'auditor', lang);
    expect((await (await at('2026-11-02 08:00:00')).json()).data.version).toBe(1);
    // Between the return (08:02) and the draft update (08:03): the returned state.
    const between = (await at('2026-11-02 08:02:30')).json().data;
    expect(between).toMatchObject({ version: 3, state: { status: 'returned' } });
    expect((await at('2099-01-01 00:00:00')).json().data.version).toBe(6);
    const before = await at('2026-11-02 07:59:59');
    expect(before.statusCode).toBe(400);
    expect(before.json().msg).toContain('早于记录的创建');
    expect((await at('2026-11-02 07:59:59', 'en')).json().msg).toContain('before the record was created');
  });

  it('refuses a version out of range, a diff of two streams, and ids of no stream or of other tenants with 4xx', async () => {
    const id = resubmitted.id;
    for (const url of [`state?version=7`, `diff?from=1&to=9`, `evidence?version=99`]) {
      const r = await get(`/api/audit/streams/${id}/${url}`);
      expect(r.statusCode, url).toBe(400);
      expect(r.json().msg, url).toContain('当前版本为 6');
      expect((await get(`/api/audit/streams/${id}/${url}`, 'auditor', 'en')).json().msg).toContain(
        'current version is 6',
      );
    }
    const other = (await search('streamType=week_plan')).data.records[0].id;
    const two = await get(`/api/audit/streams/${id}/diff?from=1&to=2&stream=${other}`);
    expect(two.statusCode).toBe(400);
    expect(two.json().msg).toBe('只能比较同一条记录的两个版本，不能比较两条不同的记录');
    for (const suffix of ['events', 'state', 'diff?from=1&to=1', 'evidence']) {
      const unknown = await get(`/api/audit/streams/123456789/${suffix}`);
      expect(unknown.statusCode, suffix).toBe(404);
      expect(unknown.json().msg).toBe('找不到该记录的历史，或您无权查看');
      expect((await get(`/api/audit/streams/123456789/${suffix}`, 'auditor', 'en')).json().msg).toBe(
        'No such record history, or you may not see it',
      );
      // The demo week seen from another tenant: as if it did not exist.
      expect((await get(`/api/audit/streams/${id}/${suffix}`, otherTenant)).statusCode, suffix).toBe(404);
    }
    expect((await get('/api/audit/search', otherTenant)).json().data.total).toBe(0);
    expect((await get('/api/audit/streams/bad%20id/events')).statusCode).toBe(400);
  });

  it('exports evidence: the .docx prints the sha256 of the JSON, which is the same for the same version', async () => {
    const json = await get(`/api/audit/streams/${resubmitted.id}/evidence?format=json`);
    expect(json.statusCode).toBe(200);
    const hash = createHash('sha256').update(json.rawPayload).digest('hex');
    expect(json.headers['x-content-sha256']).toBe(hash);
    const body = JSON.parse(json.body);
    expect(body).toMatchObject({ streamId: resubmitted.id, streamType: 'week', version: 6 });
    expect(body.events).toHaveLength(6);
    expect(body.reviewSteps.map((s: { type: string }) => s.type)).toEqual([
      'RecordSubmitted',
      'RecordReturned',
      'RecordSubmitted',
      'RecordApproved',
    ]);
    expect(body.diffs[2].changes.map((c: { path: string }) => c.path)).toContain('status');
    const docx = await get(`/api/audit/streams/${resubmitted.id}/evidence?format=docx`);
    expect(docx.statusCode).toBe(200);
    expect(docx.headers['content-type']).toContain('wordprocessingml');
    expect(docx.headers['x-content-sha256']).toBe(hash);
    const { unzipSync, strFromU8 } = await import('fflate');
    const xml = strFromU8(unzipSync(new Uint8Array(docx.rawPayload))['word/document.xml'] as Uint8Array);
    expect(xml).toContain(hash);
    // An older version is other evidence, with its own hash.
    const v3 = await get(`/api/audit/streams/${resubmitted.id}/evidence?version=3`);
    expect(JSON.parse(v3.body).events).toHaveLength(3);
    expect(v3.headers['x-content-sha256']).not.toBe(hash);
  });

  it('writes each audit query to the security log: who looked at which stream', async () => {
    const count = () =>
      inSystem(t.database, async (trx) =>
        trx
          .selectFrom('security_log')
          .select(['event', 'user_id', 'detail'])
          .where('tenant_id', '=', T)
          .where('event', '=', 'audit_query')
          .orderBy('create_time', 'desc')
          .orderBy('id', 'desc')
          .execute(),
      );
    const before = (await count()).length;
    const id = resubmitted.id;
    const queries = [
      `/api/audit/search?reviewerName=${encodeURIComponent('张敏')}`,
      `/api/audit/streams/${id}/events`,
      `/api/audit/streams/${id}/state?version=2`,
      `/api/audit/streams/${id}/diff?from=1&to=2`,
      `/api/audit/streams/${id}/evidence`,
    ];
    for (const q of queries) expect((await get(q)).statusCode, q).toBe(200);
    const rows = await count();
    expect(rows.length - before).toBe(queries.length);
    const mine = rows.slice(0, queries.length).reverse();
    expect(mine.every((r) => String(r.user_id) === uid.auditor)).toBe(true);
    expect(mine.map((r) => r.detail?.split(' ')[0])).toEqual(['search', 'events', 'state', 'diff', 'evidence']);
    expect(mine[1]?.detail).toBe(`events ${id}`);
    expect(mine[2]?.detail).toBe(`state ${id} version=2`);
    expect(mine[0]?.detail).toContain('reviewerName=张敏');
  });

  it('lets the auditor read, never write; a teacher cannot open the console', async () => {
    const writes: Array<[string, unknown]> = [
      ['/api/week/week/submit', { id: resubmitted.id }],
      ['/api/week/week/remove?ids=1', undefined],
      ['/api/blade-user/submit', { account: 'x' }],
    ];
    for (const [url, payload] of writes) {
      const r = await app.inject({
        method: 'POST',
        url,
        headers: bladeAuth(tok.auditor as string),
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(r.statusCode, url).toBe(403);
    }
    // No audit route writes: a POST to the audit API is not a route.
    expect(
      (await app.inject({ method: 'POST', url: '/api/audit/search', headers: bladeAuth(tok.auditor as string) }))
        .statusCode,
    ).toBe(404);
    for (const url of ['/api/audit/search', `/api/audit/streams/${resubmitted.id}/events`, '/api/audit/types'])
      expect((await get(url, 'teacher1')).statusCode, url).toBe(403);
    expect((await get('/api/audit/search', 'admin')).statusCode).toBe(200);
  });
});
