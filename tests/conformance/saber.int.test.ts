import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { type FastifyInstance, testApp } from '../../services/api/src/testing';
import { up as bladexMenuPaths } from '../../migrations/20261125_0017_bladex_menu_paths';
import {
  type Caller,
  lazyLevel,
  type Node,
  ok,
  page,
  refused,
  saberButtonCodes,
  signedIn,
  treeNodes,
  bladeTree,
} from './support';

/**
 * Issue 16: a stock BladeX 2.8 Saber front end keeps working against Sprout. Each console
 * family that exists is called with the request shapes Saber sends — a POST's parameters in
 * its query string, comma-separated ids, every search field sent empty, `current`/`size` —
 * and its answers are checked against BladeX's shapes (envelope, page, tree nodes). One
 * seeded database and app for the whole file.
 */
describe('Saber’s calls, console family by console family', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  /** The platform administrator (000000) and the demo kindergarten's administrator (100001). */
  let platform: Caller;
  let admin: Caller;
  const UNKNOWN = ['900000000000000001', '900000000000000002'];

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    ({ app } = await testApp(t.database));
    platform = await signedIn(app, '000000', 'admin', 'admin');
    admin = await signedIn(app, '100001', 'admin', 'sprout123');
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('user: the page with empty search fields and deptId, detail, the form’s selects, remove by ids in the query', async () => {
    // Saber sends every search field, filled or not: empty means no filter.
    const all = page<{ id: string; account: string }>(
      await admin.get('/api/blade-user/page?current=1&size=10&account=&realName=&deptId='),
      1,
      10,
      'user page',
    );
    expect(all.total).toBeGreaterThan(1);
    const depts = treeNodes(ok<Node[]>(await admin.get('/api/blade-system/dept/tree?tenantId='), 'dept tree'));
    const inRoot = page(await admin.get(`/api/blade-user/page?current=1&size=100&deptId=${depts[0]?.id}`), 1, 100);
    expect(inRoot.total).toBe(all.total);
    const first = all.records[0] as { id: string; account: string };
    expect(ok(await admin.get(`/api/blade-user/detail?id=${first.id}`))).toMatchObject({ account: first.account });
    // The user form's dictionaries: roles, posts and the tenant.
    treeNodes(ok<Node[]>(await admin.get('/api/blade-system/role/tree?tenantId=')));
    const posts = ok<Array<Record<string, unknown>>>(await admin.get('/api/blade-system/post/select?tenantId='));
    expect(posts.length).toBeGreaterThan(0);
    expect(Object.keys(posts[0] ?? {})).toEqual(expect.arrayContaining(['id', 'postCode', 'postName', 'category']));
    expect(ok(await admin.get('/api/blade-system/tenant/select'))).toEqual([
      { id: '100001', tenantId: '100001', tenantName: expect.any(String) },
    ]);
    // Removing ids nobody has: a 400 naming them, nothing removed.
    refused(await admin.post(`/api/blade-user/remove?ids=${UNKNOWN.join(',')}`), 400, UNKNOWN);
  });

  it('dept: the tree list with empty filters, lazy levels, selects, add and remove by ids in the query', async () => {
    const tree = bladeTree(ok<Node[]>(await admin.get('/api/blade-system/dept/list?deptName=&fullName=')), [
      'deptName',
      'parentName',
    ]);
    const root = tree[0] as Node;
    expect(root.children?.length).toBeGreaterThan(0);
    const top = lazyLevel(ok<Node[]>(await admin.get('/api/blade-system/dept/lazy-list?parentId=&deptName=')), '0');
    expect(top.map((d) => d.id)).toEqual([root.id]);
    expect(top[0]?.hasChildren).toBe(true);
    const lazy = lazyLevel(
      ok<Node[]>(await admin.get(`/api/blade-system/dept/lazy-tree?parentId=${root.id}&tenantId=`)),
      root.id,
    );
    expect(lazy.map((d) => d.id)).toEqual((root.children ?? []).map((d) => d.id));
    for (const n of lazy) expect(['id', 'parentId', 'title', 'key', 'value', 'hasChildren']).toEqual(Object.keys(n));
    const added = ok<{ id: string }>(
      await admin.post('/api/blade-system/dept/submit', { parentId: root.id, deptName: '合同测试组', sort: 99 }),
    );
    const leaf = bladeTree(ok<Node[]>(await admin.get('/api/blade-system/dept/list'))).find((d) => d.id === added.id);
    expect(leaf).toMatchObject({ parentId: root.id, hasChildren: false });
    expect(leaf).not.toHaveProperty('children');
    ok(await admin.post(`/api/blade-system/dept/remove?ids=${added.id}`), 'dept remove');
    refused(await admin.get(`/api/blade-system/dept/detail?id=${added.id}`), 404);
  });

  it('post: the page with empty filters, select, add, remove by ids in the query', async () => {
    page(await admin.get('/api/blade-system/post/list?current=1&size=10&postCode=&postName=&category='), 1, 10);
    const saved = ok<{ id: string }>(
      await admin.post('/api/blade-system/post/submit', { postCode: 'contract_p', postName: '合同岗位', category: 3 }),
    );
    const select = ok<Array<{ id: string }>>(await admin.get('/api/blade-system/post/select?tenantId='));
    expect(select.map((p) => p.id)).toContain(saved.id);
    ok(await admin.post(`/api/blade-system/post/remove?ids=${saved.id}`), 'post remove');
    refused(await admin.post(`/api/blade-system/post/remove?ids=${saved.id},${UNKNOWN[0]}`), 400, [saved.id]);
  });

  it('role: the tree list, select tree, add with an empty parentId, grant as Saber sends it, remove', async () => {
    bladeTree(ok<Node[]>(await admin.get('/api/blade-system/role/list?roleName=&roleAlias=')), [
      'roleName',
      'roleAlias',
    ]);
    const grantable = ok<Record<string, Node[]>>(await admin.get('/api/blade-system/menu/grant-tree'));
    expect(Object.keys(grantable).sort()).toEqual(['apiScope', 'dataScope', 'menu']);
    const menus = treeNodes(grantable.menu ?? []);
    for (const k of ['dataScope', 'apiScope']) treeNodes(grantable[k] ?? []);
    const role = ok<{ id: string }>(
      await admin.post('/api/blade-system/role/submit', { parentId: '', roleName: '合同角色', roleAlias: 'contract' }),
    );
    // Saber's grant dialog: the role ids joined by commas, the checked keys as arrays.
    const menuIds = menus
      .filter((m) => !m.children)
      .map((m) => m.id)
      .slice(0, 3);
    ok(
      await admin.post('/api/blade-system/role/grant', {
        roleIds: role.id,
        menuIds,
        dataScopeIds: [],
        apiScopeIds: [],
      }),
    );
    const keys = ok<{ menu: string[] }>(await admin.get(`/api/blade-system/menu/role-tree-keys?roleIds=${role.id}`));
    expect(keys.menu).toEqual(expect.arrayContaining(menuIds));
    const select = treeNodes(ok<Node[]>(await admin.get('/api/blade-system/role/tree?tenantId=')));
    expect(select.find((r) => r.id === role.id)).toMatchObject({
      title: '合同角色',
      parentId: '0',
      hasChildren: false,
    });
    ok(await admin.post(`/api/blade-system/role/remove?ids=${role.id}`));
  });

  it('menu: routes and buttons as Saber reads them, the menu screen’s trees and lazy levels', async () => {
    const routes = bladeTree(ok<Node[]>(await platform.get('/api/blade-system/menu/routes')), [
      'code',
      'path',
      'source',
    ]);
    const byCode = new Map(routes.map((m) => [m.code, m]));
    // BladeX's standard paths and icons for the standard console.
    expect(byCode.get('user')).toMatchObject({ path: '/system/user', source: 'iconfont iconicon_principal' });
    expect(byCode.get('role')).toMatchObject({ path: '/authority/role', source: 'iconfont iconicon_boss' });
    expect(byCode.get('data_scope')).toMatchObject({ path: '/authority/datascope' });
    expect(byCode.get('region')).toMatchObject({ path: '/base/region' });
    expect(byCode.get('log_usual')).toMatchObject({ path: '/monitor/log/usual' });
    const buttons = ok<Node[]>(await admin.get('/api/blade-system/menu/buttons'));
    bladeTree(buttons, ['code', 'category']);
    // What Saber's store keeps: the add/edit/delete buttons show.
    expect(saberButtonCodes(buttons)).toEqual(
      expect.arrayContaining(['user_add', 'user_edit', 'user_delete', 'dept_add', 'post_delete', 'role_grant']),
    );
    const tops = ok<Array<Record<string, unknown>>>(await admin.get('/api/blade-system/menu/top-menu'));
    expect(Object.keys(tops[0] ?? {})).toEqual(['id', 'code', 'name', 'source', 'sort']);
    bladeTree(ok<Node[]>(await platform.get('/api/blade-system/menu/list?name=&code=&alias=')), ['code', 'name']);
    bladeTree(ok<Node[]>(await platform.get('/api/blade-system/menu/menu-list?name=')), ['code']);
    treeNodes(ok<Node[]>(await platform.get('/api/blade-system/menu/tree?tenantId=')));
    const level = lazyLevel(ok<Node[]>(await platform.get('/api/blade-system/menu/lazy-list?parentId=&name=')), '0');
    expect(level.find((m) => m.code === 'system')?.hasChildren).toBe(true);
    lazyLevel(ok<Node[]>(await platform.get('/api/blade-system/menu/lazy-menu-list?parentId=0&name=')), '0');
    refused(await platform.post(`/api/blade-system/menu/remove?ids=${UNKNOWN.join(',')}`), 400, UNKNOWN);
  });

  it('top menu: the page, add, menus granted by ids in the query, their keys and tree, remove', async () => {
    page(await platform.get('/api/blade-system/topmenu/list?current=1&size=10&name=&code='), 1, 10);
    const top = ok<{ id: string }>(
      await platform.post('/api/blade-system/topmenu/submit', { code: 'contract_top', name: '合同', sort: 9 }),
    );
    const grantable = ok<{ menu: Node[]; topMenu: Node[] }>(
      await platform.get('/api/blade-system/menu/grant-top-tree'),
    );
    expect(treeNodes(grantable.topMenu).map((x) => x.id)).toContain(top.id);
    const menus = treeNodes(grantable.menu);
    const two = menus.slice(0, 2).map((m) => m.id);
    ok(await platform.post(`/api/blade-system/topmenu/grant?topMenuIds=${top.id}&menuIds=${two.join(',')}`));
    const keys = ok<{ menu: string[] }>(
      await platform.get(`/api/blade-system/menu/top-tree-keys?topMenuIds=${top.id}`),
    );
    expect(keys.menu).toEqual(expect.arrayContaining(two));
    ok(await platform.post(`/api/blade-system/topmenu/remove?ids=${top.id}`));
  });

  for (const family of ['data-scope', 'api-scope'] as const)
    it(`${family}: the page with empty filters, detail, remove of unknown ids`, async () => {
      const p = page<{ id: string }>(
        await platform.get(`/api/blade-system/${family}/list?current=1&size=10&menuId=&scopeName=&resourceCode=`),
        1,
        10,
      );
      expect(p.total).toBeGreaterThan(0);
      const first = p.records[0] as { id: string };
      expect(ok(await platform.get(`/api/blade-system/${family}/detail?id=${first.id}`))).toMatchObject({
        id: first.id,
      });
      refused(await platform.post(`/api/blade-system/${family}/remove?ids=${UNKNOWN.join(',')}`), 400, UNKNOWN);
      refused(await admin.get(`/api/blade-system/${family}/list?current=1&size=10`), 403);
    });

  it('tenant: the page with empty filters, select, detail, setting by parameters in the query', async () => {
    const p = page<{ tenantId: string }>(
      await platform.get('/api/blade-system/tenant/list?current=1&size=10&tenantId=&tenantName='),
      1,
      10,
    );
    expect(p.records.map((x) => x.tenantId)).toEqual(expect.arrayContaining(['000000', '100001']));
    const select = ok<Array<{ tenantId: string }>>(await platform.get('/api/blade-system/tenant/select'));
    expect(select.map((x) => x.tenantId)).toEqual(p.records.map((x) => x.tenantId));
    expect(ok(await platform.get('/api/blade-system/tenant/detail?tenantId=100001'))).toMatchObject({
      tenantId: '100001',
    });
    ok(await platform.post('/api/blade-system/tenant/setting?ids=100001&accountNumber=-1&expireTime='));
    refused(await platform.post('/api/blade-system/tenant/remove?ids=999998,999999'), 400, ['999998', '999999']);
    refused(await admin.get('/api/blade-system/tenant/list?current=1&size=10'), 403);
  });

  it('an existing platform catalogue gets BladeX’s paths and icons (migration 0017), an administrator’s own edits kept', async () => {
    const menu = (code: string) =>
      inSystem(t.database, (trx) =>
        trx
          .selectFrom('menu')
          .select(['path', 'source'])
          .where('tenant_id', '=', '000000')
          .where('code', '=', code)
          .executeTakeFirstOrThrow(),
      );
    const set = (code: string, path: string, source: string) =>
      inSystem(t.database, (trx) =>
        trx
          .updateTable('menu')
          .set({ path, source })
          .where('tenant_id', '=', '000000')
          .where('code', '=', code)
          .execute(),
      );
    // As seeded before: the old paths and icons; the region screen edited by an administrator.
    await set('role', '/system/role', 'UserShield');
    await set('log_usual', '/log/usual', 'FileInfo');
    await set('region', '/my/region', 'Map');
    await inSystem(t.database, (trx) => bladexMenuPaths(trx as never));
    expect(await menu('role')).toEqual({ path: '/authority/role', source: 'iconfont iconicon_boss' });
    expect(await menu('log_usual')).toEqual({ path: '/monitor/log/usual', source: 'FileInfo' });
    expect(await menu('region')).toEqual({ path: '/my/region', source: 'Map' });
  });

  it('param: the page with empty search fields, add and update by parameters in the query, paging, remove by ids', async () => {
    const BASE = '/api/blade-system/param';
    const seeded = page<{ paramKey: string }>(
      await admin.get(`${BASE}/list?paramName=&paramKey=&current=1&size=10`),
      1,
      10,
      'param list',
    );
    expect(seeded.records.map((p) => p.paramKey)).toEqual(
      expect.arrayContaining(['plan.halfDay.layout', 'school.year', 'week.submitDeadline']),
    );
    const added = ok<Record<string, unknown>>(
      await admin.post(`${BASE}/submit?paramName=${encodeURIComponent('合同参数')}&paramKey=contract.p&paramValue=1`),
      'param submit',
    );
    expect(Object.keys(added).sort()).toEqual([
      'createTime',
      'id',
      'paramKey',
      'paramName',
      'paramValue',
      'remark',
      'tenantId',
    ]);
    expect(added).toMatchObject({ tenantId: '100001', paramName: '合同参数', paramKey: 'contract.p', remark: '' });
    const id = String(added.id);
    const found = page<{ id: string }>(
      await admin.get(`${BASE}/list?paramName=&paramKey=contract.&current=1&size=10`),
      1,
      10,
    );
    expect(found.records.map((p) => p.id)).toEqual([id]);
    const beyond = page(await admin.get(`${BASE}/list?paramName=&paramKey=&current=2&size=10`), 2, 10);
    expect([beyond.records.length, beyond.total]).toEqual([0, seeded.total + 1]);
    const updated = await admin.post(
      `${BASE}/submit?id=${id}&paramName=${encodeURIComponent('合同参数')}&paramKey=contract.p&paramValue=2`,
    );
    expect(ok(updated)).toMatchObject({ id, paramValue: '2' });
    expect(updated.body.msg).toBe('修改成功');
    expect(ok(await admin.get(`${BASE}/detail?id=${id}`))).toMatchObject({ id, paramValue: '2' });
    refused(await admin.post(`${BASE}/remove?ids=${id},${UNKNOWN[0]}`), 400, [UNKNOWN[0] as string]);
    const removed = await admin.post(`${BASE}/remove?ids=${id}`);
    expect(ok(removed)).toBeNull();
    expect(removed.body.msg).toBe('删除成功');
    refused(await admin.get(`${BASE}/detail?id=${id}`), 404);
  });

  it('dict and dict-biz: pages with empty search fields, trees, a dictionary and its entry added by query, the lookups', async () => {
    const DICT = '/api/blade-system/dict';
    page(await platform.get(`${DICT}/list?current=1&size=10&code=&dictValue=`), 1, 10, 'dict list');
    page(await platform.get(`${DICT}/parent-list?current=1&size=10&code=&dictValue=`), 1, 10, 'dict parent-list');
    refused(await admin.get(`${DICT}/list?current=1&size=10&code=&dictValue=`), 403);
    // A system dictionary and one entry, as Saber's forms send them: the fields in the query string.
    const dict = ok<{ id: string; parentId: string }>(
      await platform.post(
        `${DICT}/submit?code=contract_d&dictValue=${encodeURIComponent('合同字典')}&sort=1&parentId=`,
      ),
    );
    expect(dict.parentId).toBe('0');
    const entry = ok<{ id: string; code: string }>(
      await platform.post(
        `${DICT}/submit?parentId=${dict.id}&code=other&dictKey=1&dictValue=${encodeURIComponent('甲')}&sort=1`,
      ),
    );
    expect(entry.code).toBe('contract_d');
    const tree = treeNodes(ok<Node[]>(await platform.get(`${DICT}/tree?code=DICT`)));
    expect(tree.find((n) => n.id === dict.id)).toMatchObject({ title: '合同字典', hasChildren: true });
    expect(tree.find((n) => n.id === entry.id)).toMatchObject({ parentId: dict.id, title: '甲', hasChildren: false });
    const children = page<{ id: string }>(
      await platform.get(`${DICT}/child-list?parentId=${dict.id}&current=1&size=10&code=&dictValue=`),
      1,
      10,
    );
    expect(children.records.map((c) => c.id)).toEqual([entry.id]);
    refused(await platform.get(`${DICT}/child-list?parentId=&current=1&size=10`), 400, ['parentId']);
    // Any kindergarten user reads the platform's entries for a select.
    expect(ok(await admin.get(`${DICT}/dictionary?code=contract_d`))).toEqual([
      expect.objectContaining({ dictKey: '1', dictValue: '甲' }),
    ]);
    ok(await platform.post(`${DICT}/remove?ids=${dict.id},${entry.id}`), 'dict remove');
    expect(ok(await admin.get(`${DICT}/dictionary?code=contract_d`))).toEqual([]);

    // Business dictionaries: the tenant's own, with the spec's sealed lookups.
    const BIZ = '/api/blade-system/dict-biz';
    const ethnic = ok<Array<{ dictKey: string; dictValue: string; parentId: string }>>(
      await admin.get(`${BIZ}/dictionary?code=ethnic`),
    );
    expect(ethnic).toHaveLength(57);
    expect(ethnic.map((e) => e.dictKey)).toEqual(Array.from({ length: 57 }, (_, i) => String(i + 1)));
    expect([ethnic[0]?.dictValue, ethnic[55]?.dictValue, ethnic[56]?.dictValue]).toEqual(['汉族', '基诺族', '其他']);
    const parents = page<{ id: string; code: string }>(
      await admin.get(`${BIZ}/parent-list?current=1&size=10&code=&dictValue=`),
      1,
      10,
    );
    expect(parents.records.map((d) => d.code)).toEqual(expect.arrayContaining(['ethnic', 'yes_no', 'domain']));
    const ethnicDict = parents.records.find((d) => d.code === 'ethnic') as { id: string };
    const second = page(
      await admin.get(`${BIZ}/child-list?parentId=${ethnicDict.id}&current=2&size=50&dictValue=`),
      2,
      50,
    );
    expect([second.total, second.pages, second.records.length]).toEqual([57, 2, 7]);
    const bizTree = treeNodes(ok<Node[]>(await admin.get(`${BIZ}/tree?code=ethnic`)));
    expect(bizTree.find((n) => n.id === ethnicDict.id)?.children).toHaveLength(57);
    refused(await admin.post(`${BIZ}/remove?ids=${ethnicDict.id}`), 400, [ethnicDict.id]);
    expect(ok(await admin.get(`${BIZ}/dictionary?code=no_such_code`))).toEqual([]);
  });

  it('region: lazy provinces for any user, the page with empty search fields, detail, add and remove by query (platform)', async () => {
    const BASE = '/api/blade-system/region';
    const provinces = lazyLevel(ok<Node[]>(await admin.get(`${BASE}/lazy-tree?parentCode=00`)), '00');
    expect(provinces).toHaveLength(34);
    for (const n of provinces) {
      expect(Object.keys(n)).toEqual(['id', 'parentId', 'title', 'key', 'value', 'hasChildren']);
      expect([n.key, n.value]).toEqual([n.id, n.id]);
    }
    expect(provinces.find((p) => p.id === '110000')).toMatchObject({ title: '北京市', hasChildren: true });
    const empty = ok<Node[]>(await admin.get(`${BASE}/lazy-tree?parentCode=`));
    expect(empty.map((n) => n.id)).toEqual(provinces.map((n) => n.id));
    const cities = lazyLevel(ok<Node[]>(await admin.get(`${BASE}/lazy-tree?parentCode=440000`)), '440000');
    expect(cities.map((c) => c.title)).toContain('广州市');
    const list = page<Record<string, unknown>>(
      await admin.get(`${BASE}/list?current=1&size=10&code=&name=&parentCode=`),
      1,
      10,
    );
    expect(list.total).toBe(3800);
    expect(Object.keys(list.records[0] ?? {}).sort()).toEqual(
      ['code', 'createTime', 'id', 'name', 'parentCode', 'parentName', 'regionLevel', 'remark', 'sort'].sort(),
    );
    expect(ok(await admin.get(`${BASE}/detail?code=110000`))).toMatchObject({
      id: '110000',
      code: '110000',
      name: '北京市',
    });
    refused(await admin.post(`${BASE}/submit?code=99&name=x&parentCode=00`), 403);
    const province = ok<{ regionLevel: number }>(
      await platform.post(`${BASE}/submit?code=99&name=${encodeURIComponent('合同省')}&parentCode=&sort=1&remark=`),
    );
    const city = ok<{ regionLevel: number; parentCode: string }>(
      await platform.post(`${BASE}/submit?code=9901&name=${encodeURIComponent('合同市')}&parentCode=99&sort=1`),
    );
    expect([city.parentCode, city.regionLevel]).toEqual(['99', province.regionLevel + 1]);
    refused(await platform.post(`${BASE}/remove?ids=99`), 400, ['请先删除下级区划：99']);
    ok(await platform.post(`${BASE}/remove?ids=99,9901`), 'region remove');
    refused(await admin.get(`${BASE}/detail?code=99`), 404);
  });

  it('client: the page with empty search fields, secrets never in list or detail, add by query, reset, remove', async () => {
    const BASE = '/api/blade-system/client';
    refused(await admin.get(`${BASE}/list?current=1&size=10&clientId=`), 403);
    const added = ok<{ id: string; clientSecret: string }>(
      await platform.post(
        `${BASE}/submit?clientId=contract_c&authorizedGrantTypes=refresh_token,password&scope=all` +
          '&webServerRedirectUri=&accessTokenValidity=3600&refreshTokenValidity=7200&additionalInformation=&autoapprove=',
      ),
      'client submit',
    );
    expect(added.clientSecret).toHaveLength(32);
    const list = await platform.get(`${BASE}/list?current=1&size=10&clientId=`);
    const clients = page<{ id: string; clientId: string; clientSecret?: string }>(list, 1, 10);
    expect(clients.records.map((c) => c.clientId)).toEqual(expect.arrayContaining(['saber', 'contract_c']));
    for (const c of clients.records) expect(c.clientSecret ?? '******').toBe('******');
    expect(JSON.stringify(list.body)).not.toContain(added.clientSecret);
    expect(JSON.stringify(list.body)).not.toContain('saber_secret');
    const detail = await platform.get(`${BASE}/detail?id=${added.id}`);
    expect(Object.keys(ok<object>(detail)).sort()).toEqual(
      [
        'id',
        'tenantId',
        'clientId',
        'authorizedGrantTypes',
        'scope',
        'webServerRedirectUri',
        'accessTokenValidity',
        'refreshTokenValidity',
        'additionalInformation',
        'autoapprove',
        'createTime',
        'clientSecret',
      ].sort(),
    );
    expect(ok(detail)).toMatchObject({ clientId: 'contract_c', clientSecret: '******' });
    expect(JSON.stringify(detail.body)).not.toContain(added.clientSecret);
    const reset = ok<{ id: string; clientId: string; clientSecret: string }>(
      await platform.post(`${BASE}/reset-secret?id=${added.id}`),
    );
    expect(reset).toMatchObject({ id: added.id, clientId: 'contract_c' });
    expect(reset.clientSecret).not.toBe(added.clientSecret);
    expect(JSON.stringify((await platform.get(`${BASE}/detail?id=${added.id}`)).body)).not.toContain(
      reset.clientSecret,
    );
    const saber = clients.records.find((c) => c.clientId === 'saber') as { id: string };
    refused(await platform.post(`${BASE}/remove?ids=${saber.id}`), 400, ['saber']);
    ok(await platform.post(`${BASE}/remove?ids=${added.id}`), 'client remove');
    const after = page<{ clientId: string }>(
      await platform.get(`${BASE}/list?current=1&size=10&clientId=contract`),
      1,
      10,
    );
    expect(after.total).toBe(0);
  });
});
