import { describe, expect, it } from 'vitest';
import { bladeAuth, clientBasic, testConfig, tokenFor } from '../../testing';
import { eventually, passwordGrant, saberToken, type TestUser } from './fixtures';
import { a, b, config, info, principal, teacher, users, useTokenSetup } from './token-setup';

/** Sessions and their tokens: logout on every replica, refused tokens, a token kept in its tenant. */
describe('sign-in, tokens and sessions (two replicas on PostgreSQL + Redis)', () => {
  useTokenSetup();

  it('logout revokes the session: the token is refused afterwards, on every replica', async () => {
    const body = (await passwordGrant(a, users.logout as TestUser)).json();
    // Replica B has seen the session alive (and cached that) before the logout on A.
    expect((await info(b, body.access_token)).statusCode).toBe(200);
    const out = await a.inject({
      method: 'GET',
      url: '/api/blade-auth/oauth/logout',
      headers: bladeAuth(body.access_token),
    });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({ code: 200, success: true, msg: '退出成功' });
    const after = await info(a, body.access_token);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 401, success: false, errorCode: 'token_invalid' });
    expect(await eventually(async () => (await info(b, body.access_token)).statusCode === 401)).toBe(true);
    // Its refresh token is dead too.
    const r = await saberToken(a, {
      tenantId: '100001',
      refresh_token: body.refresh_token,
      grant_type: 'refresh_token',
    });
    expect(r.statusCode).toBe(400);
  });

  it('POST logout receives the web app’s error log without signing out', async () => {
    const token = (await passwordGrant(a, teacher)).json().access_token;
    const r = await a.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/logout',
      headers: bladeAuth(token),
      payload: [
        {
          type: 'error',
          message: 'x is undefined',
          stack: 'at y',
          info: 'render',
          url: '/wel/index',
          time: '2026-11-21 10:00:00',
        },
      ],
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ success: true, data: { received: 1 }, msg: '日志上传成功' });
    expect((await info(a, token)).statusCode).toBe(200);
  });

  it('refuses missing, expired and forged tokens with 401 in the envelope', async () => {
    expect((await a.inject({ method: 'GET', url: '/api/blade-user/info', headers: clientBasic() })).statusCode).toBe(
      401,
    );
    const expired = tokenFor(config, {
      tenant_id: '100001',
      user_id: teacher.id,
      exp: Math.floor(Date.now() / 1000) - 1,
    });
    expect((await info(a, expired)).json()).toMatchObject({
      code: 401,
      errorCode: 'token_invalid',
      msg: '登录已失效，请重新登录',
    });
    const forged = tokenFor(testConfig(), { tenant_id: '100001', user_id: teacher.id });
    expect((await info(a, forged)).statusCode).toBe(401);
  });

  it('keeps a token of tenant A inside A, whatever Tenant-Id says', async () => {
    const admin = (await passwordGrant(a, principal)).json().access_token;
    const probe = { 'tenant-id': '100004' };
    const list = await a.inject({
      method: 'GET',
      url: '/api/blade-user/page?size=100',
      headers: { ...bladeAuth(admin), ...probe },
    });
    expect(list.statusCode).toBe(200);
    const tenants = new Set(list.json().data.records.map((u: { tenantId: string }) => u.tenantId));
    expect([...tenants]).toEqual(['100001']);
    const me = await a.inject({
      method: 'GET',
      url: '/api/blade-user/info',
      headers: { ...bladeAuth(admin), ...probe },
    });
    expect(me.json().data.tenantId).toBe('100001');
    const log = await a.inject({
      method: 'GET',
      url: '/api/blade-log/security/list?size=200',
      headers: { ...bladeAuth(admin), ...probe },
    });
    expect(new Set(log.json().data.records.map((r: { tenantId: string }) => r.tenantId))).toEqual(new Set(['100001']));
    const byPhone = await a.inject({
      method: 'GET',
      url: '/api/blade-user/infoByPhone?phone=13800000004',
      headers: { ...bladeAuth(admin), ...probe },
    });
    expect(byPhone.json().data).toBeNull();
    // A token of tenant A refreshing with tenantId B is refused; B's data is untouched.
    const rt = (await passwordGrant(a, principal)).json().refresh_token;
    expect(
      (await saberToken(a, { tenantId: '100004', refresh_token: rt, grant_type: 'refresh_token' })).statusCode,
    ).toBe(400);
  });
});
