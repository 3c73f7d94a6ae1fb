import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { accessToken } from '../auth/fixtures';
import { useDemoConsole } from '../auth/console-fixture';
import { bladeAuth } from '../../testing';

/**
 * Reports (/api/blade-report/report/rest) on PostgreSQL with the demo kindergarten: the shipped
 * reports, a report written in the designer (checked by PostgreSQL's parser), runs under the
 * caller's tenant and data scope, the Excel export, and every refusal with its reason.
 */
const BASE = '/api/blade-report/report/rest';
const BY_CLASS = `select class_name, count(*) as observations
from observations
where ($1::date is null or record_date >= $1) and ($2::date is null or record_date <= $2)
group by class_name order by class_name`;
const RANGE = [
  { name: 'from', label: '开始日期', type: 'date' },
  { name: 'to', label: '结束日期', type: 'date' },
];

describe('reports: list, detail, submit, remove, preview, run, export', () => {
  const demo = useDemoConsole();
  const { call } = demo;

  /** Observation records per class name as stored (the owner, every tenant's rows), live ones only. */
  const storedByClass = async (classNames?: string[]) =>
    inSystem(demo.t.database, async (trx) => {
      const r = await sql<{ name: string; n: string }>`select c.name, count(*)::text as n from record_list r
        join clazz c on c.tenant_id = r.tenant_id and c.id = r.class_id
        where r.tenant_id = '100001' and r.status <> 'deleted'
          and r.kind in ('observation', 'observation_regional', 'hearken', 'creview')
        group by c.name`.execute(trx);
      return Object.fromEntries(
        r.rows.filter((x) => !classNames || classNames.includes(x.name)).map((x) => [x.name, Number(x.n)]),
      );
    });
  const reportCount = async () =>
    inSystem(demo.t.database, async (trx) =>
      Number(
        (await sql<{ n: string }>`select count(*)::text as n from report where tenant_id = '100001'`.execute(trx))
          .rows[0]?.n,
      ),
    );

  beforeAll(async () => {
    demo.tokens.leader = await accessToken(demo.app, '100001', 'leader', 'sprout123');
  });

  it('ships four reports to every tenant, and each runs', async () => {
    const r = await call('admin', 'GET', `${BASE}/list?size=30`);
    expect(r.status, r.raw).toBe(200);
    const codes = r.body.data.records.map((x: { code: string }) => x.code).sort();
    expect(codes).toEqual(['domain_coverage', 'leave_days', 'review_turnaround', 'teacher_month']);
    expect(r.body.data.total).toBe(4);
    const platform = await call('platform', 'GET', `${BASE}/list`);
    expect(platform.body.data.total).toBe(4);
    for (const rep of r.body.data.records) {
      const run = await call('admin', 'POST', `${BASE}/run`, { id: rep.id, values: {} });
      expect(run.status, `${rep.code}: ${run.raw}`).toBe(200);
      expect(run.body.data.columns.map((c: { key: string }) => c.key)).toEqual(
        rep.columns.map((c: { key: string }) => c.key),
      );
    }
    const teacherMonth = r.body.data.records.find((x: { code: string }) => x.code === 'teacher_month');
    const run = await call('admin', 'POST', `${BASE}/run`, { id: teacherMonth.id, values: {} });
    const observations = run.body.data.rows.reduce((s: number, x: { observations: number }) => s + x.observations, 0);
    const all = Object.values(await storedByClass()).reduce((s, n) => s + n, 0);
    expect(observations).toBe(all);
    expect(all).toBeGreaterThan(0);
    // Leave days: empty until the leave workflow lands, and says so with no rows.
    const leave = r.body.data.records.find((x: { code: string }) => x.code === 'leave_days');
    expect((await call('admin', 'POST', `${BASE}/run`, { id: leave.id, values: {} })).body.data.rows).toEqual([]);
  });

  it('saves a report of observations per class with a chart, runs it for a date range and exports it', async () => {
    const preview = await call('admin', 'POST', `${BASE}/preview`, { query: BY_CLASS, params: RANGE, values: {} });
    expect(preview.status, preview.raw).toBe(200);
    expect(preview.body.data.columns).toEqual(['class_name', 'observations']);
    const stored = await storedByClass();
    expect(
      Object.fromEntries(
        preview.body.data.rows.map((x: { class_name: string; observations: number }) => [x.class_name, x.observations]),
      ),
    ).toEqual(stored);

    const saved = await call('admin', 'POST', `${BASE}/submit`, {
      name: '各班观察记录数',
      params: RANGE,
      query: BY_CLASS,
      columns: [
        { key: 'class_name', label: '班级' },
        { key: 'observations', label: '观察记录' },
      ],
      chart: { type: 'bar', x: 'class_name', y: ['observations'] },
    });
    expect(saved.status, saved.raw).toBe(200);
    expect(saved.body.msg).toBe('新增成功');
    const id = saved.body.data.id as string;
    expect((await call('admin', 'GET', `${BASE}/detail?id=${id}`)).body.data).toMatchObject({
      name: '各班观察记录数',
      chart: { type: 'bar', x: 'class_name', y: ['observations'] },
      params: [{ name: 'from', type: 'date', required: false }, { name: 'to' }],
    });

    // A range in the future: nothing; all time: every class.
    const future = await call('admin', 'POST', `${BASE}/run`, { id, values: { from: '2999-01-01', to: '2999-12-31' } });
    expect(future.status, future.raw).toBe(200);
    expect(future.body.data).toMatchObject({ rows: [], chart: { type: 'bar' } });
    const everything = await call('admin', 'POST', `${BASE}/run`, { id, values: { from: '2000-01-01', to: '' } });
    expect(everything.body.data.columns).toEqual([
      { key: 'class_name', label: '班级' },
      { key: 'observations', label: '观察记录' },
    ]);
    expect(everything.body.data.rows.length).toBe(Object.keys(stored).length);

    const badDate = await call('admin', 'POST', `${BASE}/run`, { id, values: { from: '2026-13-45' } }, 'en');
    expect(badDate.status).toBe(400);
    expect(badDate.body.msg).toBe('开始日期 must be a date as yyyy-MM-dd');

    const x = await demo.app.inject({
      method: 'GET',
      url: `${BASE}/export?id=${id}&values=${encodeURIComponent(JSON.stringify({ from: '2000-01-01' }))}`,
      headers: bladeAuth(demo.tokens.admin as string),
    });
    expect(x.statusCode, x.body).toBe(200);
    expect(x.headers['content-type']).toContain('spreadsheetml');
    expect(x.headers['content-disposition']).toContain(encodeURIComponent('各班观察记录数.xlsx'));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(x.rawPayload as unknown as ArrayBuffer);
    const values = book.worksheets[0]
      ?.getSheetValues()
      .filter(Boolean)
      .map((r) => (r as unknown[]).slice(1));
    expect(values?.[0]).toEqual(['各班观察记录数']);
    expect(values?.[1]).toEqual(['开始日期: 2000-01-01']);
    expect(values?.[2]).toEqual(['班级', '观察记录']);
    expect(values?.slice(3).map((r) => [r[0], r[1]])).toEqual(
      Object.entries(stored).sort(([a], [b]) => (a < b ? -1 : 1)),
    );

    expect((await call('admin', 'POST', `${BASE}/remove?ids=${id}`)).status).toBe(200);
    expect((await call('admin', 'GET', `${BASE}/detail?id=${id}`)).status).toBe(404);
  });

  it('refuses anything but one SELECT over the reporting views, with the reason, and saves nothing', async () => {
    const before = await reportCount();
    const refuse = async (query: string, lang = 'zh-CN') => {
      const r = await call('admin', 'POST', `${BASE}/submit`, { name: '坏报表', query, params: RANGE }, lang);
      expect(r.status, r.raw).toBe(400);
      expect(r.body.fields?.[0]?.field).toBe('query');
      return r.body.msg as string;
    };
    expect(await refuse('delete from report')).toBe('报表只能是 SELECT 查询，不能是 DELETE');
    expect(await refuse('update report set name = 1', 'en')).toBe('A report is a SELECT query, not UPDATE');
    expect(await refuse('select 1; select 2')).toBe('报表只能有一条查询语句，这里有 2 条');
    expect(await refuse('with x as (delete from report returning *) select * from x')).toBe(
      '报表查询中不允许使用 DeleteStmt',
    );
    expect(await refuse('select * from record_list')).toContain('不能查询 record_list');
    expect(await refuse('select * from public.report')).toBe('报表只能查询报表视图，不能指定模式：public.report');
    expect(await refuse('select pg_sleep(10) from observations')).toBe('报表查询中不允许调用函数 pg_sleep');
    expect(await refuse("select set_config('app.tenant_id', '000000', false)")).toBe(
      '报表查询中不允许调用函数 set_config',
    );
    expect(await refuse("select 'report'::regclass")).toBe('报表查询中不允许转换为类型 regclass');
    expect(await refuse('select * from observations for update')).toBe(
      '报表查询只能读取数据，不能使用 FOR UPDATE/SHARE',
    );
    expect(await refuse('select * into t from observations')).toBe('报表查询只能读取数据，不能使用 SELECT INTO');
    // A WITH name only reaches where its WITH does: beyond it, it would be a table.
    expect(await refuse('select * from (with report as (select 1) select 1) a, report')).toContain('不能查询 report');
    expect(await refuse('with record_list as (select * from record_list) select * from record_list')).toContain(
      '不能查询 record_list',
    );
    expect(await refuse('select $3 from observations')).toBe('查询使用了参数 $3，但报表只定义了 2 个参数');
    expect(await refuse('select from where')).toBe('查询语句有语法错误：第 13 个字符附近（where）');
    // PostgreSQL's own refusal, run once at save: its reason.
    expect(await refuse('select no_such_column from observations')).toBe('查询中引用了不存在的字段：no_such_column');
    expect(await refuse('select class_name, count(*) from observations')).toBe(
      '字段 observations.class_name 须出现在 group by 中或用于聚合函数',
    );
    const badColumn = await call('admin', 'POST', `${BASE}/submit`, {
      name: 'x',
      query: 'select class_name from observations',
      columns: [{ key: 'teacher', label: '教师' }],
    });
    expect(badColumn.body.msg).toBe('查询结果中没有字段 teacher（结果字段：class_name）');
    const badChart = await call('admin', 'POST', `${BASE}/submit`, {
      name: 'x',
      query: 'select class_name from observations',
      chart: { type: 'pie', x: 'class_name', y: ['nope'] },
    });
    expect(badChart.body.msg).toBe('请为图表选择数值字段，须是报表的列');
    expect(await reportCount()).toBe(before);
  });

  it('runs in the caller’s data scope, and only designers preview or save', async () => {
    // The grade leader (小班组: 小一班, 小二班) is given the report screen without its buttons.
    await inSystem(demo.t.database, (trx) =>
      sql`insert into role_menu (tenant_id, role_id, menu_id)
        select '100001', r.id, m.id from role r, menu m
        where r.tenant_id = '100001' and r.role_alias = 'leader' and m.code = 'report'
        on conflict do nothing`
        .execute(trx)
        .then(() =>
          // The screen's API scopes (its reads and runs, not its buttons').
          sql`insert into role_scope (tenant_id, role_id, scope_category, scope_id)
          select '100001', r.id, 2, a.id from role r, menu m, scope_api a
          where r.tenant_id = '100001' and r.role_alias = 'leader' and m.code = 'report' and a.menu_id = m.id
            and a.tenant_id = m.tenant_id and a.is_deleted = 0
          on conflict do nothing`.execute(trx),
        ),
    );
    await demo.app.permissions.poll();
    const list = await call('leader', 'GET', `${BASE}/list`);
    expect(list.status, list.raw).toBe(200);
    const saved = await call('admin', 'POST', `${BASE}/submit`, { name: '范围', query: BY_CLASS, params: RANGE });
    const run = await call('leader', 'POST', `${BASE}/run`, { id: saved.body.data.id, values: {} });
    expect(run.status, run.raw).toBe(200);
    const mine = Object.fromEntries(
      run.body.data.rows.map((x: { class_name: string; observations: number }) => [x.class_name, x.observations]),
    );
    expect(mine).toEqual(await storedByClass(['小一班', '小二班']));
    expect(Object.keys(mine).length).toBeGreaterThan(0);
    // No designer buttons: no preview, no save; the teacher has no report screen at all.
    expect((await call('leader', 'POST', `${BASE}/preview`, { query: BY_CLASS, params: RANGE })).status).toBe(403);
    expect((await call('leader', 'POST', `${BASE}/submit`, { name: 'x', query: BY_CLASS })).status).toBe(403);
    expect((await call('teacher', 'GET', `${BASE}/list`)).status).toBe(403);
    expect((await call('teacher', 'POST', `${BASE}/run`, { id: saved.body.data.id })).status).toBe(403);
  });

  it('keeps other tenants’ reports out of reach', async () => {
    const theirs = await call('platform', 'POST', `${BASE}/submit`, {
      name: '平台报表',
      query: 'select count(*) as n from records',
    });
    expect(theirs.status, theirs.raw).toBe(200);
    const id = theirs.body.data.id;
    expect((await call('admin', 'GET', `${BASE}/detail?id=${id}`)).status).toBe(404);
    expect((await call('admin', 'POST', `${BASE}/run`, { id })).status).toBe(404);
    expect((await call('admin', 'POST', `${BASE}/remove?ids=${id}`)).status).toBe(400);
    expect((await call('platform', 'GET', `${BASE}/detail?id=${id}`)).status).toBe(200);
  });
});
