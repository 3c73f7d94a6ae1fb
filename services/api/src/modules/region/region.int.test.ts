import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { useDemoConsole } from '../auth/console-fixture';

/**
 * Regions (/api/blade-system/region) on PostgreSQL: the seeded provinces, cities and
 * districts, the lazy tree in BladeX's shape, list, detail, submit and remove with their
 * refusals in both languages, and who may write (the platform only).
 */
describe('regions: lazy-tree, list, detail, submit, remove', () => {
  const demo = useDemoConsole();
  const { call, refused } = demo;
  const BASE = '/api/blade-system/region';

  const stored = (code: string) =>
    inSystem(demo.t.database, async (trx) => {
      const r = await sql<{ code: string; parent_code: string; name: string; region_level: number }>`
        select code, parent_code, name, region_level from region where code = ${code}`.execute(trx);
      return r.rows[0];
    });
  type Node = { id: string; parentId: string; title: string; key: string; value: string; hasChildren: boolean };

  it('answers the 34 seeded provinces as the first level of the lazy tree, in BladeX’s node shape', async () => {
    const r = await call('teacher', 'GET', `${BASE}/lazy-tree`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const nodes = r.body.data as Node[];
    expect(nodes).toHaveLength(34);
    expect(nodes[0]).toEqual({
      id: '110000',
      parentId: '00',
      title: '北京市',
      key: '110000',
      value: '110000',
      hasChildren: true,
    });
    for (const n of nodes) expect(Object.keys(n)).toEqual(['id', 'parentId', 'title', 'key', 'value', 'hasChildren']);
    expect(nodes.map((n) => n.title)).toEqual(expect.arrayContaining(['广东省', '台湾省', '香港特别行政区']));
    // The same level with parentCode empty or 00.
    expect((await call('teacher', 'GET', `${BASE}/lazy-tree?parentCode=`)).body.data).toEqual(nodes);
    expect((await call('admin', 'GET', `${BASE}/lazy-tree?parentCode=00`)).body.data).toEqual(nodes);
  });

  it('answers 广东省’s 21 cities and a city’s districts; a district is a leaf without children', async () => {
    const cities = (await call('teacher', 'GET', `${BASE}/lazy-tree?parentCode=440000`)).body.data as Node[];
    expect(cities).toHaveLength(21);
    expect(cities.map((c) => c.title)).toEqual(expect.arrayContaining(['广州市', '深圳市', '东莞市']));
    const gz = cities.find((c) => c.title === '广州市') as Node;
    expect(gz).toMatchObject({ id: '440100', parentId: '440000', hasChildren: true });
    const districts = (await call('teacher', 'GET', `${BASE}/lazy-tree?parentCode=440100`)).body.data as Node[];
    expect(districts.map((d) => d.title)).toContain('天河区');
    expect(districts.every((d) => d.hasChildren === false && !('children' in d))).toBe(true);
    expect((await call('teacher', 'GET', `${BASE}/lazy-tree?parentCode=440106`)).body.data).toEqual([]);
    const total = await inSystem(demo.t.database, (trx) =>
      sql<{ n: number }>`select count(*)::int as n from region`.execute(trx),
    );
    // 34 provinces, 375 cities, 3,391 districts (six codes of 台湾省 are listed twice in the data).
    expect(total.rows[0]?.n).toBe(3800);
  });

  it('lists regions paged, filtered by code, name and parentCode; detail by code', async () => {
    const byParent = await call('teacher', 'GET', `${BASE}/list?parentCode=440000&size=10`);
    expect(byParent.status).toBe(200);
    expect(byParent.body.data).toMatchObject({ total: 21, size: 10, current: 1, pages: 3 });
    const first = byParent.body.data.records[0];
    expect(Object.keys(first)).toEqual([
      'id',
      'code',
      'parentCode',
      'parentName',
      'name',
      'regionLevel',
      'sort',
      'remark',
      'createTime',
    ]);
    expect(first).toMatchObject({ id: '440100', code: '440100', parentName: '广东省', name: '广州市', regionLevel: 2 });
    const byName = await call('admin', 'GET', `${BASE}/list?name=${encodeURIComponent('天河')}`);
    expect(byName.body.data.records.map((r: { code: string }) => r.code)).toEqual(['440106']);
    const byCode = await call('admin', 'GET', `${BASE}/list?code=4401&name=&parentCode=`);
    expect(byCode.body.data.total).toBeGreaterThan(10);
    const detail = await call('teacher', 'GET', `${BASE}/detail?code=440106`);
    expect(detail.body.data).toMatchObject({
      code: '440106',
      parentCode: '440100',
      parentName: '广州市',
      regionLevel: 3,
    });
    expect((await call('teacher', 'GET', `${BASE}/detail?id=440106`)).body.data.name).toBe('天河区');
    expect((await call('teacher', 'GET', `${BASE}/detail?code=999999`)).status).toBe(404);
    const bad = await call('teacher', 'GET', `${BASE}/detail?code=abc`, undefined, 'en');
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual([{ field: 'code', message: 'A region code is 2 to 12 digits' }]);
  });

  it('adds, updates and moves a region (the platform administrator); levels follow the parent', async () => {
    const added = await call('platform', 'POST', `${BASE}/submit`, {
      code: '440106001',
      parentCode: '440106',
      name: ' 石牌街道 ',
      sort: 1,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body).toMatchObject({
      msg: '新增成功',
      data: { code: '440106001', name: '石牌街道', regionLevel: 4 },
    });
    const child = await call('platform', 'POST', `${BASE}/submit?code=440106001001&parentCode=440106001&name=x`);
    expect(child.status, JSON.stringify(child.body)).toBe(200);
    expect(child.body.data.regionLevel).toBe(5);
    const tree = (await call('teacher', 'GET', `${BASE}/lazy-tree?parentCode=440106`)).body.data as Node[];
    expect(tree).toEqual([
      {
        id: '440106001',
        parentId: '440106',
        title: '石牌街道',
        key: '440106001',
        value: '440106001',
        hasChildren: true,
      },
    ]);

    // Moved under 北京市 (a province): it becomes level 2 and its child level 3.
    const moved = await call(
      'platform',
      'POST',
      `${BASE}/submit`,
      { id: '440106001', code: '440106001', parentCode: '110000', name: '石牌', remark: '搬家' },
      'en',
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({
      msg: 'Updated',
      data: { parentName: '北京市', regionLevel: 2, remark: '搬家' },
    });
    expect(await stored('440106001001')).toMatchObject({ region_level: 3 });
  });

  it('refuses bad input with a 400 naming the fields, in Chinese and in English', async () => {
    expect(await refused('platform', `${BASE}/submit`, { code: 'x1', parentCode: 'abc', name: ' ' })).toEqual([
      { field: 'code', message: '区划编号须为 2 至 12 位数字' },
      { field: 'parentCode', message: '区划编号须为 2 至 12 位数字' },
      { field: 'name', message: '请输入区划名称' },
    ]);
    expect(await refused('platform', `${BASE}/submit`, {}, 'en')).toEqual([
      { field: 'code', message: 'Please enter the region code' },
      { field: 'name', message: 'Please enter the region name' },
    ]);
    // The root's code is no region's.
    expect(await refused('platform', `${BASE}/submit`, { code: '00', name: '根' })).toEqual([
      { field: 'code', message: '区划编号须为 2 至 12 位数字' },
    ]);
    const cases: [object, string, string][] = [
      [{ code: '110000', name: '重复' }, '区划编号已存在：110000', 'A region with the code 110000 already exists'],
      [
        { code: '990000', parentCode: '980000', name: '无' },
        '上级区划不存在：980000',
        'No parent region with the code 980000',
      ],
      [
        { id: '440000', code: '440100', name: '改号' },
        '区划编号不可修改：440000',
        'A region’s code cannot be changed: 440000',
      ],
      [
        { id: '440000', code: '440000', parentCode: '440106', name: '广东省' },
        '不能把区划 440000 移到它自己或它的下级 440106 之下',
        'Region 440000 cannot move under itself or its own subregion 440106',
      ],
      [
        { id: '440000', code: '440000', parentCode: '440000', name: '广东省' },
        '不能把区划 440000 移到它自己或它的下级 440000 之下',
        'Region 440000 cannot move under itself or its own subregion 440000',
      ],
    ];
    for (const [body, msgZh, msgEn] of cases) {
      const r = await call('platform', 'POST', `${BASE}/submit`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.msg).toBe(msgZh);
      expect((await call('platform', 'POST', `${BASE}/submit`, body, 'en')).body.msg).toBe(msgEn);
    }
    expect(await stored('440000')).toMatchObject({ parent_code: '00', name: '广东省', region_level: 1 });
    expect(await stored('990000')).toBeUndefined();
  });

  it('removes leaves; a region with children, or an unknown code, is a 400 and removes nothing', async () => {
    const parent = await call('platform', 'POST', `${BASE}/remove?id=440100`, undefined, 'en');
    expect(parent.status).toBe(400);
    expect(parent.body.msg).toBe('Delete the subregions first: 440100');
    expect((await call('platform', 'POST', `${BASE}/remove?id=440100`)).body.msg).toBe('请先删除下级区划：440100');
    const unknown = await call('platform', 'POST', `${BASE}/remove`, { ids: '440106,970000' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toContain('970000');
    expect(await stored('440106')).toBeDefined();
    expect((await call('platform', 'POST', `${BASE}/remove?ids=`)).status).toBe(400);

    await call('platform', 'POST', `${BASE}/submit`, { code: '440106009', parentCode: '440106', name: '叶' });
    // A parent removed together with all its children is fine.
    await call('platform', 'POST', `${BASE}/submit`, { code: '440106009001', parentCode: '440106009', name: '叶叶' });
    const removed = await call('platform', 'POST', `${BASE}/remove`, { ids: '440106009,440106009001' });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body).toMatchObject({ msg: '删除成功', data: null });
    expect(await stored('440106009')).toBeUndefined();
  });

  it('lets every signed-in user read, but no kindergarten write regions (403, nothing changed)', async () => {
    for (const who of ['admin', 'teacher']) {
      expect((await call(who, 'GET', `${BASE}/list`)).status).toBe(200);
      const add = await call(who, 'POST', `${BASE}/submit`, { code: '660000', name: '新省' });
      expect(add.status, who).toBe(403);
      const edit = await call(who, 'POST', `${BASE}/submit`, { id: '440000', code: '440000', name: '改名' });
      expect(edit.status, who).toBe(403);
      expect((await call(who, 'POST', `${BASE}/remove?id=440106`)).status, who).toBe(403);
    }
    expect(await stored('660000')).toBeUndefined();
    expect(await stored('440000')).toMatchObject({ name: '广东省' });
    expect(await stored('440106')).toBeDefined();
    // Without a token there is nothing to read.
    const anonymous = await demo.app.inject({ method: 'GET', url: `${BASE}/lazy-tree` });
    expect(anonymous.statusCode).toBe(401);
  });
});
