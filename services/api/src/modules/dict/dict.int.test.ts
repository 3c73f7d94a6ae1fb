import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { seed } from '@sprout/core/seed';
import { useDemoConsole } from '../auth/console-fixture';
import { accessToken } from '../auth/fixtures';
import { LOOKUPS } from './lookups';

/**
 * The dictionary families (/api/blade-system/dict, the platform's; /api/blade-system/dict-biz,
 * each tenant's) on the resource builder's tree and sealed options, on PostgreSQL: every call,
 * the §5 messages, sealed rows, keys, parents, tenants, and the spec's lookups every tenant gets.
 */
describe('dictionaries: system and business, parents and entries, lookups', () => {
  const demo = useDemoConsole();
  const { call, refused } = demo;
  const BIZ = '/api/blade-system/dict-biz';
  const SYS = '/api/blade-system/dict';

  interface Stored {
    id: string;
    parent_id: string;
    code: string;
    dict_key: string;
    dict_value: string;
    is_sealed: number;
    is_deleted: number;
  }
  /** A tenant's rows of a dictionary table as stored (as the owner), live or not. */
  const stored = (table: 'dict' | 'dict_biz', tenantId: string) =>
    inSystem(demo.t.database, async (trx) => {
      const r = await sql<Stored>`select id::text, parent_id::text, code, dict_key, dict_value, is_sealed, is_deleted
        from ${sql.table(table)} where tenant_id = ${tenantId} order by id`.execute(trx);
      return r.rows;
    });
  const add = async (who: string, body: object, base = BIZ) => {
    const r = await call(who, 'POST', `${base}/submit`, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data as { id: string; code: string; dictKey: string; parentId: string };
  };
  const ethnicId = async (tenantId: string) =>
    (await stored('dict_biz', tenantId)).find((d) => d.code === 'ethnic' && d.parent_id === '0')?.id as string;

  it('gives every tenant the spec’s lookups as sealed business dictionaries; ethnic has 57 entries in order', async () => {
    const parents = await call('admin', 'GET', `${BIZ}/parent-list?size=50`);
    expect(parents.status, JSON.stringify(parents.body)).toBe(200);
    // The spec's nine lookups, then the notices' categories, the 《指南》 tree (the guide
    // context's), the observation families' three and the teaching families' four (editable).
    expect(parents.body.data.total).toBe(18);
    expect(parents.body.data.records.map((d: { code: string }) => d.code)).toEqual([
      'ethnic',
      'staffing',
      'political',
      'education',
      'yes_no',
      'social_work',
      'mandarin',
      'activity_type',
      'domain',
      'guide',
      'notice',
      'observation_type',
      'regional_area',
      'hearken_type',
      'teacher_plan_type',
      'research_form',
      'project_level',
      'project_status',
    ]);
    expect(Object.keys(parents.body.data.records[0])).toEqual([
      'id',
      'tenantId',
      'code',
      'dictKey',
      'dictValue',
      'sort',
      'isSealed',
      'remark',
      'parentId',
      'createTime',
    ]);
    expect(parents.body.data.records[0]).toMatchObject({
      tenantId: '100001',
      code: 'ethnic',
      dictKey: '-1',
      dictValue: '民族',
      sort: 1,
      isSealed: 1,
      parentId: '0',
    });
    // Any signed-in user reads a dictionary (a teacher's form selects).
    const ethnic = await call('teacher', 'GET', `${BIZ}/dictionary?code=ethnic`);
    expect(ethnic.status, JSON.stringify(ethnic.body)).toBe(200);
    const entries = ethnic.body.data as { dictKey: string; dictValue: string; code: string; isSealed: number }[];
    expect(entries).toHaveLength(57);
    expect(entries.map((e) => e.dictKey)).toEqual(Array.from({ length: 57 }, (_, i) => String(i + 1)));
    expect(entries[0]).toMatchObject({ dictKey: '1', dictValue: '汉族', code: 'ethnic', isSealed: 1 });
    expect(entries[1]?.dictValue).toBe('蒙古族');
    expect(entries[10]?.dictValue).toBe('满族');
    expect(entries[55]?.dictValue).toBe('基诺族');
    expect(entries[56]?.dictValue).toBe('其他');
    const domain = await call('teacher', 'GET', `${BIZ}/dictionary?code=domain`);
    expect(domain.body.data.map((e: { dictKey: string; dictValue: string }) => `${e.dictKey}${e.dictValue}`)).toEqual([
      '1科学',
      '2社会',
      '3语言',
      '4健康',
      '5艺术',
    ]);
    for (const l of LOOKUPS) {
      const r = await call('teacher', 'GET', `${BIZ}/dictionary?code=${l.code}`);
      expect(r.body.data.map((e: { dictValue: string }) => e.dictValue)).toEqual(l.values);
    }
    // The platform tenant has them too; a second seed adds nothing.
    expect((await call('platform', 'GET', `${BIZ}/dictionary?code=ethnic`)).body.data).toHaveLength(57);
    const before = (await stored('dict_biz', '100001')).length;
    await seed(demo.t.database, { demo: true });
    expect((await stored('dict_biz', '100001')).length).toBe(before);
    // The lookups, the notices' categories (1 + 4 rows), the 《指南》 tree (1 + 5 + 11 + 32) and
    // the observation families' (3 + 14 rows) and the teaching families' (4 + 14 rows).
    expect(before).toBe(9 + LOOKUPS.reduce((n, l) => n + l.values.length, 0) + 5 + 49 + 17 + 18);
    // An unknown code is no entries; no code is the §5 message.
    expect((await call('teacher', 'GET', `${BIZ}/dictionary?code=nothing`)).body.data).toEqual([]);
    const none = await call('teacher', 'GET', `${BIZ}/dictionary?code=`);
    expect(none.status).toBe(400);
    expect(none.body.fields).toEqual([{ field: 'code', message: '请输入字典编号' }]);
  });

  it('adds a dictionary and its entries, lists, pages, reads, updates and answers trees', async () => {
    const parent = await add('admin', { code: 'size', dictValue: '尺码', sort: 20, isSealed: 0, remark: '衣服' });
    expect(parent).toMatchObject({ code: 'size', dictKey: '-1', parentId: '0' });
    // An entry takes its dictionary's code, whatever it was sent.
    const s = await add('admin', { code: 'other', parentId: parent.id, dictKey: 'S', dictValue: '小', sort: 1 });
    expect(s).toMatchObject({ code: 'size', dictKey: 'S', parentId: parent.id });
    const q = new URLSearchParams({ code: 'size', parentId: parent.id, dictKey: 'M', dictValue: '中', sort: '2' });
    const viaQuery = await call('admin', 'POST', `${BIZ}/submit?${q}`);
    expect(viaQuery.status, JSON.stringify(viaQuery.body)).toBe(200);
    expect(viaQuery.body).toMatchObject({ msg: '新增成功', data: { dictKey: 'M', sort: 2, isSealed: 0 } });
    const l = await add('admin', { code: 'size', parentId: parent.id, dictKey: 'L', dictValue: '大', sort: 0 });

    const detail = await call('admin', 'GET', `${BIZ}/detail?id=${s.id}`);
    expect(detail.body.data).toMatchObject({ id: s.id, dictValue: '小', remark: '' });
    const updated = await call(
      'admin',
      'POST',
      `${BIZ}/submit`,
      { id: s.id, code: 'size', parentId: parent.id, dictKey: 'S', dictValue: '小号', sort: 1 },
      'en',
    );
    expect(updated.body).toMatchObject({ msg: 'Updated', data: { id: s.id, dictValue: '小号' } });

    const children = await call('admin', 'GET', `${BIZ}/child-list?parentId=${parent.id}&size=10`);
    expect(children.body.data).toMatchObject({ total: 3, current: 1, size: 10 });
    expect(children.body.data.records.map((d: { dictKey: string }) => d.dictKey)).toEqual(['L', 'S', 'M']);
    const paged = await call('admin', 'GET', `${BIZ}/child-list?parentId=${parent.id}&size=10&current=2`);
    expect(paged.body.data).toMatchObject({ total: 3, records: [] });
    const searched = await call(
      'admin',
      'GET',
      `${BIZ}/child-list?parentId=${parent.id}&dictValue=${encodeURIComponent('小')}`,
    );
    expect(searched.body.data.records.map((d: { id: string }) => d.id)).toEqual([s.id]);
    const list = await call('admin', 'GET', `${BIZ}/list?code=size`);
    expect(list.body.data.total).toBe(4);
    const byName = await call('admin', 'GET', `${BIZ}/parent-list?dictValue=${encodeURIComponent('尺')}`);
    expect(byName.body.data.records.map((d: { id: string }) => d.id)).toEqual([parent.id]);
    const sel = await call('teacher', 'GET', `${BIZ}/dictionary?code=size`);
    expect(sel.body.data.map((d: { dictKey: string }) => d.dictKey)).toEqual(['L', 'S', 'M']);

    const tree = await call('admin', 'GET', `${BIZ}/tree?code=size`);
    expect(tree.status, JSON.stringify(tree.body)).toBe(200);
    expect(tree.body.data).toHaveLength(1);
    const root = tree.body.data[0];
    expect(Object.keys(root)).toEqual(['id', 'parentId', 'title', 'key', 'value', 'children', 'hasChildren']);
    expect(root).toMatchObject({ id: parent.id, parentId: '0', title: '尺码', key: parent.id, value: parent.id });
    expect(root.hasChildren).toBe(true);
    expect(root.children.map((c: { title: string }) => c.title)).toEqual(['大', '小号', '中']);
    // A leaf leaves `children` out.
    expect(root.children[0]).toEqual({
      id: l.id,
      parentId: parent.id,
      title: '大',
      key: l.id,
      value: l.id,
      hasChildren: false,
    });
    // No code (or an empty one) is the whole tree: every dictionary of the tenant.
    const whole = await call('admin', 'GET', `${BIZ}/tree?code=`);
    expect(whole.status).toBe(200);
    expect(whole.body.data.map((n: { title: string }) => n.title)).toContain('尺码');
    // The lookups, the notices' categories, the 《指南》 tree, the observation families' three, the
    // teaching families' four and 尺码.
    expect(whole.body.data).toHaveLength(19);
    expect(whole.body.data[0].children).toHaveLength(57);
    // Saber's `code=DICT` (which BladeX ignores) is the whole tree too.
    expect((await call('admin', 'GET', `${BIZ}/tree?code=DICT`)).body.data).toEqual(whole.body.data);
  });

  it('names every missing field with the §5 messages, in Chinese and in English', async () => {
    expect(await refused('admin', `${BIZ}/submit`, { remark: 'x' })).toEqual([
      { field: 'code', message: '请输入字典编号' },
      { field: 'dictValue', message: '请输入字典名称' },
      { field: 'sort', message: '请输入字典排序' },
    ]);
    const en = await call('admin', 'POST', `${BIZ}/submit`, { code: ' ', dictValue: '', sort: '' }, 'en');
    expect(en.body.fields).toEqual([
      { field: 'code', message: 'Please enter the dictionary code' },
      { field: 'dictValue', message: 'Please enter the dictionary name' },
      { field: 'sort', message: 'Please enter the dictionary order' },
    ]);
    for (const isSealed of [2, 'x', -1]) {
      expect(await refused('admin', `${BIZ}/submit`, { code: 'a', dictValue: 'a', sort: 1, isSealed })).toEqual([
        { field: 'isSealed', message: '请选择封存' },
      ]);
    }
    const sealedEn = await call(
      'admin',
      'POST',
      `${BIZ}/submit`,
      { code: 'a', dictValue: 'a', sort: 1, isSealed: 3 },
      'en',
    );
    expect(sealedEn.body.fields).toEqual([{ field: 'isSealed', message: 'Please choose whether it is sealed' }]);
    const parent = await add('admin', { code: 'keyless', dictValue: '无键', sort: 1 });
    expect(
      await refused('admin', `${BIZ}/submit`, {
        code: 'keyless',
        parentId: parent.id,
        dictValue: 'v',
        sort: 1,
      }),
    ).toEqual([{ field: 'dictKey', message: '请输入字典键值' }]);
    const noKeyEn = await call(
      'admin',
      'POST',
      `${BIZ}/submit`,
      { code: 'keyless', parentId: parent.id, dictKey: ' ', dictValue: 'v', sort: 1 },
      'en',
    );
    expect(noKeyEn.body.fields).toEqual([{ field: 'dictKey', message: 'Please enter the dictionary key' }]);
    expect((await stored('dict_biz', '100001')).filter((d) => d.parent_id === parent.id)).toEqual([]);
  });

  it('refuses a duplicate key under one dictionary and a duplicate dictionary code', async () => {
    const a = await add('admin', { code: 'dup_a', dictValue: '甲', sort: 1 });
    const b = await add('admin', { code: 'dup_b', dictValue: '乙', sort: 2 });
    const one = await add('admin', { code: 'dup_a', parentId: a.id, dictKey: '1', dictValue: '一', sort: 1 });
    const dup = await call('admin', 'POST', `${BIZ}/submit`, {
      code: 'dup_a',
      parentId: a.id,
      dictKey: '1',
      dictValue: '壹',
      sort: 2,
    });
    expect(dup.status).toBe(400);
    expect(dup.body.msg).toBe('当前字典键值已存在：1');
    const dupEn = await call(
      'admin',
      'POST',
      `${BIZ}/submit`,
      { code: 'dup_a', parentId: a.id, dictKey: '1', dictValue: '壹', sort: 2 },
      'en',
    );
    expect(dupEn.body.msg).toBe('This dictionary already has the key 1');
    // The same key under another dictionary is fine; keeping one's own key on update too.
    await add('admin', { code: 'dup_b', parentId: b.id, dictKey: '1', dictValue: '一', sort: 1 });
    await add('admin', { id: one.id, code: 'dup_a', parentId: a.id, dictKey: '1', dictValue: '一一', sort: 1 });
    const code = await call('admin', 'POST', `${BIZ}/submit`, { code: 'dup_a', dictValue: '重复', sort: 3 });
    expect(code.status).toBe(400);
    expect(code.body.msg).toBe('字典编号已存在：dup_a');
    // A lookup's code is taken as well.
    expect((await call('admin', 'POST', `${BIZ}/submit`, { code: 'ethnic', dictValue: '民族2', sort: 3 })).status).toBe(
      400,
    );
    // Renaming a dictionary's code passes it on to its entries.
    await add('admin', { id: b.id, code: 'dup_c', dictValue: '乙', sort: 2 });
    expect((await stored('dict_biz', '100001')).filter((d) => d.parent_id === b.id).map((d) => d.code)).toEqual([
      'dup_c',
    ]);
    // A dictionary moved under another takes its code, and so do its own entries.
    const m = await add('admin', { code: 'mv', dictValue: '移', sort: 5 });
    const k = await add('admin', { code: 'mv', parentId: m.id, dictKey: 'k', dictValue: '子', sort: 1 });
    await add('admin', { id: m.id, code: 'mv', parentId: a.id, dictKey: '2', dictValue: '移', sort: 5 });
    const moved = (await stored('dict_biz', '100001')).filter((d) => d.id === m.id || d.id === k.id);
    expect(moved.map((d) => d.code)).toEqual(['dup_a', 'dup_a']);
  });

  it('keeps sealed rows as they are: no update, no remove, nothing added under them', async () => {
    const ethnic = await ethnicId('100001');
    const han = (await stored('dict_biz', '100001')).find(
      (d) => d.parent_id === ethnic && d.dict_key === '1',
    ) as Stored;
    const update = await call('admin', 'POST', `${BIZ}/submit`, {
      id: ethnic,
      code: 'ethnic',
      dictValue: '改名',
      sort: 1,
      isSealed: 0,
    });
    expect(update.status).toBe(400);
    expect(update.body.msg).toBe(`已封存的数据不能修改或删除：${ethnic}`);
    const updateEn = await call(
      'admin',
      'POST',
      `${BIZ}/submit`,
      { id: han.id, code: 'ethnic', parentId: ethnic, dictKey: '1', dictValue: 'x', sort: 1 },
      'en',
    );
    expect(updateEn.body.msg).toBe(`Sealed records cannot be changed or deleted: ${han.id}`);
    const remove = await call('admin', 'POST', `${BIZ}/remove?ids=${han.id}`);
    expect(remove.status).toBe(400);
    expect(remove.body.msg).toContain(han.id);
    const under = await call('admin', 'POST', `${BIZ}/submit`, {
      code: 'ethnic',
      parentId: ethnic,
      dictKey: '58',
      dictValue: '新',
      sort: 58,
    });
    expect(under.status).toBe(400);
    expect(under.body.msg).toBe(`上级已封存，不能在其下新增或移入数据：${ethnic}`);
    const rows = await stored('dict_biz', '100001');
    expect(rows.find((d) => d.id === ethnic)).toMatchObject({ dict_value: '民族', is_sealed: 1, is_deleted: 0 });
    expect(rows.find((d) => d.id === han.id)).toMatchObject({ dict_value: '汉族', is_deleted: 0 });
    expect(rows.filter((d) => d.parent_id === ethnic)).toHaveLength(57);
    // A row a tenant seals itself is sealed as well.
    const own = await add('admin', { code: 'own_sealed', dictValue: '自封', sort: 9, isSealed: 1 });
    expect((await call('admin', 'POST', `${BIZ}/remove?ids=${own.id}`)).status).toBe(400);
  });

  it('removes a dictionary only with its entries (all or nothing), and refuses a parent that makes a cycle', async () => {
    const p = await add('admin', { code: 'rm_p', dictValue: '删', sort: 1 });
    const c1 = await add('admin', { code: 'rm_p', parentId: p.id, dictKey: '1', dictValue: '一', sort: 1 });
    const c2 = await add('admin', { code: 'rm_p', parentId: p.id, dictKey: '2', dictValue: '二', sort: 2 });
    const alone = await call('admin', 'POST', `${BIZ}/remove?ids=${p.id}`);
    expect(alone.status).toBe(400);
    expect(alone.body.msg).toBe(`请先删除子节点（或一并删除）：${p.id}`);
    const partly = await call('admin', 'POST', `${BIZ}/remove?ids=${p.id},${c1.id}`, undefined, 'en');
    expect(partly.body.msg).toBe(`Delete the children first (or together with them): ${p.id}`);
    expect((await stored('dict_biz', '100001')).filter((d) => d.is_deleted && d.code === 'rm_p')).toEqual([]);
    // An entry under the entry: the parent cannot move under its own child.
    const cycle = await call('admin', 'POST', `${BIZ}/submit`, {
      id: p.id,
      code: 'rm_p',
      parentId: c1.id,
      dictKey: 'x',
      dictValue: '删',
      sort: 1,
    });
    expect(cycle.status).toBe(400);
    expect(cycle.body.msg).toBe('上级不能是自己或自己的下级');
    const all = await call('admin', 'POST', `${BIZ}/remove`, { ids: `${c2.id},${p.id},${c1.id}` });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.msg).toBe('删除成功');
    const rows = (await stored('dict_biz', '100001')).filter((d) => d.code === 'rm_p');
    expect(rows.map((d) => d.is_deleted)).toEqual([1, 1, 1]);
    expect((await call('admin', 'GET', `${BIZ}/dictionary?code=rm_p`)).body.data).toEqual([]);
    // A removed code is free again.
    await add('admin', { code: 'rm_p', dictValue: '再来', sort: 1 });
  });

  it('reads empty query parameters as absent; child-list needs a parentId', async () => {
    const all = (await call('admin', 'GET', `${BIZ}/list?size=200`)).body.data.total;
    const empty = await call('admin', 'GET', `${BIZ}/list?code=&dictValue=&current=&size=&createTime_dategt=`);
    expect(empty.status, JSON.stringify(empty.body)).toBe(200);
    expect(empty.body.data).toMatchObject({ total: all, size: 10, current: 1 });
    const parents = await call('admin', 'GET', `${BIZ}/parent-list?code=&dictValue=`);
    expect(parents.status).toBe(200);
    const noParent = await call('admin', 'GET', `${BIZ}/child-list?parentId=`);
    expect(noParent.status).toBe(400);
    expect(noParent.body.fields.map((f: { field: string }) => f.field)).toEqual(['parentId']);
    // LIKE's wildcards are text.
    expect((await call('admin', 'GET', `${BIZ}/list?code=%25`)).body.data.total).toBe(0);
  });

  it('keeps other tenants’ business dictionaries out of reach: reads, updates, removes and children change nothing', async () => {
    const theirs = await add('platform', { code: 'platform_only', dictValue: '平台', sort: 1 });
    const theirEthnic = await ethnicId('000000');
    expect((await call('admin', 'GET', `${BIZ}/detail?id=${theirs.id}`)).status).toBe(404);
    const update = await call('admin', 'POST', `${BIZ}/submit`, {
      id: theirs.id,
      code: 'x',
      dictValue: '篡改',
      sort: 1,
    });
    expect(update.status).toBe(404);
    const remove = await call('admin', 'POST', `${BIZ}/remove?ids=${theirs.id}`);
    expect(remove.status).toBe(400);
    expect(remove.body.msg).toBe(`以下编号不存在或不在您的数据权限内，未删除任何数据：${theirs.id}`);
    const child = await call('admin', 'POST', `${BIZ}/submit`, {
      code: 'x',
      parentId: theirs.id,
      dictKey: '1',
      dictValue: '潜入',
      sort: 1,
    });
    expect(child.status).toBe(400);
    expect(child.body.msg).toBe(`上级不存在：${theirs.id}`);
    expect((await call('admin', 'GET', `${BIZ}/child-list?parentId=${theirEthnic}`)).body.data.total).toBe(0);
    expect((await call('admin', 'GET', `${BIZ}/dictionary?code=platform_only`)).body.data).toEqual([]);
    const rows = await stored('dict_biz', '000000');
    expect(rows.find((d) => d.id === theirs.id)).toMatchObject({ dict_value: '平台', is_deleted: 0 });
    expect(rows.filter((d) => d.parent_id === theirs.id)).toEqual([]);
    expect((await stored('dict_biz', '100001')).some((d) => d.dict_value === '潜入' || d.dict_value === '篡改')).toBe(
      false,
    );
  });

  it('system dictionaries are the platform’s: it writes them, every signed-in user reads their entries', async () => {
    const sex = await add('platform', { code: 'sex', dictValue: '性别', sort: 1, isSealed: 0 }, SYS);
    await add('platform', { code: 'sex', parentId: sex.id, dictKey: '1', dictValue: '男', sort: 1 }, SYS);
    await add('platform', { code: 'sex', parentId: sex.id, dictKey: '2', dictValue: '女', sort: 2 }, SYS);
    // 性别 and the workflow's 流程类型 (its flow routes: the flow context seeds it).
    expect((await call('platform', 'GET', `${SYS}/parent-list`)).body.data.total).toBe(2);
    expect((await call('platform', 'GET', `${SYS}/child-list?parentId=${sex.id}`)).body.data.total).toBe(2);
    expect(
      (await call('platform', 'GET', `${SYS}/tree`)).body.data.find((n: { title: string }) => n.title === '性别'),
    ).toMatchObject({
      title: '性别',
      hasChildren: true,
    });
    expect((await call('platform', 'GET', `${SYS}/detail?id=${sex.id}`)).body.data.code).toBe('sex');
    expect((await call('platform', 'GET', `${SYS}/list?code=sex`)).body.data.total).toBe(3);
    expect((await call('platform', 'GET', `${SYS}/tree?code=nothing`)).body.data).toEqual([]);
    const unknown = await add(
      'platform',
      { code: 'sex', parentId: sex.id, dictKey: '9', dictValue: '未知', sort: 9 },
      SYS,
    );
    const removed = await call('platform', 'POST', `${SYS}/remove?ids=${unknown.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    for (const who of ['teacher', 'admin']) {
      const r = await call(who, 'GET', `${SYS}/dictionary?code=sex`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data.map((d: { dictKey: string; tenantId: string }) => `${d.tenantId}:${d.dictKey}`)).toEqual([
        '000000:1',
        '000000:2',
      ]);
    }
    // A tenant's administrator has no system-dictionary screen: its list and writes are 403.
    for (const [method, url] of [
      ['GET', `${SYS}/list`],
      ['GET', `${SYS}/tree`],
      ['POST', `${SYS}/submit?code=t&dictValue=t&sort=1`],
      ['POST', `${SYS}/remove?ids=${sex.id}`],
    ] as const)
      expect((await call('admin', method, url)).status, `${method} ${url}`).toBe(403);
    const rows = await stored('dict', '000000');
    expect(rows.filter((d) => !d.is_deleted && d.code === 'sex')).toHaveLength(3);
    expect(await stored('dict', '100001')).toEqual([]);
  });

  it('is the administrators’ screen: a teacher gets 403 on its list and writes', async () => {
    const ethnic = await ethnicId('100001');
    const [mine] = (await stored('dict_biz', '100001')).filter((d) => !d.is_sealed && !d.is_deleted);
    for (const [method, url] of [
      ['GET', `${BIZ}/list`],
      ['GET', `${BIZ}/parent-list`],
      ['GET', `${BIZ}/child-list?parentId=${ethnic}`],
      ['GET', `${BIZ}/tree`],
      ['GET', `${BIZ}/detail?id=${ethnic}`],
      ['POST', `${BIZ}/submit?code=teacher&dictValue=t&sort=1`],
      ['POST', `${BIZ}/submit?id=${mine?.id}&code=teacher&dictValue=t&sort=1`],
      ['POST', `${BIZ}/remove?ids=${mine?.id}`],
    ] as const)
      expect((await call('teacher', method, url)).status, `${method} ${url}`).toBe(403);
    const rows = await stored('dict_biz', '100001');
    expect(rows.some((d) => d.code === 'teacher')).toBe(false);
    expect(rows.find((d) => d.id === mine?.id)).toMatchObject({ dict_value: mine?.dict_value, is_deleted: 0 });
  });

  it('a tenant created through the API starts with the lookups', async () => {
    const added = await call('platform', 'POST', '/api/blade-system/tenant/submit', {
      tenantName: '字典幼儿园',
      accountNumber: 5,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const { tenantId, adminPassword } = added.body.data as { tenantId: string; adminPassword: string };
    demo.tokens.fresh = await accessToken(demo.app, tenantId, 'admin', adminPassword);
    const ethnic = await call('fresh', 'GET', `${BIZ}/dictionary?code=ethnic`);
    expect(ethnic.status, JSON.stringify(ethnic.body)).toBe(200);
    expect(ethnic.body.data).toHaveLength(57);
    expect(ethnic.body.data[0]).toMatchObject({ tenantId, dictValue: '汉族', isSealed: 1 });
    expect((await call('fresh', 'GET', `${BIZ}/parent-list`)).body.data.total).toBe(18);
    // Its own rows only: nothing the demo kindergarten added.
    expect((await call('fresh', 'GET', `${BIZ}/dictionary?code=size`)).body.data).toEqual([]);
  });
});
