import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { bladeAuth, type FastifyInstance, testApp, testConfig, tokenFor } from '../../testing';
import { accessToken } from '../auth/fixtures';

/**
 * `GET /api/blade-user/infoByPhone` tells who owns a phone number, so it belongs to user
 * administrators (the user screen's API scope, like `page` and `detail`) and shows only users
 * they could list: their tenant, their data scope. Everyone else gets 403.
 */
describe('infoByPhone: user administrators only, within tenant and data scope', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  const config = testConfig();
  const T = '100001';
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};

  const signIn = (tenantId: string, username: string, password: string) =>
    accessToken(app, tenantId, username, password);
  const byPhone = async (token: string, phone: string) => {
    const r = await app.inject({
      method: 'GET',
      url: `/api/blade-user/infoByPhone?phone=${phone}`,
      headers: bladeAuth(token),
    });
    return { status: r.statusCode, body: r.json() };
  };

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    ({ app } = await testApp(t.database, { config }));
    for (const who of ['admin', 'principal', 'teacher1', 'leader', 'caregiver'])
      tokens[who] = await signIn(T, who, 'sprout123');
    // Known numbers: teacher1 (小班组) and teacher3 (中班组) here, and the platform's admin.
    await inSystem(t.database, async (trx) => {
      for (const [tenant, account, phone] of [
        [T, 'teacher1', '13900000001'],
        [T, 'teacher3', '13900000003'],
        ['000000', 'admin', '13900000009'],
      ] as const) {
        const u = await trx
          .updateTable('app_user')
          .set({ phone })
          .where('tenant_id', '=', tenant)
          .where('account', '=', account)
          .returning(['id', 'dept_id'])
          .executeTakeFirstOrThrow();
        ids[account === 'admin' ? 'platformAdmin' : account] = String(u.id);
        if (account === 'teacher1') ids.teacher1Dept = String(u.dept_id);
      }
    });
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('a user administrator finds a user of her tenant by phone, with the limited fields', async () => {
    for (const who of ['admin', 'principal']) {
      const r = await byPhone(tokens[who] as string, '13900000001');
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data).toMatchObject({ id: ids.teacher1, account: 'teacher1', tenantId: T, phone: '13900000001' });
      expect(r.body.data).not.toHaveProperty('password');
    }
    // A number of another tenant's user is nobody here.
    expect((await byPhone(tokens.admin as string, '13900000009')).body.data).toBeNull();
  });

  it('any other signed-in user is refused (403), even for her own number', async () => {
    for (const who of ['teacher1', 'leader', 'caregiver']) {
      const r = await byPhone(tokens[who] as string, '13900000001');
      expect(r.status, who).toBe(403);
      expect(r.body.data).toBeNull();
    }
  });

  it('a user administrator limited to her own department sees only its users', async () => {
    const role = await app.inject({
      method: 'POST',
      url: '/api/blade-system/role/submit',
      headers: bladeAuth(tokens.admin as string),
      payload: { roleName: '部门用户管理', roleAlias: `users_dept_${nextId()}` },
    });
    expect(role.statusCode).toBe(200);
    const roleId = role.json().data.id as string;
    const grant = await inSystem(t.database, async (trx) => {
      const menu = await trx
        .selectFrom('menu')
        .select('id')
        .where('tenant_id', '=', '000000')
        .where('code', '=', 'user')
        .executeTakeFirstOrThrow();
      const api = await trx.selectFrom('scope_api').select('id').where('menu_id', '=', menu.id).execute();
      const scope = await trx
        .selectFrom('scope_data')
        .select('id')
        .where('code', '=', 'user_dept')
        .executeTakeFirstOrThrow();
      return {
        menuIds: [String(menu.id)],
        apiScopeIds: api.map((a) => String(a.id)),
        dataScopeIds: [String(scope.id)],
      };
    });
    const g = await app.inject({
      method: 'POST',
      url: '/api/blade-system/role/grant',
      headers: bladeAuth(tokens.admin as string),
      payload: { roleIds: [roleId], ...grant },
    });
    expect(g.statusCode, g.body).toBe(200);
    const userId = nextId();
    await inSystem(t.database, async (trx) => {
      await trx
        .insertInto('app_user')
        .values({ tenant_id: T, id: userId, account: `u${userId}`, password_hash: 'x', dept_id: ids.teacher1Dept })
        .execute();
      await trx.insertInto('user_role').values({ tenant_id: T, user_id: userId, role_id: roleId }).execute();
    });
    const token = tokenFor(config, { tenant_id: T, user_id: userId });
    const same = await byPhone(token, '13900000001');
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.data).toMatchObject({ id: ids.teacher1 });
    // teacher3 is in another department: outside this administrator's scope, nobody.
    const other = await byPhone(token, '13900000003');
    expect(other.status).toBe(200);
    expect(other.body.data).toBeNull();
    // The unrestricted administrator does find teacher3.
    expect((await byPhone(tokens.admin as string, '13900000003')).body.data).toMatchObject({ account: 'teacher3' });
  });
});
