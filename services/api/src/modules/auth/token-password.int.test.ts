import { md5 } from '@sprout/core/auth/password';
import { describe, expect, it } from 'vitest';
import { clientBasic } from '../../testing';
import { claimsOf, passwordGrant, saberToken, type TestUser } from './fixtures';
import { a, adminRole, b, info, principal, teacher, teacherRole, users, useTokenSetup } from './token-setup';

/**
 * The password grant as Saber/BladeX front ends make it: the token body, the parameters'
 * places, the client check, and the tenant and account problems it names.
 */
describe('sign-in, tokens and sessions (two replicas on PostgreSQL + Redis)', () => {
  useTokenSetup();

  it('signs in with the md5 password in the query string, Basic client and Tenant-Id, in the BladeX body', async () => {
    const r = await passwordGrant(a, teacher);
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({
      token_type: 'bearer',
      expires_in: 3600,
      scope: 'all',
      tenant_id: '100001',
      user_id: teacher.id,
      dept_id: '42',
      post_id: '',
      role_id: teacherRole,
      role_name: 'teacher',
      account: 'teacher1',
      user_name: 'teacher1',
      nick_name: '王老师',
      real_name: '王老师',
      avatar: '',
      oauth_id: '',
      client_id: 'saber',
      license: 'powered by sprout',
      detail: { type: 'web' },
    });
    expect(typeof body.access_token).toBe('string');
    expect(body.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.headers['cache-control']).toBe('no-store');
    const claims = claimsOf(body.access_token);
    expect(claims).toMatchObject({
      tenant_id: '100001',
      user_id: teacher.id,
      role_ids: [teacherRole],
      roles: ['teacher'],
      dept_id: '42',
      client_id: 'saber',
    });
    expect(claims.exp).toBe((claims.iat as number) + 3600);
    const me = await info(a, body.access_token);
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({ id: teacher.id, account: 'teacher1', tenantId: '100001', roleName: '教师' });
    expect(me.json().data).not.toHaveProperty('passwordHash');
    // The token works on the other replica too.
    expect((await info(b, body.access_token)).statusCode).toBe(200);
  });

  it('joins several roles as BladeX does', async () => {
    const body = (await passwordGrant(a, principal)).json();
    expect(body.role_id).toBe([adminRole, teacherRole].sort().join(','));
    expect(body.role_name.split(',').sort()).toEqual(['admin', 'teacher']);
  });

  it('accepts the same parameters as a form body or a JSON body', async () => {
    const form = await a.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token',
      headers: { ...clientBasic(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        tenantId: '100001',
        username: 'teacher1',
        password: md5('sprout123'),
        grant_type: 'password',
        scope: 'all',
      }).toString(),
    });
    expect(form.statusCode).toBe(200);
    const json = await a.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token',
      headers: { ...clientBasic(), 'content-type': 'application/json', 'tenant-id': '100001' },
      payload: { username: 'teacher1', password: md5('sprout123'), grant_type: 'password' },
    });
    expect(json.statusCode).toBe(200);
    expect(json.json().tenant_id).toBe('100001');
    // A bodiless POST that still says application/json is fine as well.
    const empty = await saberToken(
      a,
      { tenantId: '100001', username: 'teacher1', password: md5('sprout123'), grant_type: 'password' },
      { 'content-type': 'application/json' },
    );
    expect(empty.statusCode).toBe(200);
  });

  it('refuses bad credentials with 400 and error_description, in Chinese by default and English on request', async () => {
    const wrong = await passwordGrant(a, { ...teacher, password: 'nope' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      error_code: 400,
      error_description: '用户名或密码错误',
      error: 'invalid_grant',
      success: false,
      msg: '用户名或密码错误',
    });
    const unknown = await passwordGrant(
      a,
      { tenantId: '100001', account: 'nobody', password: 'x' },
      { 'accept-language': 'en' },
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error_description).toBe('Incorrect username or password');
    const cookie = await passwordGrant(a, { ...teacher, password: 'nope' }, { cookie: 'language=en' });
    expect(cookie.json().error_description).toBe('Incorrect username or password');
  });

  it('answers 401 for a missing, unknown or wrong client, on the token endpoint and every other call', async () => {
    const params = { tenantId: '100001', username: 'teacher1', password: md5('sprout123'), grant_type: 'password' };
    for (const auth of [
      undefined,
      clientBasic('saber', 'wrong'),
      clientBasic('ghost', 'saber_secret'),
      { authorization: 'Basic !!!' },
    ]) {
      const r = await a.inject({
        method: 'POST',
        url: `/api/blade-auth/oauth/token?${new URLSearchParams(params)}`,
        headers: { ...(auth ?? {}) },
      });
      expect(r.statusCode, JSON.stringify(auth)).toBe(401);
      expect(r.json()).toMatchObject({ error_code: 401, error_description: '客户端认证失败', error: 'invalid_client' });
      expect(r.headers['www-authenticate']).toContain('Basic');
    }
    const token = (await passwordGrant(a, teacher)).json().access_token;
    const noClient = await a.inject({
      method: 'GET',
      url: '/api/blade-user/info',
      headers: { 'blade-auth': `bearer ${token}` },
    });
    expect(noClient.statusCode).toBe(401);
    expect(noClient.json()).toMatchObject({ code: 401, success: false, msg: '客户端认证失败' });
  });

  it('names the tenant and account problems: unknown, expired, disabled, pending, over quota', async () => {
    const desc = async (u: Pick<TestUser, 'tenantId' | 'account' | 'password'>) => {
      const r = await passwordGrant(a, u);
      expect(r.statusCode, u.account).toBe(400);
      return r.json().error_description as string;
    };
    expect(await desc({ tenantId: '999999', account: 'teacher1', password: 'sprout123' })).toBe('租户ID未找到');
    expect(await desc({ tenantId: 'x; drop', account: 'teacher1', password: 'sprout123' })).toBe('租户ID未找到');
    expect(await desc(users.expired as TestUser)).toBe('租户已过期');
    expect(await desc(users.disabled as TestUser)).toBe('用户已被禁用');
    expect(await desc(users.pending as TestUser)).toBe('账号正在审核中，请等待管理员通过');
    expect(await desc(users.quota1 as TestUser)).toBe('租户账号数量已超出授权额度，请联系管理员');
    // A disabled user's status is told only to someone who knows the password.
    expect(await desc({ ...(users.disabled as TestUser), password: 'wrong' })).toBe('用户名或密码错误');
  });

  it('keeps accounts of the same name in different tenants apart', async () => {
    const here = await passwordGrant(a, { tenantId: '100004', account: 'teacher1', password: 'sprout123' });
    expect(here.json().error_description).toBe('用户名或密码错误');
    const there = await passwordGrant(a, users.other as TestUser);
    expect(there.json()).toMatchObject({ tenant_id: '100004', user_id: (users.other as TestUser).id });
  });
});
