import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { bladeAuth, type FastifyInstance, testApp, testConfig, tokenFor } from '../../testing';

/**
 * Data scopes on real PostgreSQL, end to end: roles are made and granted through the API,
 * and each scope type gives exactly the expected children in list, count and detail (an
 * out-of-scope id is a 404, so existence does not leak). Demo kindergarten: 4 classes of
 * 25 children; 小一班 and 小二班 in 小班组, 中一班 in 中班组, 大一班 in 大班组.
 */
describe('data scopes: all, own, own dept, dept and below, custom, own classes', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  const config = testConfig();
  const T = '100001';
  let admin: string;
  let platform: string;
  const dept: Record<string, string> = {};
  const clazz: Record<string, string> = {};
  const children: Record<string, string[]> = {};
  let everyone: string[];

  const call = async (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const r = await app.inject({
      method,
      url,
      headers: bladeAuth(token),
      ...(payload ? { payload: payload as object } : {}),
    });
    return { status: r.statusCode, body: r.json() };
  };

  /** A role granted the children screen (its API scopes) and exactly one data scope, and a user holding it. */
  async function userWithScope(scopeId: string, deptId: string | null) {
    const role = await call(admin, 'POST', '/api/blade-system/role/submit', {
      roleName: `范围${scopeId.slice(-4)}`,
      roleAlias: `scope_${nextId()}`,
    });
    expect(role.status).toBe(200);
    const ids = await inSystem(t.database, async (trx) => {
      const menu = await trx.selectFrom('menu').select('id').where('code', '=', 'student').executeTakeFirstOrThrow();
      const api = await trx.selectFrom('scope_api').select('id').where('menu_id', '=', menu.id).execute();
      return { menu: String(menu.id), api: api.map((a) => String(a.id)) };
    });
    const granted = await call(admin, 'POST', '/api/blade-system/role/grant', {
      roleIds: [role.body.data.id],
      menuIds: [ids.menu],
      dataScopeIds: [scopeId],
      apiScopeIds: ids.api,
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    const userId = nextId();
    await inSystem(t.database, (trx) =>
      trx
        .insertInto('app_user')
        .values({ tenant_id: T, id: userId, account: `u${userId}`, password_hash: 'x', dept_id: deptId })
        .execute(),
    );
    const g = await call(admin, 'POST', `/api/blade-user/grant?userIds=${userId}&roleIds=${role.body.data.id}`);
    expect(g.status).toBe(200);
    return { userId, token: tokenFor(config, { tenant_id: T, user_id: userId }) };
  }

  const scopeId = (code: string) =>
    inSystem(t.database, async (trx) =>
      String((await trx.selectFrom('scope_data').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id),
    );

  /** Every id the list shows (all pages of 200) and the total it reports. */
  async function listed(token: string) {
    const first = await call(token, 'GET', '/api/student/student/listStudents?size=200');
    expect(first.status).toBe(200);
    return {
      total: first.body.data.total as number,
      ids: (first.body.data.records as Array<{ id: string }>).map((s) => s.id).sort(),
    };
  }

  async function expectExactly(token: string, expected: string[]) {
    const { total, ids } = await listed(token);
    expect(total).toBe(expected.length);
    expect(ids).toEqual([...expected].sort());
    const all = await call(token, 'GET', '/api/student/student/listStudentsAll');
    expect((all.body.data as Array<{ id: string }>).map((s) => s.id).sort()).toEqual([...expected].sort());
    const inside = expected[0];
    if (inside) expect((await call(token, 'GET', `/api/student/student/detail?id=${inside}`)).status).toBe(200);
    const outside = everyone.find((id) => !expected.includes(id));
    if (outside) {
      const r = await call(token, 'GET', `/api/student/student/detail?id=${outside}`);
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ code: 404, errorCode: 'not_found' });
    }
  }

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    ({ app } = await testApp(t.database, { config }));
    await inSystem(t.database, async (trx) => {
      const users = await trx.selectFrom('app_user').select(['tenant_id', 'id', 'account']).execute();
      const id = (tenant: string, account: string) =>
        String(users.find((u) => u.tenant_id === tenant && u.account === account)?.id);
      admin = tokenFor(config, { tenant_id: T, user_id: id(T, 'admin') });
      platform = tokenFor(config, { tenant_id: '000000', user_id: id('000000', 'admin') });
      for (const d of await trx.selectFrom('dept').select(['id', 'dept_name']).where('tenant_id', '=', T).execute())
        dept[d.dept_name] = String(d.id);
      for (const c of await trx.selectFrom('clazz').select(['id', 'name']).where('tenant_id', '=', T).execute())
        clazz[c.name] = String(c.id);
      for (const s of await trx.selectFrom('student').select(['id', 'class_id']).where('tenant_id', '=', T).execute()) {
        const name = Object.keys(clazz).find((k) => clazz[k] === String(s.class_id)) as string;
        children[name] = [...(children[name] ?? []), String(s.id)];
      }
    });
    everyone = Object.values(children).flat();
    expect(everyone).toHaveLength(100);
    // A dept below 小班组; 小二班 moves into it (through the API), so "dept and below" has depth.
    const sub = await call(admin, 'POST', '/api/blade-system/dept/submit', {
      parentId: dept.小班组,
      deptName: '小班实验组',
      deptCategory: 3,
    });
    expect(sub.status).toBe(200);
    dept.小班实验组 = sub.body.data.id;
    const detail = await call(admin, 'GET', `/api/clazz/classinfo/detail?id=${clazz.小二班}`);
    const moved = await call(admin, 'POST', '/api/clazz/classinfo/update', {
      ...detail.body.data,
      deptId: dept.小班实验组,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('all: every child of the tenant, none of another', async () => {
    const u = await userWithScope(await scopeId('student_all'), dept.小班组 as string);
    await expectExactly(u.token, everyone);
  });

  it('own: only the children the user added', async () => {
    const u = await userWithScope(await scopeId('student_own'), null);
    const mine = [nextId(), nextId()];
    await inSystem(t.database, (trx) =>
      trx
        .insertInto('student')
        .values(
          mine.map((id, i) => ({
            tenant_id: T,
            id,
            name: `新生${i}`,
            gender: 1,
            class_id: clazz.大一班 as string,
            dept_id: dept.大班组 as string,
            create_user: u.userId,
          })),
        )
        .execute(),
    );
    everyone.push(...mine);
    await expectExactly(u.token, mine);
  });

  it('own dept: the children of the user’s dept only, not of the dept below it', async () => {
    const u = await userWithScope(await scopeId('student_dept'), dept.小班组 as string);
    await expectExactly(u.token, children.小一班 as string[]);
  });

  it('dept and below: follows the dept tree', async () => {
    const u = await userWithScope(await scopeId('student_dept_below'), dept.小班组 as string);
    await expectExactly(u.token, [...(children.小一班 as string[]), ...(children.小二班 as string[])]);
    const campus = await userWithScope(await scopeId('student_dept_below'), dept.萌芽实验幼儿园 as string);
    await expectExactly(campus.token, everyone);
  });

  it('custom: the departments listed in the scope (set up by the platform)', async () => {
    const menu = await inSystem(t.database, (trx) =>
      trx.selectFrom('menu').select('id').where('code', '=', 'student').executeTakeFirstOrThrow(),
    );
    const created = await call(platform, 'POST', '/api/blade-system/data-scope/submit', {
      menuId: String(menu.id),
      resourceCode: 'student',
      scopeName: '中班组与实验组',
      scopeType: 5,
      scopeValue: `${dept.中班组},${dept.小班实验组}`,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data).toMatchObject({ scopeColumn: 'dept_id', scopeType: 5 });
    const u = await userWithScope(created.body.data.id, null);
    await expectExactly(u.token, [...(children.中一班 as string[]), ...(children.小二班 as string[])]);
  });

  it('own classes: the classes the teacher teaches (seeded teacher, 小一班 shared by two)', async () => {
    const ids = await inSystem(t.database, (trx) =>
      trx.selectFrom('app_user').select(['id', 'account']).where('tenant_id', '=', T).execute(),
    );
    for (const account of ['teacher1', 'teacher2']) {
      const id = String(ids.find((u) => u.account === account)?.id);
      await expectExactly(tokenFor(config, { tenant_id: T, user_id: id }), children.小一班 as string[]);
    }
  });

  it('grade leader (seeded, dept and below): 小班组 and the dept below it', async () => {
    const id = await inSystem(t.database, async (trx) =>
      String(
        (await trx.selectFrom('app_user').select('id').where('account', '=', 'leader').executeTakeFirstOrThrow()).id,
      ),
    );
    await expectExactly(tokenFor(config, { tenant_id: T, user_id: id }), [
      ...(children.小一班 as string[]),
      ...(children.小二班 as string[]),
    ]);
  });

  it('a user whose roles grant no data scope for the resource sees nothing (and 404 for any id)', async () => {
    const role = await call(admin, 'POST', '/api/blade-system/role/submit', {
      roleName: '无数据',
      roleAlias: 'no_data',
    });
    const menu = await inSystem(t.database, (trx) =>
      trx.selectFrom('menu').select('id').where('code', '=', 'student').executeTakeFirstOrThrow(),
    );
    const api = await inSystem(t.database, (trx) =>
      trx.selectFrom('scope_api').select('id').where('menu_id', '=', menu.id).execute(),
    );
    await call(admin, 'POST', '/api/blade-system/role/grant', {
      roleIds: [role.body.data.id],
      menuIds: [String(menu.id)],
      apiScopeIds: api.map((a) => String(a.id)),
    });
    const userId = nextId();
    await inSystem(t.database, async (trx) => {
      await trx
        .insertInto('app_user')
        .values({ tenant_id: T, id: userId, account: `n${userId}`, password_hash: 'x' })
        .execute();
      await trx.insertInto('user_role').values({ tenant_id: T, user_id: userId, role_id: role.body.data.id }).execute();
    });
    await expectExactly(tokenFor(config, { tenant_id: T, user_id: userId }), []);
  });
});
