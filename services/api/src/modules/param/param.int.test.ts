import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { fieldNames } from '../../testing';
import { useDemoConsole } from '../auth/console-fixture';

/**
 * The parameter family (/api/blade-system/param) on the resource builder, on PostgreSQL:
 * each call, the §5 messages in both languages, buttons, tenants, paging and filters.
 */
describe('parameters: list, detail, submit, remove', () => {
  const demo = useDemoConsole();
  const { call, refused } = demo;
  const BASE = '/api/blade-system/param';

  /** The param rows of a tenant as stored (as the owner): key → value, live or not. */
  const stored = (tenantId: string) =>
    inSystem(demo.t.database, async (trx) => {
      const r = await sql<{ id: string; param_key: string; param_value: string; is_deleted: number }>`
        select id::text, param_key, param_value, is_deleted from param where tenant_id = ${tenantId} order by id`.execute(
        trx,
      );
      return r.rows;
    });
  const add = async (who: string, body: object) => {
    const r = await call(who, 'POST', `${BASE}/submit`, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data as { id: string; paramKey: string };
  };

  it('lists the demo kindergarten’s parameters, paged in the Saber shape', async () => {
    const r = await call('admin', 'GET', `${BASE}/list?current=1&size=10`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 200, success: true, msg: '操作成功' });
    expect(r.body.data).toMatchObject({ total: 3, size: 10, current: 1, pages: 1 });
    expect(r.body.data.records.map((p: { paramKey: string }) => p.paramKey).sort()).toEqual([
      'plan.halfDay.layout',
      'school.year',
      'week.submitDeadline',
    ]);
    const year = r.body.data.records.find((p: { paramKey: string }) => p.paramKey === 'school.year');
    expect(Object.keys(year)).toEqual([
      'id',
      'tenantId',
      'paramName',
      'paramKey',
      'paramValue',
      'remark',
      'createTime',
    ]);
    expect(year).toMatchObject({ tenantId: '100001', paramName: '当前学年', paramValue: '2026-2027', remark: '' });
    expect(year.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // The platform tenant has none of them.
    expect((await call('platform', 'GET', `${BASE}/list`)).body.data.total).toBe(0);
  });

  it('adds (JSON body or Saber’s query string), reads and updates a parameter', async () => {
    const added = await call('admin', 'POST', `${BASE}/submit`, {
      paramName: ' 午睡时长 ',
      paramKey: 'nap.minutes',
      paramValue: '120',
      remark: '分钟',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.msg).toBe('新增成功');
    const id = added.body.data.id as string;
    expect(added.body.data).toMatchObject({ paramName: '午睡时长', paramKey: 'nap.minutes', paramValue: '120' });

    const detail = await call('admin', 'GET', `${BASE}/detail?id=${id}`);
    expect(detail.body.data).toEqual(added.body.data);

    const q = new URLSearchParams({ id, paramName: '午睡时长', paramKey: 'nap.minutes', paramValue: '90' });
    const updated = await call('admin', 'POST', `${BASE}/submit?${q}`, undefined, 'en');
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ msg: 'Updated', data: { id, paramValue: '90', remark: '' } });
    expect((await call('admin', 'GET', `${BASE}/detail?id=${id}`)).body.data.paramValue).toBe('90');

    const viaQuery = await call('admin', 'POST', `${BASE}/submit?paramName=a&paramKey=via.query&paramValue=1`);
    expect(viaQuery.status, JSON.stringify(viaQuery.body)).toBe(200);
    expect(viaQuery.body.msg).toBe('新增成功');
  });

  it('names every missing field with the §5 messages, in Chinese by default and in English', async () => {
    expect(await refused('admin', `${BASE}/submit`, { paramName: '  ', remark: 'x' })).toEqual([
      { field: 'paramName', message: '请输入参数名称' },
      { field: 'paramKey', message: '请输入参数键名' },
      { field: 'paramValue', message: '请输入参数键值' },
    ]);
    const en = await call('admin', 'POST', `${BASE}/submit`, {}, 'en');
    expect(en.status).toBe(400);
    expect(en.body.fields).toEqual([
      { field: 'paramName', message: 'Please enter the parameter name' },
      { field: 'paramKey', message: 'Please enter the parameter key' },
      { field: 'paramValue', message: 'Please enter the parameter value' },
    ]);
    expect(en.body.msg).toContain('paramKey: Please enter the parameter key');
  });

  it('refuses a key the tenant already uses (another tenant may use it; a removed one is free)', async () => {
    const first = await add('admin', { paramName: '甲', paramKey: 'dup.key', paramValue: '1' });
    const dup = await call('admin', 'POST', `${BASE}/submit`, {
      paramName: '乙',
      paramKey: 'dup.key',
      paramValue: '2',
    });
    expect(dup.status).toBe(400);
    expect(dup.body.msg).toBe('参数键名已存在：dup.key');
    expect(dup.body.fields).toEqual([{ field: 'paramKey', message: '参数键名已存在：dup.key' }]);
    const dupEn = await call(
      'admin',
      'POST',
      `${BASE}/submit`,
      { paramName: 'b', paramKey: 'dup.key', paramValue: '2' },
      'en',
    );
    expect(dupEn.body.msg).toBe('A parameter with the key dup.key already exists');
    // Moving another row onto the key is refused too; keeping one's own key is not.
    const other = await add('admin', { paramName: '丙', paramKey: 'dup.other', paramValue: '3' });
    const move = await call('admin', 'POST', `${BASE}/submit`, {
      ...other,
      paramName: '丙',
      paramKey: 'dup.key',
      paramValue: '3',
    });
    expect(move.status).toBe(400);
    const keep = await call('admin', 'POST', `${BASE}/submit`, {
      id: first.id,
      paramName: '甲2',
      paramKey: 'dup.key',
      paramValue: '1',
    });
    expect(keep.status, JSON.stringify(keep.body)).toBe(200);
    await add('platform', { paramName: '平台', paramKey: 'dup.key', paramValue: 'p' });
    expect((await call('admin', 'POST', `${BASE}/remove?ids=${first.id}`)).status).toBe(200);
    await add('admin', { paramName: '甲3', paramKey: 'dup.key', paramValue: '4' });
  });

  it('filters by name and key (contains), by create time, pages, and reads empty parameters as absent', async () => {
    for (let i = 1; i <= 12; i++)
      await add('admin', { paramName: `页面参数${i}`, paramKey: `paging.k${i}`, paramValue: `${i}` });
    const byName = await call('admin', 'GET', `${BASE}/list?paramName=${encodeURIComponent('页面参数1')}`);
    expect(byName.body.data.records.map((p: { paramKey: string }) => p.paramKey).sort()).toEqual([
      'paging.k1',
      'paging.k10',
      'paging.k11',
      'paging.k12',
    ]);
    const byKey = await call('admin', 'GET', `${BASE}/list?paramKey=paging.&size=10&current=2`);
    expect(byKey.body.data).toMatchObject({ total: 12, size: 10, current: 2, pages: 2 });
    expect(byKey.body.data.records).toHaveLength(2);
    // LIKE's wildcards are text: `%` finds no key.
    expect((await call('admin', 'GET', `${BASE}/list?paramKey=%25`)).body.data.total).toBe(0);

    const all = (await call('admin', 'GET', `${BASE}/list?size=200`)).body.data.total;
    const empty = await call(
      'admin',
      'GET',
      `${BASE}/list?paramName=&paramKey=&current=&size=&createTime_dategt=&createTime_datelt=`,
    );
    expect(empty.status, JSON.stringify(empty.body)).toBe(200);
    expect(empty.body.data).toMatchObject({ total: all, size: 10, current: 1 });

    const future = encodeURIComponent('2999-01-01 00:00:00');
    const past = encodeURIComponent('2000-01-01 00:00:00');
    expect((await call('admin', 'GET', `${BASE}/list?createTime_dategt=${future}`)).body.data.total).toBe(0);
    expect((await call('admin', 'GET', `${BASE}/list?createTime_datelt=${future}`)).body.data.total).toBe(all);
    expect((await call('admin', 'GET', `${BASE}/list?createTime_dategt=${past}`)).body.data.total).toBe(all);
    expect((await call('admin', 'GET', `${BASE}/list?createTime_datelt=${past}`)).body.data.total).toBe(0);
    const bad = await call('admin', 'GET', `${BASE}/list?createTime_dategt=yesterday&size=7`);
    expect(bad.status).toBe(400);
    expect(fieldNames(bad.body)).toEqual(['createTime_dategt', 'size']);
  });

  it('keeps other tenants’ parameters out of reach: detail, update and remove change nothing', async () => {
    const theirs = await add('platform', { paramName: '平台参数', paramKey: 'platform.only', paramValue: 'keep' });
    expect((await call('admin', 'GET', `${BASE}/detail?id=${theirs.id}`)).status).toBe(404);
    const update = await call('admin', 'POST', `${BASE}/submit`, {
      id: theirs.id,
      paramName: '篡改',
      paramKey: 'platform.only',
      paramValue: 'changed',
    });
    expect(update.status).toBe(404);
    const remove = await call('admin', 'POST', `${BASE}/remove?ids=${theirs.id}`);
    expect(remove.status).toBe(400);
    expect(remove.body.msg).toBe(`以下编号不存在或不在您的数据权限内，未删除任何数据：${theirs.id}`);
    const row = (await stored('000000')).find((p) => p.id === theirs.id);
    expect(row).toMatchObject({ param_value: 'keep', is_deleted: 0 });
  });

  it('removes all or nothing: unknown and already-removed ids are a 400 naming them', async () => {
    const a = await add('admin', { paramName: '删1', paramKey: 'rm.a', paramValue: '1' });
    const b = await add('admin', { paramName: '删2', paramKey: 'rm.b', paramValue: '2' });
    const unknown = '1234567890123';
    const refused = await call('admin', 'POST', `${BASE}/remove?ids=${a.id},${unknown}`, undefined, 'en');
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe(`No such records, or outside your data scope (nothing was deleted): ${unknown}`);
    expect((await stored('100001')).find((p) => p.id === a.id)?.is_deleted).toBe(0);

    const removed = await call('admin', 'POST', `${BASE}/remove`, { ids: `${a.id},${b.id}` });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body).toMatchObject({ msg: '删除成功', data: null });
    expect((await stored('100001')).filter((p) => p.id === a.id || p.id === b.id).map((p) => p.is_deleted)).toEqual([
      1, 1,
    ]);
    expect((await call('admin', 'GET', `${BASE}/detail?id=${a.id}`)).status).toBe(404);
    const again = await call('admin', 'POST', `${BASE}/remove?ids=${a.id}`);
    expect(again.status).toBe(400);
    expect(again.body.msg).toContain(a.id);
    expect((await call('admin', 'POST', `${BASE}/remove?ids=`)).status).toBe(400);
  });

  it('is the administrators’ screen: a teacher or principal without its buttons gets 403', async () => {
    const [one] = await stored('100001');
    for (const who of ['teacher', 'principal']) {
      for (const [method, url] of [
        ['GET', `${BASE}/list`],
        ['GET', `${BASE}/detail?id=${one?.id}`],
        ['POST', `${BASE}/submit?paramName=x&paramKey=teacher.key&paramValue=1`],
        ['POST', `${BASE}/remove?ids=${one?.id}`],
      ] as const) {
        const r = await call(who, method, url);
        expect(r.status, `${who} ${method} ${url}`).toBe(403);
      }
    }
    expect((await stored('100001')).some((p) => p.param_key === 'teacher.key')).toBe(false);
    expect((await stored('100001')).find((p) => p.id === one?.id)?.is_deleted).toBe(0);
  });

  it('needs the add button to add and the edit button to update', async () => {
    // The demo admin role loses param_add: updates still pass, adds are refused.
    const deleted = await inSystem(demo.t.database, (trx) =>
      sql`delete from role_menu rm using role r, menu m
          where rm.tenant_id = '100001' and r.tenant_id = rm.tenant_id and r.id = rm.role_id and r.role_alias = 'admin'
            and m.id = rm.menu_id and m.code = 'param_add'`.execute(trx),
    );
    expect(Number(deleted.numAffectedRows)).toBe(1);
    // The database stamped a new permission version; this process reads it at its next poll.
    await demo.app.permissions.poll();
    const [one] = (await stored('100001')).filter((p) => !p.is_deleted);
    const refused = await call('admin', 'POST', `${BASE}/submit`, {
      paramName: 'n',
      paramKey: 'no.add',
      paramValue: '1',
    });
    expect(refused.status).toBe(403);
    const body = { id: one?.id, paramName: '改', paramKey: one?.param_key, paramValue: 'v' };
    expect((await call('admin', 'POST', `${BASE}/submit`, body)).status).toBe(200);
    expect((await stored('100001')).some((p) => p.param_key === 'no.add')).toBe(false);
  });
});
