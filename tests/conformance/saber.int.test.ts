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
});
