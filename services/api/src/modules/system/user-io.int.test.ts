import { describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { rowsOf, xlsxOf } from '../../http/sheet-testing';
import { bladeAuth } from '../../testing';
import { useDemoConsole } from '../auth/console-fixture';
import { accessToken, passwordGrant } from '../auth/fixtures';
import { XLSX } from './user-sheet';

const T = '100001';

const sheetOf = rowsOf;

const HEADER = ['账号*', '姓名*', '昵称', '手机号码', '邮箱', '性别', '生日', '角色', '部门', '岗位'];

describe('users: Excel template, export, import with progress; enable and disable', () => {
  const demo = useDemoConsole();

  const download = async (who: string, url: string, lang = 'zh-CN') =>
    demo.app.inject({
      method: 'GET',
      url,
      headers: { ...bladeAuth(demo.tokens[who] as string), 'accept-language': lang },
    });

  const upload = async (who: string, file: Buffer, isCovered = 0, name = 'users.xlsx', lang = 'zh-CN') => {
    const boundary = `----sprout${Math.random().toString(16).slice(2)}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${XLSX}\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const r = await demo.app.inject({
      method: 'POST',
      url: `/api/blade-user/import-user?isCovered=${isCovered}`,
      headers: {
        ...bladeAuth(demo.tokens[who] as string),
        'accept-language': lang,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload,
    });
    return { status: r.statusCode, body: r.json() };
  };

  /** Polls the import's progress until it ends (each poll yields to the running import); the states seen. */
  const finished = async (jobId: string, who = 'admin', lang = 'zh-CN') => {
    const seen: Array<{ state: string; done: number; total: number }> = [];
    for (let i = 0; i < 1_000_000; i++) {
      const r = await demo.call(who, 'GET', `/api/blade-user/import-progress?jobId=${jobId}`, undefined, lang);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const p = r.body.data;
      if (seen.at(-1)?.state !== p.state || seen.at(-1)?.done !== p.done) seen.push(p);
      if (p.state === 'done' || p.state === 'failed') return { last: p, seen };
      await new Promise((res) => setImmediate(res));
    }
    throw new Error('the import never ended');
  };

  const names = async () =>
    inSystem(demo.t.database, async (trx) => ({
      role: (
        await trx
          .selectFrom('role')
          .select('role_name')
          .where('tenant_id', '=', T)
          .where('is_deleted', '=', 0)
          .orderBy('id')
          .executeTakeFirstOrThrow()
      ).role_name,
      dept: (
        await trx
          .selectFrom('dept')
          .select('dept_name')
          .where('tenant_id', '=', T)
          .where('is_deleted', '=', 0)
          .orderBy('id')
          .executeTakeFirstOrThrow()
      ).dept_name,
      post: (
        await trx
          .selectFrom('post')
          .select('post_name')
          .where('tenant_id', '=', T)
          .where('is_deleted', '=', 0)
          .orderBy('id')
          .executeTakeFirstOrThrow()
      ).post_name,
    }));

  const usersLike = async (account: string) => {
    const r = await demo.call('admin', 'GET', `/api/blade-user/page?account=${account}&size=10`);
    return r.body.data as { total: number; records: Array<Record<string, unknown>> };
  };

  it('downloads the import template with its headers in Chinese and in English', async () => {
    const zh = await download('admin', '/api/blade-user/export-template');
    expect(zh.statusCode).toBe(200);
    expect(zh.headers['content-type']).toBe(XLSX);
    expect(String(zh.headers['content-disposition'])).toContain(encodeURIComponent('用户导入模板.xlsx'));
    expect((await sheetOf(zh.rawPayload))[0]).toEqual(HEADER);
    const en = await download('admin', '/api/blade-user/export-template', 'en');
    expect(String(en.headers['content-disposition'])).toContain('user-import-template.xlsx');
    expect((await sheetOf(en.rawPayload))[0]).toEqual([
      'Account*',
      'Real name*',
      'Nickname',
      'Phone',
      'Email',
      'Sex',
      'Birthday',
      'Roles',
      'Department',
      'Post',
    ]);
  });

  it('exports the users in scope and imports the export again over them (isCovered=1)', async () => {
    // Saber's empty filters mean none.
    const all = await download('admin', '/api/blade-user/export-user?account=&realName=&deptId=');
    expect(all.statusCode, all.body).toBe(200);
    expect((await sheetOf(all.rawPayload)).length - 1).toBe((await usersLike('')).total);
    const exported = await download('admin', '/api/blade-user/export-user?account=teacher');
    expect(exported.statusCode, exported.body).toBe(200);
    const rows = await sheetOf(exported.rawPayload);
    expect(rows[0]).toEqual(HEADER.map((h) => h.replace('*', '')).map((h, i) => (i < 2 ? `${h}*` : h)));
    const teacher1 = rows.find((r) => r[0] === 'teacher1') as string[];
    expect(teacher1[1]).toBeTruthy();
    expect(JSON.stringify(rows)).not.toContain('password');
    // The same file with one change, imported over the existing accounts.
    teacher1[1] = '改过的名字';
    const { status, body } = await upload('admin', await xlsxOf(rows), 1);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.data.total).toBe(rows.length - 1);
    const { last } = await finished(body.data.jobId);
    expect(last).toMatchObject({ state: 'done', done: rows.length - 1, total: rows.length - 1, errors: [] });
    const after = (await usersLike('teacher1')).records.find((u) => u.account === 'teacher1');
    expect(after?.realName).toBe('改过的名字');
    // Without isCovered the same accounts are refused, row by row.
    const again = await upload('admin', await xlsxOf(rows), 0);
    const refused = await finished(again.body.data.jobId);
    expect(refused.last.state).toBe('failed');
    expect(refused.last.errors).toHaveLength(rows.length - 1);
    expect(refused.last.errors[0]).toEqual({ row: 2, column: '账号', message: expect.stringContaining('账号已存在') });
  });

  it('reports every bad row with its row, column and reason, and writes nothing', async () => {
    const n = await names();
    const file = await xlsxOf([
      HEADER,
      ['good1', '好人', '', '13800000001', 'good1@example.com', '女', '2020-01-02', n.role, n.dept, n.post],
      ['', '没有账号'],
      ['bad account!', '坏账号'],
      ['bad2', '', '', '12345'],
      ['bad3', '坏邮箱', '', '', 'not-an-email', '中', '2020-13-01'],
      ['bad4', '未知', '', '', '', '', '', '不存在的角色', '不存在的部门', '不存在的岗位'],
      ['good1', '重复'],
      ['teacher2', '已存在'],
    ]);
    const { body } = await upload('admin', file, 0);
    expect(body.data.total).toBe(8);
    const { last } = await finished(body.data.jobId);
    expect(last.state).toBe('failed');
    expect(last.message).toBe('7 行数据有误，未写入任何数据');
    expect(last.errors).toEqual([
      { row: 3, column: '账号', message: '不能为空' },
      { row: 4, column: '账号', message: expect.stringContaining('账号只能包含') },
      { row: 5, column: '姓名', message: '不能为空' },
      { row: 5, column: '手机号码', message: '手机号码格式不正确' },
      { row: 6, column: '邮箱', message: '邮箱格式不正确' },
      { row: 6, column: '性别', message: '性别只能是 男、女 或 未知' },
      { row: 6, column: '生日', message: '生日格式应为 yyyy-mm-dd' },
      { row: 7, column: '部门', message: '部门不存在：不存在的部门' },
      { row: 7, column: '岗位', message: '岗位不存在：不存在的岗位' },
      { row: 7, column: '角色', message: '角色不存在：不存在的角色' },
      { row: 8, column: '账号', message: '与第 2 行的账号重复' },
      { row: 9, column: '账号', message: '账号已存在：teacher2' },
    ]);
    expect((await usersLike('good1')).total).toBe(0);
    // In English, with English headers.
    const en = await upload(
      'admin',
      await xlsxOf([
        ['Account', 'Real name', 'Sex'],
        ['x1', 'X', 'maybe'],
      ]),
      0,
      'u.xlsx',
      'en',
    );
    const enDone = await finished(en.body.data.jobId, 'admin', 'en');
    expect(enDone.last.errors).toEqual([{ row: 2, column: 'Sex', message: 'sex must be Male, Female or Unknown' }]);
  });

  it('refuses what is no xlsx, a sheet without the required columns, and an over-quota import', async () => {
    const notXlsx = await upload('admin', Buffer.from('account,realName\na,b\n'), 0, 'users.xlsx');
    expect(notXlsx.status).toBe(400);
    expect(notXlsx.body.msg).toBe('请上传 Excel 文件（.xlsx）');
    const big = await upload('admin', Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(6 * 1024 * 1024)]), 0);
    expect(big.status).toBe(413);
    expect(big.body.msg).toBe('文件不能大于 5 MB');
    // A multipart body whose boundary is not the one its header names: no upload, a 400.
    const broken = await demo.app.inject({
      method: 'POST',
      url: '/api/blade-user/import-user?isCovered=0',
      headers: { ...bladeAuth(demo.tokens.admin as string), 'content-type': 'multipart/form-data; boundary=y' },
      payload: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.xlsx"\r\n\r\nPK\r\n--x--\r\n',
    });
    expect(broken.statusCode).toBe(400);
    const csv = await upload('admin', await xlsxOf([HEADER, ['a', 'b']]), 0, 'users.csv');
    expect(csv.body.msg).toBe('请上传 Excel 文件（.xlsx）');
    const noAccount = await upload('admin', await xlsxOf([['姓名'], ['张三']]), 0);
    expect(noAccount.body.msg).toBe('缺少必填列：账号');
    const active = await inSystem(demo.t.database, (trx) =>
      trx
        .selectFrom('app_user')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('tenant_id', '=', T)
        .where('is_deleted', '=', 0)
        .where('status', '=', 1)
        .executeTakeFirstOrThrow(),
    );
    await inSystem(demo.t.database, (trx) =>
      trx
        .updateTable('tenant')
        .set({ account_number: Number(active.n) + 1 })
        .where('tenant_id', '=', T)
        .execute(),
    );
    try {
      const { body } = await upload('admin', await xlsxOf([HEADER, ['q1', '一'], ['q2', '二']]), 0);
      const { last } = await finished(body.data.jobId);
      expect(last.errors).toEqual([{ row: 3, column: '账号', message: expect.stringContaining('账号额度') }]);
      expect((await usersLike('q1')).total).toBe(0);
    } finally {
      await inSystem(demo.t.database, (trx) =>
        trx.updateTable('tenant').set({ account_number: -1 }).where('tenant_id', '=', T).execute(),
      );
    }
  });

  it('imports 5,000 users in one go, its progress reaching the total', async () => {
    const n = await names();
    const rows = Array.from({ length: 5000 }, (_, i) => [
      `bulk${i}`,
      `批量${i}`,
      '',
      '',
      '',
      i % 2 ? '男' : '女',
      '',
      n.role,
      n.dept,
    ]);
    const { status, body } = await upload('admin', await xlsxOf([HEADER, ...rows]), 0);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.data.total).toBe(5000);
    const { last, seen } = await finished(body.data.jobId);
    expect(last).toMatchObject({ state: 'done', done: 5000, total: 5000, errors: [] });
    expect(seen.some((p) => p.state === 'writing')).toBe(true);
    expect((await usersLike('bulk')).total).toBe(5000);
    const one = (await usersLike('bulk4999')).records[0];
    expect(one).toMatchObject({ realName: '批量4999', sex: 1, deptName: n.dept, roleName: n.role });
    // New users sign in with the initial password.
    expect((await passwordGrant(demo.app, { tenantId: T, account: 'bulk17', password: '123456' })).statusCode).toBe(
      200,
    );
  });

  it('keeps the calls to holders of the buttons and a job to the one who started it', async () => {
    for (const url of ['/api/blade-user/export-template', '/api/blade-user/export-user'])
      expect((await download('teacher', url)).statusCode).toBe(403);
    expect((await upload('teacher', await xlsxOf([HEADER, ['t1', 'T']]))).status).toBe(403);
    expect((await demo.call('teacher', 'POST', '/api/blade-user/update-status?userIds=1&status=0')).status).toBe(403);
    const { body } = await upload('admin', await xlsxOf([HEADER, ['mine1', '我的']]), 0);
    await finished(body.data.jobId);
    // Another tenant's administrator (the platform's) sees no such job; a principal has no import button.
    expect(
      (await demo.call('platform', 'GET', `/api/blade-user/import-progress?jobId=${body.data.jobId}`)).status,
    ).toBe(404);
    expect(
      (await demo.call('principal', 'GET', `/api/blade-user/import-progress?jobId=${body.data.jobId}`)).status,
    ).toBe(403);
  });

  it('disables a user (no sign-in, sessions ended) and enables them again; never yourself', async () => {
    const teacher2 = (await usersLike('teacher2')).records.find((u) => u.account === 'teacher2') as { id: string };
    const token = await accessToken(demo.app, T, 'teacher2', 'sprout123');
    const off = await demo.call('admin', 'POST', `/api/blade-user/update-status?userIds=${teacher2.id}&status=0`);
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(
      (await passwordGrant(demo.app, { tenantId: T, account: 'teacher2', password: 'sprout123' })).statusCode,
    ).not.toBe(200);
    const old = await demo.app.inject({ method: 'GET', url: '/api/blade-user/page', headers: bladeAuth(token) });
    expect(old.statusCode).toBe(401);
    expect((await usersLike('teacher2')).records.find((u) => u.account === 'teacher2')?.status).toBe(0);
    const on = await demo.call('admin', 'POST', '/api/blade-user/update-status', { userIds: teacher2.id, status: 1 });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(
      (await passwordGrant(demo.app, { tenantId: T, account: 'teacher2', password: 'sprout123' })).statusCode,
    ).toBe(200);
    // Not yourself; not another tenant's user.
    const me = (await usersLike('admin')).records.find((u) => u.account === 'admin') as { id: string };
    const self = await demo.call('admin', 'POST', `/api/blade-user/update-status?userIds=${me.id}&status=0`);
    expect(self.status).toBe(400);
    expect(self.body.msg).toBe('不能停用您自己的账号');
    const cross = await demo.call('platform', 'POST', `/api/blade-user/update-status?userIds=${teacher2.id}&status=0`);
    expect(cross.status).toBe(400);
    expect(
      (await passwordGrant(demo.app, { tenantId: T, account: 'teacher2', password: 'sprout123' })).statusCode,
    ).toBe(200);
  });
});
