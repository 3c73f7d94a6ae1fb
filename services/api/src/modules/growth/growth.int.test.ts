import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { useDemoConsole } from '../auth/console-fixture';
import { accessToken } from '../auth/fixtures';

const BASE = '/api/growth/growth';
const T = '100001';

/**
 * The growth archive (/api/growth/growth) on PostgreSQL: a teacher's own entries, submitAll and
 * updateAll all or nothing (each bad entry named by index and field, in both languages), the
 * `growth` data scope for reading someone else's archive, other tenants, and what the platform
 * already knows of her (her excellent lesson plan).
 */
describe('growth archive: list, known, submit, submitAll, updateAll, remove', () => {
  const demo = useDemoConsole();
  const { call } = demo;
  beforeAll(async () => {
    demo.tokens.teacher2 = await accessToken(demo.app, T, 'teacher2', 'sprout123');
    demo.tokens.leader = await accessToken(demo.app, T, 'leader', 'sprout123');
  });

  const stored = () =>
    inSystem(demo.t.database, async (trx) => {
      const r = await sql<{ id: string; title: string; user_id: string; is_deleted: number }>`
        select id::text, title, user_id::text, is_deleted from growth_entry order by id`.execute(trx);
      return r.rows;
    });
  const userId = (account: string) =>
    inSystem(demo.t.database, async (trx) => {
      const r = await sql<{
        id: string;
      }>`select id::text from app_user where tenant_id = ${T} and account = ${account}`.execute(trx);
      return r.rows[0]?.id as string;
    });
  const entry = (title: string, more: object = {}) => ({
    category: 1,
    title,
    entryDate: '2026-10-01',
    level: 3,
    ...more,
  });

  it('saves many entries at once, all or nothing: one bad entry → none saved, the bad one named', async () => {
    const bad = await call('teacher', 'POST', `${BASE}/submitAll`, {
      entries: [entry('市优质课一等奖'), entry('', { category: 9, entryDate: '2026-02-30' }), entry('区公开课')],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual([
      { field: 'entries.1.category', message: expect.stringMatching(/^第 2 条：请选择类别/) },
      { field: 'entries.1.title', message: '第 2 条：请输入标题' },
      { field: 'entries.1.entryDate', message: expect.stringMatching(/^第 2 条：/) },
    ]);
    const en = await call(
      'teacher',
      'POST',
      `${BASE}/submitAll`,
      { entries: [entry('a'), entry('b', { level: 7 })] },
      'en',
    );
    expect(en.body.fields).toEqual([
      { field: 'entries.1.level', message: expect.stringMatching(/^Entry 2: Please choose the level/) },
    ]);
    expect(await stored()).toEqual([]);

    const ok = await call('teacher', 'POST', `${BASE}/submitAll`, {
      entries: [entry('市优质课一等奖'), entry('区公开课《小蚂蚁》', { category: 2, level: 4, content: '中班科学' })],
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.map((e: { title: string }) => e.title)).toEqual(['市优质课一等奖', '区公开课《小蚂蚁》']);
    const me = await userId('teacher1');
    expect(ok.body.data[1]).toMatchObject({ userId: me, category: 2, level: 4, content: '中班科学', attachIds: [] });

    const list = await call('teacher', 'GET', `${BASE}/list`);
    expect(list.body.data).toHaveLength(2);
    expect((await call('teacher', 'GET', `${BASE}/list?category=2`)).body.data).toHaveLength(1);
  });

  it('updates many entries at once; an entry not hers, without an id or unknown → named, nothing written', async () => {
    const mine = (await call('teacher', 'GET', `${BASE}/list`)).body.data as { id: string; title: string }[];
    const other = await call('teacher2', 'POST', `${BASE}/submit`, entry('刘老师的培训', { category: 4 }));
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    const before = await stored();
    const refused = await call('teacher', 'POST', `${BASE}/updateAll`, {
      entries: [{ ...entry('改'), id: mine[0]?.id }, { ...entry('别人的'), id: other.body.data.id }, entry('没有编号')],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual([{ field: 'entries.2.id', message: '第 3 条：请指明要修改的记录' }]);
    const notHers = await call('teacher', 'POST', `${BASE}/updateAll`, {
      entries: [
        { ...entry('改'), id: mine[0]?.id },
        { ...entry('别人的'), id: other.body.data.id },
      ],
    });
    expect(notHers.body.fields).toEqual([
      { field: 'entries.1.id', message: `第 2 条：记录不存在或不是您的：${other.body.data.id}` },
    ]);
    const badAttach = await call('teacher', 'POST', `${BASE}/updateAll`, {
      entries: [{ ...entry('改'), id: mine[0]?.id, attachIds: '999999' }],
    });
    expect(badAttach.body.fields).toEqual([{ field: 'entries.0.attachIds', message: '第 1 条：附件不存在：999999' }]);
    expect(await stored()).toEqual(before);

    const ok = await call('teacher', 'POST', `${BASE}/updateAll`, {
      entries: mine.map((e, i) => ({ ...entry(`${e.title}（修订）`), id: e.id, level: i + 1 })),
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.msg).toBe('修改成功');
    const after = (await call('teacher', 'GET', `${BASE}/list`)).body.data as { title: string }[];
    expect(after.map((e) => e.title).sort()).toEqual(mine.map((e) => `${e.title}（修订）`).sort());
  });

  it('reads another teacher’s archive only within the growth data scope; other tenants never', async () => {
    const t1 = await userId('teacher1');
    expect((await call('teacher2', 'GET', `${BASE}/list?userId=${t1}`)).status).toBe(400);
    expect((await call('principal', 'GET', `${BASE}/list?userId=${t1}`)).body.data).toHaveLength(2);
    expect((await call('leader', 'GET', `${BASE}/list?userId=${t1}`)).body.data).toHaveLength(2);
    expect((await call('platform', 'GET', `${BASE}/list?userId=${t1}`)).status).toBe(400);
    expect((await call('principal', 'GET', `${BASE}/list?userId=123456789`)).status).toBe(400);
    // Writes are one's own: the principal's submit lands in her own archive.
    expect((await call('platform', 'GET', `${BASE}/list`)).body.data).toEqual([]);
  });

  it('shows, read only, what the platform knows of her: her excellent lesson plan first', async () => {
    const known = await call('teacher', 'GET', `${BASE}/known`);
    expect(known.status, JSON.stringify(known.body)).toBe(200);
    const plans = known.body.data.plans as { kind: string; excellent: boolean; status: string }[];
    expect(plans.length).toBeGreaterThan(0);
    expect(plans[0]).toMatchObject({ kind: 'week_plan', excellent: true, status: 'success' });
    expect(plans.every((p) => p.status === 'success')).toBe(true);
    expect(Array.isArray(known.body.data.observations)).toBe(true);
    // Teacher 3 (another class) has no excellent plan.
    const t3 = await userId('teacher3');
    const theirs = await call('principal', 'GET', `${BASE}/known?userId=${t3}`);
    expect(theirs.body.data.plans.some((p: { excellent: boolean }) => p.excellent)).toBe(false);
  });

  it('removes her own entries only; unknown ids → 400, nothing removed', async () => {
    const mine = (await call('teacher', 'GET', `${BASE}/list`)).body.data as { id: string }[];
    const theirs = (await call('teacher2', 'GET', `${BASE}/list`)).body.data as { id: string }[];
    const before = await stored();
    const refused = await call('teacher', 'POST', `${BASE}/remove?ids=${mine[0]?.id},${theirs[0]?.id}`);
    expect(refused.status).toBe(400);
    expect(await stored()).toEqual(before);
    const ok = await call('teacher', 'POST', `${BASE}/remove?ids=${mine[0]?.id}`);
    expect(ok.status).toBe(200);
    expect((await call('teacher', 'GET', `${BASE}/list`)).body.data).toHaveLength(1);
  });
});
