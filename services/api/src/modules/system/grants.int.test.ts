import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { testRedisUrl } from '@sprout/core/testing/services';
import { bladeAuth, type FastifyInstance, testApp, testConfig, tokenFor } from '../../testing';
import { uniquePrefix } from '../auth/fixtures';

/**
 * Grants on two replicas (PostgreSQL + Redis): a change made through one replica is in
 * force on the very next request to either; bad grants are clear 400s that write nothing.
 */
describe('grants across replicas, and bad input', () => {
  let t: TestDatabase;
  let a: FastifyInstance;
  let b: FastifyInstance;
  const T = '100001';
  let config: ReturnType<typeof testConfig>;
  let admin: string;
  let platform: string;
  const ids: Record<string, string> = {};
  let studentMenu: string;
  let studentApi: string[];
  let allScope: string;
  let ownScope: string;

  const call = async (
    app: FastifyInstance,
    token: string,
    method: 'GET' | 'POST',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const r = await app.inject({
      method,
      url,
      headers: { ...bladeAuth(token), ...headers },
      ...(payload ? { payload: payload as object } : {}),
    });
    return { status: r.statusCode, body: r.json() };
  };
  const students = (app: FastifyInstance, token: string) =>
    call(app, token, 'GET', '/api/student/student/listStudents');
  const keys = async (roleId: string) =>
    (await call(a, admin, 'GET', `/api/blade-system/menu/role-tree-keys?roleIds=${roleId}`)).body.data;

  /** A new role with the children screen and a data scope, and a user holding it. */
  async function grantedUser(dataScopeId: string) {
    const role = await call(a, admin, 'POST', '/api/blade-system/role/submit', {
      roleName: '测试角色',
      roleAlias: `r${nextId()}`,
    });
    const roleId = role.body.data.id as string;
    const g = await call(a, admin, 'POST', '/api/blade-system/role/grant', {
      roleIds: [roleId],
      menuIds: [studentMenu],
      dataScopeIds: [dataScopeId],
      apiScopeIds: studentApi,
    });
    expect(g.status, JSON.stringify(g.body)).toBe(200);
    const userId = nextId();
    await inSystem(t.database, (trx) =>
      trx
        .insertInto('app_user')
        .values({ tenant_id: T, id: userId, account: `g${userId}`, password_hash: 'x' })
        .execute(),
    );
    expect((await call(a, admin, 'POST', `/api/blade-user/grant?userIds=${userId}&roleIds=${roleId}`)).status).toBe(
      200,
    );
    return { roleId, userId, token: tokenFor(config, { tenant_id: T, user_id: userId }) };
  }

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    const env = {
      REDIS_URL: await testRedisUrl(),
      KV_PREFIX: uniquePrefix(),
      JWT_SECRET: `test-${randomBytes(24).toString('hex')}`,
    };
    config = testConfig(env);
    ({ app: a } = await testApp(t.database, { config }));
    ({ app: b } = await testApp(t.database, { config: testConfig(env) }));
    await inSystem(t.database, async (trx) => {
      for (const u of await trx.selectFrom('app_user').select(['tenant_id', 'id', 'account']).execute())
        ids[`${u.tenant_id}:${u.account}`] = String(u.id);
      const menu = await trx.selectFrom('menu').select('id').where('code', '=', 'student').executeTakeFirstOrThrow();
      studentMenu = String(menu.id);
      studentApi = (await trx.selectFrom('scope_api').select('id').where('menu_id', '=', menu.id).execute()).map((x) =>
        String(x.id),
      );
      const scope = async (code: string) =>
        String((await trx.selectFrom('scope_data').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id);
      allScope = await scope('student_all');
      ownScope = await scope('student_own');
    });
    admin = tokenFor(config, { tenant_id: T, user_id: ids[`${T}:admin`] as string });
    platform = tokenFor(config, { tenant_id: '000000', user_id: ids['000000:admin'] as string });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await t?.drop();
  });

  it('a removed role grant is refused on the very next request, on both replicas', async () => {
    const u = await grantedUser(allScope);
    // Both replicas cache the user's permissions.
    expect((await students(a, u.token)).status).toBe(200);
    expect((await students(b, u.token)).status).toBe(200);
    // Through replica A: the role keeps the screen but loses its API scopes.
    const g = await call(a, admin, 'POST', '/api/blade-system/role/grant', {
      roleIds: [u.roleId],
      menuIds: [studentMenu],
      dataScopeIds: [allScope],
    });
    expect(g.status).toBe(200);
    expect(g.body.msg).toBe('授权成功');
    const onB = await students(b, u.token);
    expect(onB.status).toBe(403);
    expect(onB.body).toMatchObject({ code: 403, success: false, errorCode: 'forbidden', msg: '没有权限执行此操作' });
    expect((await students(a, u.token)).status).toBe(403);
  });

  it('a removed user grant is refused on the very next request on the other replica', async () => {
    const u = await grantedUser(allScope);
    expect((await students(b, u.token)).status).toBe(200);
    expect((await call(a, admin, 'POST', `/api/blade-user/grant?userIds=${u.userId}&roleIds=`)).status).toBe(200);
    expect((await students(b, u.token)).status).toBe(403);
    const menus = await call(b, u.token, 'GET', '/api/blade-system/menu/routes');
    expect(menus.body.data).toEqual([]);
  });

  it('a narrowed data scope narrows the next list on the other replica', async () => {
    const u = await grantedUser(allScope);
    expect((await students(b, u.token)).body.data.total).toBe(100);
    await call(a, admin, 'POST', '/api/blade-system/role/grant', {
      roleIds: [u.roleId],
      menuIds: [studentMenu],
      dataScopeIds: [ownScope],
      apiScopeIds: studentApi,
    });
    expect((await students(b, u.token)).body.data.total).toBe(0);
  });

  it('a removed role takes its grants with it', async () => {
    const u = await grantedUser(allScope);
    expect((await students(b, u.token)).status).toBe(200);
    const r = await call(a, admin, 'POST', `/api/blade-system/role/remove?ids=${u.roleId}`);
    expect(r.status).toBe(200);
    expect(r.body.msg).toBe('删除成功');
    expect((await students(b, u.token)).status).toBe(403);
    expect((await call(a, admin, 'GET', `/api/blade-system/role/detail?id=${u.roleId}`)).status).toBe(404);
  });

  it('caches permissions, and clear-cache drops the caller’s on every replica', async () => {
    const u = await grantedUser(allScope);
    expect((await students(a, u.token)).status).toBe(200);
    expect((await students(b, u.token)).status).toBe(200);
    // Behind the API's back (no broadcast): the cached answer stands until cleared.
    await inSystem(t.database, (trx) => trx.deleteFrom('user_role').where('user_id', '=', u.userId).execute());
    expect((await students(b, u.token)).status).toBe(200);
    const cleared = await call(a, u.token, 'GET', '/api/blade-auth/oauth/clear-cache');
    expect(cleared.status).toBe(200);
    expect((await students(b, u.token)).status).toBe(403);
    expect((await students(a, u.token)).status).toBe(403);
  });

  describe('bad input: a clear 400 and nothing written', () => {
    it('granting an unknown menu id', async () => {
      const u = await grantedUser(allScope);
      const before = await keys(u.roleId);
      const r = await call(a, admin, 'POST', '/api/blade-system/role/grant', {
        roleIds: [u.roleId],
        menuIds: [studentMenu, '999999999'],
        dataScopeIds: [],
        apiScopeIds: [],
      });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        code: 400,
        success: false,
        errorCode: 'bad_request',
        msg: '菜单不存在：999999999',
      });
      expect(await keys(u.roleId)).toEqual(before);
      expect((await students(b, u.token)).status).toBe(200);
      const en = await call(
        a,
        admin,
        'POST',
        '/api/blade-system/role/grant',
        { roleIds: [u.roleId], menuIds: ['999999999'] },
        { 'accept-language': 'en' },
      );
      expect(en.body.msg).toBe('No such menus: 999999999');
    });

    it('granting to a role of another tenant', async () => {
      const otherRole = await inSystem(t.database, async (trx) => {
        const role = await trx
          .selectFrom('role')
          .select('id')
          .where('tenant_id', '=', '000000')
          .where('role_alias', '=', 'teacher')
          .executeTakeFirstOrThrow();
        return String(role.id);
      });
      const count = () =>
        inSystem(
          t.database,
          async (trx) =>
            (
              await trx
                .selectFrom('role_menu')
                .select('menu_id')
                .where('tenant_id', '=', '000000')
                .where('role_id', '=', otherRole)
                .execute()
            ).length,
        );
      const before = await count();
      const r = await call(a, admin, 'POST', '/api/blade-system/role/grant', {
        roleIds: [otherRole],
        menuIds: [studentMenu],
      });
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe(`角色不存在：${otherRole}`);
      expect(await count()).toBe(before);
      // Nor may its users be given roles here.
      const g = await call(
        a,
        admin,
        'POST',
        `/api/blade-user/grant?userIds=${ids['000000:admin']}&roleIds=${otherRole}`,
      );
      expect(g.status).toBe(400);
    });

    it('granting a platform menu outside the platform tenant', async () => {
      const u = await grantedUser(allScope);
      const tenantMenu = await inSystem(t.database, async (trx) =>
        String((await trx.selectFrom('menu').select('id').where('code', '=', 'tenant').executeTakeFirstOrThrow()).id),
      );
      const before = await keys(u.roleId);
      const r = await call(a, admin, 'POST', '/api/blade-system/role/grant', {
        roleIds: [u.roleId],
        menuIds: [tenantMenu],
      });
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe('平台菜单只能在平台租户内授权：租户管理');
      expect(await keys(u.roleId)).toEqual(before);
    });

    it('granting what the granter does not hold', async () => {
      // A deputy who may grant roles and holds the children screen, nothing else.
      const grantMenus = await inSystem(t.database, async (trx) =>
        (
          await trx
            .selectFrom('menu')
            .select(['id', 'code'])
            .where('code', 'in', ['role', 'role_grant', 'student'])
            .execute()
        ).map((m) => String(m.id)),
      );
      const grantApi = await inSystem(t.database, async (trx) =>
        (await trx.selectFrom('scope_api').select('id').where('menu_id', 'in', grantMenus).execute()).map((x) =>
          String(x.id),
        ),
      );
      const role = await call(a, admin, 'POST', '/api/blade-system/role/submit', {
        roleName: '副管理员',
        roleAlias: 'deputy',
      });
      await call(a, admin, 'POST', '/api/blade-system/role/grant', {
        roleIds: [role.body.data.id],
        menuIds: grantMenus,
        apiScopeIds: grantApi,
        dataScopeIds: [allScope],
      });
      const deputyId = nextId();
      await inSystem(t.database, async (trx) => {
        await trx
          .insertInto('app_user')
          .values({ tenant_id: T, id: deputyId, account: 'deputy', password_hash: 'x' })
          .execute();
        await trx
          .insertInto('user_role')
          .values({ tenant_id: T, user_id: deputyId, role_id: role.body.data.id })
          .execute();
      });
      const deputy = tokenFor(config, { tenant_id: T, user_id: deputyId });
      const u = await grantedUser(allScope);
      const userMenu = await inSystem(t.database, async (trx) =>
        String((await trx.selectFrom('menu').select('id').where('code', '=', 'user').executeTakeFirstOrThrow()).id),
      );
      const before = await keys(u.roleId);
      const r = await call(b, deputy, 'POST', '/api/blade-system/role/grant', {
        roleIds: [u.roleId],
        menuIds: [userMenu],
      });
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe('不能授予您自己没有的权限：用户管理');
      expect(await keys(u.roleId)).toEqual(before);
      // What the deputy holds, the deputy may grant.
      const ok = await call(b, deputy, 'POST', '/api/blade-system/role/grant', {
        roleIds: [u.roleId],
        menuIds: [studentMenu],
        apiScopeIds: studentApi,
        dataScopeIds: [allScope],
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      // The grant tree offers exactly that.
      const tree = await call(b, deputy, 'GET', '/api/blade-system/menu/grant-tree');
      const titles = JSON.stringify(tree.body.data.menu);
      expect(titles).toContain('幼儿信息');
      expect(titles).not.toContain('用户管理');
    });

    it('unknown scope ids and roles; the menus above scopes (as Saber sends them) are ignored', async () => {
      const u = await grantedUser(allScope);
      const before = await keys(u.roleId);
      const bad = await call(a, admin, 'POST', '/api/blade-system/role/grant', {
        roleIds: [u.roleId],
        dataScopeIds: ['123456789'],
      });
      expect(bad.body.msg).toBe('数据权限不存在：123456789');
      const badApi = await call(a, admin, 'POST', '/api/blade-system/role/grant', {
        roleIds: [u.roleId],
        apiScopeIds: ['123456789'],
      });
      expect(badApi.body.msg).toBe('接口权限不存在：123456789');
      const badRole = await call(a, admin, 'POST', '/api/blade-system/role/grant', { roleIds: ['123456789'] });
      expect(badRole.body.msg).toBe('角色不存在：123456789');
      const badShape = await call(a, admin, 'POST', '/api/blade-system/role/grant', { roleIds: 'x,1' });
      expect(badShape.status).toBe(400);
      expect(badShape.body.errorCode).toBe('validation_failed');
      expect(await keys(u.roleId)).toEqual(before);
      const withParents = await call(a, admin, 'POST', '/api/blade-system/role/grant', {
        roleIds: u.roleId,
        menuIds: studentMenu,
        dataScopeIds: `${studentMenu},${allScope}`,
        apiScopeIds: [studentMenu, ...studentApi].join(','),
      });
      expect(withParents.status, JSON.stringify(withParents.body)).toBe(200);
      expect((await keys(u.roleId)).dataScope).toEqual([allScope]);
    });

    it('a cycle in the dept tree', async () => {
      const tree = await call(a, admin, 'GET', '/api/blade-system/dept/list');
      const campus = tree.body.data[0];
      const child = campus.children[0];
      const r = await call(a, admin, 'POST', '/api/blade-system/dept/submit', {
        id: campus.id,
        parentId: child.id,
        deptName: campus.deptName,
        deptCategory: 1,
      });
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe('上级机构不能是它自己或它的下级');
      const self = await call(a, admin, 'POST', '/api/blade-system/dept/submit', {
        id: child.id,
        parentId: child.id,
        deptName: child.deptName,
      });
      expect(self.status).toBe(400);
      expect((await call(a, admin, 'GET', '/api/blade-system/dept/list')).body.data).toEqual(tree.body.data);
    });
  });

  it('lets the platform edit the catalogue; every tenant sees it on the next request', async () => {
    const teacher = tokenFor(config, { tenant_id: T, user_id: ids[`${T}:teacher1`] as string });
    const before = await call(b, teacher, 'GET', '/api/blade-system/menu/buttons');
    expect(JSON.stringify(before.body.data)).toContain('student_add');
    const button = await call(a, platform, 'GET', '/api/blade-system/menu/lazy-list?code=student_add');
    expect(button.status).toBe(200);
    const id = button.body.data.length ? button.body.data[0].id : undefined;
    const list = await call(a, platform, 'GET', '/api/blade-system/menu/list?code=student_add');
    const found = id ?? list.body.data[0].id;
    const removed = await call(a, platform, 'POST', `/api/blade-system/menu/remove?ids=${found}`);
    expect(removed.status).toBe(200);
    const after = await call(b, teacher, 'GET', '/api/blade-system/menu/buttons');
    expect(JSON.stringify(after.body.data)).not.toContain('student_add');
    const save = await call(b, teacher, 'POST', '/api/student/student/saveStudent', {
      name: '新同学',
      gender: 1,
      classId: '1',
    });
    expect(save.status).toBe(403);
    // A tenant cannot change the catalogue.
    expect((await call(a, admin, 'POST', '/api/blade-system/menu/remove', undefined)).status).toBe(403);
  });
});
