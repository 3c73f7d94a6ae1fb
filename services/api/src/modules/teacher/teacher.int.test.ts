import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { rowsOf, uploadSheet, xlsxOf } from '../../http/sheet-testing';
import { bladeAuth } from '../../testing';
import { useDemoConsole } from '../auth/console-fixture';

const BASE = '/api/teacher/master';
const T = '100001';

/**
 * Teacher master data (/api/teacher/master) on PostgreSQL: every call, the lookups' codes,
 * links to the account, dept and post, duplicate numbers, other tenants' ids, buttons, and the
 * Excel import (every bad row named, nothing written) and export.
 */
describe('teacher master: list, teacherList, detail, submit, update, remove, import, export', () => {
  const demo = useDemoConsole();
  const { call, refused } = demo;

  const stored = (tenantId = T) =>
    inSystem(demo.t.database, async (trx) => {
      const r = await sql<{ id: string; teacher_no: string; is_deleted: number }>`
        select id::text, teacher_no, is_deleted from teacher_master where tenant_id = ${tenantId} order by id`.execute(
        trx,
      );
      return r.rows;
    });
  const idOf = (table: string, column: string, value: string) =>
    inSystem(demo.t.database, async (trx) => {
      const r = await sql<{ id: string }>`select id::text from ${sql.table(table)}
        where tenant_id = ${T} and ${sql.ref(column)} = ${value} and is_deleted = 0`.execute(trx);
      return r.rows[0]?.id as string;
    });
  const upload = (who: string, file: Buffer, lang = 'zh-CN') =>
    uploadSheet(demo.app, bladeAuth(demo.tokens[who] as string), `${BASE}/import`, file, lang);
  const finished = async (who: string, jobId: string, lang = 'zh-CN') => {
    await expect
      .poll(
        async () => (await call(who, 'GET', `${BASE}/import-progress?jobId=${jobId}`, undefined, lang)).body.data.state,
      )
      .toMatch(/done|failed/);
    return (await call(who, 'GET', `${BASE}/import-progress?jobId=${jobId}`, undefined, lang)).body.data;
  };

  it('adds a record with every field, reads it, updates it (submit and update), lists and finds it', async () => {
    const userId = await idOf('app_user', 'account', 'teacher1');
    const deptId = await idOf('dept', 'dept_name', '小班组');
    const postId = await idOf('post', 'post_name', '班主任');
    const added = await call('principal', 'POST', `${BASE}/submit`, {
      teacherNo: 'T001',
      name: '王芳',
      userId,
      gender: 2,
      birthDate: '1990-05-01',
      ethnicity: 1,
      staffing: '1',
      politicalStatus: 1,
      education: 3,
      major: '学前教育',
      graduateSchool: '华东师范大学',
      teacherCertificate: 1,
      socialWorkQualification: 2,
      mandarinLevel: 2,
      professionalTitle: '一级教师',
      hireDate: '2012-09-01',
      phone: '13800000001',
      deptId,
      postId,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.msg).toBe('新增成功');
    const id = added.body.data.id as string;
    expect(added.body.data).toMatchObject({
      teacherNo: 'T001',
      userId,
      staffing: 1,
      ethnicity: 1,
      birthDate: '1990-05-01',
    });

    const detail = await call('principal', 'GET', `${BASE}/detail?id=${id}`);
    expect(detail.body.data).toMatchObject({ id, name: '王芳', deptId, postId, mandarinLevel: 2 });

    const updated = await call('principal', 'POST', `${BASE}/update`, { ...detail.body.data, education: 2 }, 'en');
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.msg).toBe('Updated');
    expect((await call('principal', 'GET', `${BASE}/detail?id=${id}`)).body.data.education).toBe(2);

    const list = await call('principal', 'GET', `${BASE}/list?current=1&size=10&name=${encodeURIComponent('王')}`);
    expect(list.body.data.records.map((r: { id: string }) => r.id)).toEqual([id]);
    const options = await call('principal', 'GET', `${BASE}/teacherList`);
    expect(options.body.data).toEqual([{ id, teacherNo: 'T001', name: '王芳', userId, deptId }]);
  });

  it('names every bad field in both languages and writes nothing', async () => {
    const before = await stored();
    const zh = await refused('principal', `${BASE}/submit`, {
      name: ' ',
      ethnicity: 58,
      staffing: 'x',
      birthDate: '2020-13-01',
      phone: '123',
    });
    expect(zh).toEqual(
      expect.arrayContaining([
        { field: 'teacherNo', message: '请输入教师编号' },
        { field: 'name', message: '请输入教师姓名' },
        { field: 'ethnicity', message: '请从字典“民族”中选择（1–57）' },
        { field: 'phone', message: '请输入 11 位手机号码' },
      ]),
    );
    expect(zh.map((f) => f.field)).toEqual(expect.arrayContaining(['staffing', 'birthDate']));
    const en = await refused('principal', `${BASE}/submit`, { teacherNo: 'X', name: 'Y', mandarinLevel: 9 }, 'en');
    expect(en).toEqual([{ field: 'mandarinLevel', message: 'Please choose from the dictionary “普通话等级” (1–4)' }]);
    expect(await stored()).toEqual(before);
  });

  it('refuses a duplicate number, an account with a record, unknown and other tenants’ ids: a 4xx, nothing written', async () => {
    const before = await stored();
    expect(await refused('principal', `${BASE}/submit`, { teacherNo: 'T001', name: '重复' })).toEqual([
      { field: 'teacherNo', message: '教师编号已存在：T001' },
    ]);
    const userId = await idOf('app_user', 'account', 'teacher1');
    expect(await refused('principal', `${BASE}/submit`, { teacherNo: 'T002', name: '同账号', userId })).toEqual([
      { field: 'userId', message: '该账号已有教师档案' },
    ]);
    const platformAdmin = await inSystem(demo.t.database, async (trx) => {
      const r = await sql<{ id: string }>`select id::text from app_user where tenant_id = '000000' limit 1`.execute(
        trx,
      );
      return r.rows[0]?.id as string;
    });
    expect(
      await refused('principal', `${BASE}/submit`, { teacherNo: 'T003', name: '外租户', userId: platformAdmin }),
    ).toEqual([{ field: 'userId', message: `账号不存在：${platformAdmin}` }]);
    expect(
      (await refused('principal', `${BASE}/submit`, { teacherNo: 'T003', name: 'x', deptId: '999' }))[0]?.field,
    ).toBe('deptId');
    const unknown = await call('principal', 'POST', `${BASE}/update`, { id: '123456789', teacherNo: 'T9', name: 'x' });
    expect(unknown.status).toBe(404);
    expect((await call('principal', 'GET', `${BASE}/remove?id=123456789`)).status).toBe(400);
    // Another tenant sees none of ours and cannot remove them.
    const [mine] = before;
    expect((await call('platform', 'GET', `${BASE}/detail?id=${mine?.id}`)).status).toBe(404);
    expect((await call('platform', 'GET', `${BASE}/remove?id=${mine?.id}`)).status).toBe(400);
    expect((await call('platform', 'GET', `${BASE}/list`)).body.data.total).toBe(0);
    expect(await stored()).toEqual(before);
  });

  it('lets only those with the screen and its buttons call it (a teacher has neither)', async () => {
    expect((await call('teacher', 'GET', `${BASE}/list`)).status).toBe(403);
    expect((await call('teacher', 'POST', `${BASE}/submit`, { teacherNo: 'Q', name: 'q' })).status).toBe(403);
    expect((await call('teacher', 'GET', `${BASE}/export`)).status).toBe(403);
  });

  it('imports teachers from .xlsx: every bad row named (row, column, reason) and nothing written, then all of them', async () => {
    const header = [
      '教师编号*',
      '姓名*',
      '账号',
      '性别',
      '出生日期',
      '民族',
      '编制',
      '学历',
      '手机号码',
      '部门',
      '岗位',
    ];
    const good = (n: number) => [
      `I${n}`,
      `教师${n}`,
      '',
      '女',
      '1995-01-02',
      '汉族',
      '在编',
      '本科',
      '13900000000',
      '小班组',
      '配班教师',
    ];
    const rows = [
      header,
      good(1),
      ['T001', '重复编号', 'teacher1', '男', '1990-02-30', '火星族', '', '', '12', '无此部门', ''],
      good(2),
      good(2),
    ];
    const before = await stored();
    const started = await upload('principal', await xlsxOf(rows));
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.data.total).toBe(4);
    const failed = await finished('principal', started.body.data.jobId);
    expect(failed.state).toBe('failed');
    expect(failed.message).toBe('2 行数据有误，未写入任何数据');
    expect(failed.errors).toEqual([
      { row: 3, column: '教师编号', message: '教师编号已存在：T001' },
      { row: 3, column: '账号', message: '该账号已有教师档案' },
      { row: 3, column: '出生日期', message: '日期格式应为 yyyy-mm-dd' },
      { row: 3, column: '民族', message: expect.stringMatching(/^只能是：汉族, 蒙古族/) },
      { row: 3, column: '手机号码', message: '请输入 11 位手机号码' },
      { row: 3, column: '部门', message: '部门不存在：无此部门' },
      { row: 5, column: '教师编号', message: '与第 4 行重复' },
    ]);
    expect(await stored()).toEqual(before);

    // In English, the columns and reasons are English.
    const en = await upload('principal', await xlsxOf([header, ['', 'x']]), 'en');
    const enDone = await finished('principal', en.body.data.jobId, 'en');
    expect(enDone.errors).toEqual([{ row: 2, column: 'Teacher number', message: 'must not be empty' }]);

    const ok = await upload('principal', await xlsxOf([header, good(1), good(2), good(3)]));
    const done = await finished('principal', ok.body.data.jobId);
    expect(done).toMatchObject({ state: 'done', done: 3, total: 3, errors: [], message: '已导入 3 行' });
    expect((await stored()).length).toBe(before.length + 3);

    const file = await demo.app.inject({
      method: 'GET',
      url: `${BASE}/export`,
      headers: { ...bladeAuth(demo.tokens.principal as string) },
    });
    expect(file.statusCode).toBe(200);
    const sheet = await rowsOf(file.rawPayload);
    expect(sheet[0]?.slice(0, 3)).toEqual(['教师编号*', '姓名*', '账号']);
    const i2 = sheet.find((r) => r[0] === 'I2');
    expect(i2).toEqual(
      expect.arrayContaining(['教师2', '女', '1995-01-02', '汉族', '在编', '本科', '小班组', '配班教师']),
    );
    expect(sheet.find((r) => r[0] === 'T001')?.[2]).toBe('teacher1');
  });

  it('refuses uploads that are no sheet, and a teacher’s import', async () => {
    expect((await upload('principal', Buffer.from('a,b\n1,2'))).status).toBe(400);
    expect((await upload('principal', await xlsxOf([['姓名'], ['x']]))).body.msg).toMatch(/缺少必填列：教师编号/);
    expect(
      (
        await upload(
          'teacher',
          await xlsxOf([
            ['教师编号', '姓名'],
            ['a', 'b'],
          ]),
        )
      ).status,
    ).toBe(403);
  });

  it('removes by GET id and by POST ids', async () => {
    const live = (await stored()).filter((r) => !r.is_deleted);
    const [a, b] = live;
    const one = await call('principal', 'GET', `${BASE}/remove?id=${a?.id}`);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body.msg).toBe('删除成功');
    const two = await call('principal', 'POST', `${BASE}/remove?ids=${b?.id}`);
    expect(two.status, JSON.stringify(two.body)).toBe(200);
    expect((await stored()).filter((r) => !r.is_deleted).length).toBe(live.length - 2);
    expect((await call('principal', 'GET', `${BASE}/remove?id=${a?.id}`)).status).toBe(400);
  });
});
