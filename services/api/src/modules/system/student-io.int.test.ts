import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { rowsOf, uploadSheet, xlsxOf } from '../../http/sheet-testing';
import { bladeAuth } from '../../testing';
import { useDemoConsole } from '../auth/console-fixture';

const BASE = '/api/student/student';
const T = '100001';
const HEADER = ['姓名*', '性别*', '出生日期', '班级*', '学号', '入园日期', '监护人', '监护人电话', '备注'];

/**
 * Children with guardians in Excel (issue 19): the import (every bad row named, nothing written
 * unless all are good; the classes the caller may add to), the export and a class's roster in
 * the caller's data scope, and a child moved to another class keeping her records.
 */
describe('children: Excel import and export with guardians, the roster, moving a child', () => {
  const demo = useDemoConsole();
  const { call } = demo;

  const count = () =>
    inSystem(demo.t.database, async (trx) => {
      const r = await sql<{
        n: number;
      }>`select count(*)::int as n from student where tenant_id = ${T} and is_deleted = 0`.execute(trx);
      return r.rows[0]?.n as number;
    });
  const upload = (who: string, file: Buffer, lang = 'zh-CN') =>
    uploadSheet(demo.app, bladeAuth(demo.tokens[who] as string), `${BASE}/import`, file, lang);
  const finished = async (who: string, jobId: string) => {
    const read = async () => (await call(who, 'GET', `${BASE}/import-progress?jobId=${jobId}`)).body.data;
    await expect.poll(async () => (await read()).state).toMatch(/done|failed/);
    return read();
  };
  const download = (who: string, url: string) =>
    demo.app.inject({ method: 'GET', url, headers: { ...bladeAuth(demo.tokens[who] as string) } });

  it('imports children with guardians: bad rows named, nothing written; then all of them', async () => {
    const before = await count();
    const rows = [
      HEADER,
      ['小明', '男', '2022-03-01', '小一班', 'X001', '2025-09-01', '明爸爸', '13800000011', ''],
      ['', '未知', '2022-02-30', '无此班', 'X001', '', '', '123', ''],
      ['小红', '女', '', '小一班', 'X001', '', '', '', ''],
    ];
    const started = await upload('principal', await xlsxOf(rows));
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const failed = await finished('principal', started.body.data.jobId);
    expect(failed.state).toBe('failed');
    expect(failed.errors).toEqual([
      { row: 3, column: '姓名', message: '不能为空' },
      { row: 3, column: '性别', message: '只能是：男, 女' },
      { row: 3, column: '出生日期', message: '日期格式应为 yyyy-mm-dd' },
      { row: 3, column: '班级', message: '班级不存在：无此班' },
      { row: 3, column: '学号', message: '与第 2 行重复' },
      { row: 3, column: '监护人电话', message: '请输入 11 位手机号码' },
      { row: 4, column: '学号', message: '与第 2 行重复' },
    ]);
    expect(await count()).toBe(before);

    const good = [
      HEADER,
      rows[1] as string[],
      ['小红', '女', '', '小一班', 'X002', '', '红妈妈', '13800000012', '过敏：花生'],
    ];
    const done = await finished('principal', (await upload('principal', await xlsxOf(good))).body.data.jobId);
    expect(done).toMatchObject({ state: 'done', total: 2, done: 2 });
    expect(await count()).toBe(before + 2);
    const listed = await call('principal', 'GET', `${BASE}/listStudents?studentNo=X002`);
    expect(listed.body.data.records[0]).toMatchObject({ name: '小红', className: '小一班', guardianName: '红妈妈' });

    // Numbers now taken are refused.
    const again = await finished('principal', (await upload('principal', await xlsxOf(good))).body.data.jobId);
    expect(again.errors[0]).toEqual({ row: 2, column: '学号', message: '学号已存在：X001' });
  });

  it('a teacher imports only into her own classes', async () => {
    const rows = [HEADER, ['中班孩子', '男', '', '中一班', '', '', '', '', '']];
    const done = await finished('teacher', (await upload('teacher', await xlsxOf(rows))).body.data.jobId);
    expect(done.errors).toEqual([{ row: 2, column: '班级', message: '所选数据不在您的数据权限内' }]);
  });

  it('exports children with guardians in the caller’s scope; with a classId it is the class’s roster', async () => {
    const all = await download('principal', `${BASE}/export`);
    expect(all.statusCode).toBe(200);
    const sheet = await rowsOf(all.rawPayload);
    expect(sheet[0]).toEqual(HEADER);
    expect(sheet.find((r) => r[4] === 'X002')).toEqual([
      '小红',
      '女',
      '',
      '小一班',
      'X002',
      '',
      '红妈妈',
      '13800000012',
      '过敏：花生',
    ]);
    const classId = (await call('principal', 'GET', `${BASE}/listStudents?studentNo=X002`)).body.data.records[0]
      .classId;
    const roster = await rowsOf((await download('principal', `${BASE}/export?classId=${classId}`)).rawPayload);
    expect(roster.length).toBeGreaterThan(2);
    expect(roster.slice(1).every((r) => r[3] === '小一班')).toBe(true);
    // A teacher's export holds her classes only.
    const hers = await rowsOf((await download('teacher', `${BASE}/export`)).rawPayload);
    expect(new Set(hers.slice(1).map((r) => r[3]))).toEqual(new Set(['小一班']));
    expect((await download('platform', `${BASE}/export`)).statusCode).toBe(200);
    expect(await rowsOf((await download('platform', `${BASE}/export`)).rawPayload)).toHaveLength(1);
  });

  it('moves a child to another class: her records stay hers', async () => {
    const child = await inSystem(demo.t.database, async (trx) => {
      const r = await sql<{ id: string }>`select (jsonb_array_elements_text(content -> 'studentIds'))::text as id
        from record_list where tenant_id = ${T} and kind = 'observation' and content ? 'studentIds' limit 1`.execute(
        trx,
      );
      return r.rows[0]?.id as string;
    });
    expect(child).toBeTruthy();
    const recordsOf = async () =>
      (
        (await call('principal', 'GET', `/api/guide/child/records?studentId=${child}&size=100`)).body.data.records as {
          id: string;
        }[]
      ).map((r) => r.id);
    const before = await recordsOf();
    expect(before.length).toBeGreaterThan(0);
    const detail = (await call('principal', 'GET', `${BASE}/detail?id=${child}`)).body.data;
    const other = (await call('principal', 'GET', '/api/clazz/classinfo/list?size=50')).body.data.records.find(
      (c: { id: string }) => c.id !== detail.classId,
    );
    const moved = await call('principal', 'POST', `${BASE}/updateStudent`, { ...detail, classId: other.id });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await call('principal', 'GET', `${BASE}/detail?id=${child}`)).body.data.classId).toBe(other.id);
    expect(await recordsOf()).toEqual(before);
  });
});
