import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5 } from '@sprout/core/auth/password';
import { inSystem } from '@sprout/core/db';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { testRedisUrl } from '@sprout/core/testing/services';
import { bladeAuth, clientBasic, type FastifyInstance, testApp, testConfig, tokenFor } from '../../testing';
import {
  addRole,
  addTenant,
  addUser,
  claimsOf,
  eventually,
  passwordGrant,
  peekKv,
  saberToken,
  type TestUser,
  uniquePrefix,
} from './fixtures';

/**
 * Sign-in as Saber/BladeX front ends make it, on PostgreSQL + Redis, with two replicas
 * (two apps sharing the database and the Redis prefix).
 */
describe('sign-in, tokens and sessions (two replicas on PostgreSQL + Redis)', () => {
  let t: TestDatabase;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let teacher: TestUser;
  let principal: TestUser;
  let teacherRole: string;
  let adminRole: string;
  const users: Record<string, TestUser> = {};
  let config: ReturnType<typeof testConfig>;
  let configB: ReturnType<typeof testConfig>;
  let env: Record<string, string>;

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: false });
    env = {
      REDIS_URL: await testRedisUrl(),
      KV_PREFIX: uniquePrefix(),
      JWT_SECRET: `test-${randomBytes(24).toString('hex')}`,
      LOGIN_MAX_FAILURES_PER_IP: '1000',
    };
    config = testConfig(env);
    // Replica B: same database, Redis and key; captcha codes expire after one second there.
    configB = testConfig({ ...env, CAPTCHA_TTL: '1' });
    ({ app: a } = await testApp(t.database, { config }));
    ({ app: b } = await testApp(t.database, { config: configB }));

    await addTenant(t.database, {
      tenant_id: '100001',
      tenant_name: '萌芽实验幼儿园',
      domain: 'kg.example.cn',
      background_url: '/bg/100001.jpg',
    });
    await addTenant(t.database, {
      tenant_id: '100002',
      tenant_name: '过期幼儿园',
      expire_time: new Date(Date.now() - 86_400_000),
    });
    await addTenant(t.database, { tenant_id: '100003', tenant_name: '额度幼儿园', account_number: 1 });
    await addTenant(t.database, { tenant_id: '100004', tenant_name: '另一所幼儿园' });
    teacherRole = await addRole(t.database, '100001', 'teacher', '教师');
    adminRole = await addRole(t.database, '100001', 'admin', '园长');
    teacher = await addUser(t.database, {
      tenantId: '100001',
      account: 'teacher1',
      name: '王老师',
      roleIds: [teacherRole],
      deptId: '42',
    });
    principal = await addUser(t.database, {
      tenantId: '100001',
      account: 'principal',
      roleIds: [adminRole, teacherRole],
    });
    for (const account of ['refresher', 'logout', 'locked', 'pwchange', 'iplimit', 'probe'])
      users[account] = await addUser(t.database, { tenantId: '100001', account, roleIds: [teacherRole] });
    users.disabled = await addUser(t.database, { tenantId: '100001', account: 'disabled', status: 0 });
    users.pending = await addUser(t.database, { tenantId: '100001', account: 'pending', status: 2 });
    users.expired = await addUser(t.database, { tenantId: '100002', account: 'teacher1' });
    users.quota1 = await addUser(t.database, { tenantId: '100003', account: 'q1' });
    users.quota2 = await addUser(t.database, { tenantId: '100003', account: 'q2' });
    users.other = await addUser(t.database, { tenantId: '100004', account: 'teacher1', password: 'other-pass' });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await t?.drop();
  });

  const info = (app: FastifyInstance, token: string) =>
    app.inject({ method: 'GET', url: '/api/blade-user/info', headers: bladeAuth(token) });

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

  describe('captcha grant', () => {
    const captchaGrant = (app: FastifyInstance, key: string, code: string) =>
      saberToken(
        app,
        {
          tenantId: '100001',
          username: 'teacher1',
          password: md5('sprout123'),
          grant_type: 'captcha',
          scope: 'all',
          type: 'account',
        },
        { 'captcha-key': key, 'captcha-code': code },
      );
    const newCaptcha = async (app: FastifyInstance) => {
      const r = await app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha' });
      expect(r.statusCode).toBe(200);
      const { key, image } = r.json();
      expect(image).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(Buffer.from(image.split(',')[1], 'base64').toString()).toContain('<svg');
      const code = await peekKv(app === a ? config : configB, `captcha:${key}`);
      expect(code).toMatch(/^[a-z0-9]{4}$/);
      return { key: key as string, code: code as string };
    };

    it('signs in with the right code, issued on one replica and checked on the other', async () => {
      const c = await newCaptcha(a);
      const r = await captchaGrant(b, c.key, c.code.toUpperCase());
      expect(r.statusCode).toBe(200);
      expect(r.json().user_id).toBe(teacher.id);
    });

    it('refuses a wrong code, and the code is gone after that one try', async () => {
      const c = await newCaptcha(a);
      const wrong = await captchaGrant(a, c.key, c.code === 'zzzz' ? 'yyyy' : 'zzzz');
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error_description).toBe('验证码不正确');
      expect((await captchaGrant(a, c.key, c.code)).json().error_description).toBe('验证码不正确');
    });

    it('refuses a reused code', async () => {
      const c = await newCaptcha(a);
      expect((await captchaGrant(a, c.key, c.code)).statusCode).toBe(200);
      const again = await captchaGrant(b, c.key, c.code);
      expect(again.statusCode).toBe(400);
      expect(again.json().error_description).toBe('验证码不正确');
    });

    it('refuses an expired code', async () => {
      const c = await newCaptcha(b); // replica B keeps codes for one second
      await new Promise((r) => setTimeout(r, 1300));
      const r = await captchaGrant(b, c.key, c.code);
      expect(r.statusCode).toBe(400);
      expect(r.json().error_description).toBe('验证码不正确');
    });

    it('with CAPTCHA_ENABLED, asks the password grant for a captcha too (no bypass)', async () => {
      const strict = await testApp(t.database, { config: testConfig({ ...env, CAPTCHA_ENABLED: 'true' }) });
      try {
        const plain = await passwordGrant(strict.app, teacher);
        expect(plain.statusCode).toBe(400);
        expect(plain.json().error_description).toBe('验证码不正确');
        const c = await newCaptcha(a);
        expect(
          (await passwordGrant(strict.app, teacher, { 'captcha-key': c.key, 'captcha-code': c.code })).statusCode,
        ).toBe(200);
      } finally {
        await strict.app.close();
      }
    });

    it('limits captcha images per client address', async () => {
      const from = (ip: string) => a.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha', remoteAddress: ip });
      for (let i = 0; i < 60; i++) expect((await from('198.51.100.4')).statusCode).toBe(200);
      const over = await from('198.51.100.4');
      expect(over.statusCode).toBe(429);
      expect(over.json().msg).toBe('请求过于频繁，请稍后再试');
      expect((await from('198.51.100.5')).statusCode).toBe(200);
    });

    it('refuses a captcha grant without the headers', async () => {
      const r = await saberToken(a, {
        tenantId: '100001',
        username: 'teacher1',
        password: md5('sprout123'),
        grant_type: 'captcha',
      });
      expect(r.json()).toMatchObject({ error_code: 400, error_description: '验证码不正确' });
    });
  });

  describe('refresh tokens', () => {
    const refresh = (app: FastifyInstance, token: string, tenantId = '100001') =>
      saberToken(app, { tenantId, refresh_token: token, grant_type: 'refresh_token', scope: 'all' });

    it('rotates: a refresh gives new tokens for the same session, and the old refresh token is spent', async () => {
      const first = (await passwordGrant(a, users.refresher as TestUser)).json();
      const second = await refresh(b, first.refresh_token);
      expect(second.statusCode).toBe(200);
      const s = second.json();
      expect(s).toMatchObject({
        user_id: (users.refresher as TestUser).id,
        tenant_id: '100001',
        token_type: 'bearer',
        role_name: 'teacher',
      });
      expect(s.refresh_token).not.toBe(first.refresh_token);
      expect(claimsOf(s.access_token).sid).toBe(claimsOf(first.access_token).sid);
      expect((await info(a, s.access_token)).statusCode).toBe(200);
      const third = await refresh(a, s.refresh_token);
      expect(third.statusCode).toBe(200);
    });

    it('treats reuse of a spent refresh token as theft: refused, and the whole session is revoked', async () => {
      const first = (await passwordGrant(a, users.refresher as TestUser)).json();
      const second = (await refresh(a, first.refresh_token)).json();
      // The thief (or a stale copy) replays the first refresh token.
      const replay = await refresh(b, first.refresh_token);
      expect(replay.statusCode).toBe(400);
      expect(replay.json().error_description).toBe('刷新令牌已被使用，会话已注销，请重新登录');
      // Neither the latest refresh token nor the latest access token works any more, on either replica.
      expect((await refresh(a, second.refresh_token)).json().error_description).toBe(
        '刷新令牌无效或已过期，请重新登录',
      );
      expect((await info(a, second.access_token)).statusCode).toBe(401);
      expect(await eventually(async () => (await info(b, second.access_token)).statusCode === 401)).toBe(true);
      // Another session of the same user is untouched.
      const other = (await passwordGrant(a, users.refresher as TestUser)).json();
      expect((await info(a, other.access_token)).statusCode).toBe(200);
    });

    it('refuses an unknown refresh token, and one presented for another tenant', async () => {
      expect((await refresh(a, 'not-a-token')).json()).toMatchObject({
        error_code: 400,
        error_description: '刷新令牌无效或已过期，请重新登录',
      });
      const first = (await passwordGrant(a, users.refresher as TestUser)).json();
      expect((await refresh(a, first.refresh_token, '100004')).statusCode).toBe(400);
      expect((await refresh(a, first.refresh_token)).statusCode).toBe(200);
    });
  });

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

  it('locks an account after 5 failures for everyone, on every replica, even with the right password', async () => {
    const u = users.locked as TestUser;
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) {
      const app = i % 2 ? b : a;
      answers.push((await passwordGrant(app, { ...u, password: `wrong${i}` }, {})).json().error_description);
    }
    expect(answers).toEqual([
      '用户名或密码错误',
      '用户名或密码错误',
      '用户名或密码错误',
      '用户名或密码错误',
      '账号已被锁定，请稍后再试',
    ]);
    for (const app of [a, b]) {
      const right = await passwordGrant(app, u);
      expect(right.statusCode).toBe(400);
      expect(right.json().error_description).toBe('账号已被锁定，请稍后再试');
    }
    // Another account is not affected.
    expect((await passwordGrant(a, teacher)).statusCode).toBe(200);
  });

  it('limits failures per client address across accounts', async () => {
    // A third replica with a per-address limit of 3 (its own key prefix: a fresh count).
    const ipApp = await testApp(t.database, {
      config: testConfig({ ...env, KV_PREFIX: uniquePrefix(), LOGIN_MAX_FAILURES_PER_IP: '3' }),
    });
    try {
      const from = (account: string, password: string) =>
        ipApp.app.inject({
          method: 'POST',
          url: `/api/blade-auth/oauth/token?${new URLSearchParams({ tenantId: '100001', username: account, password: md5(password), grant_type: 'password' })}`,
          headers: clientBasic(),
          remoteAddress: '203.0.113.9',
        });
      for (const account of ['a1', 'a2', 'a3'])
        expect((await from(account, 'x')).json().error_description).toBe('用户名或密码错误');
      const blocked = await from('iplimit', 'sprout123');
      expect(blocked.json().error_description).toBe('登录失败次数过多，请稍后再试');
      // The same account from another address signs in.
      expect((await passwordGrant(ipApp.app, users.iplimit as TestUser)).statusCode).toBe(200);
    } finally {
      await ipApp.app.close();
    }
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

  it('records sign-ins, failures, locks, refresh reuse and logouts for administrators only', async () => {
    const admin = (await passwordGrant(a, principal, { 'user-agent': 'SaberTest/1.0' })).json().access_token;
    const list = await a.inject({
      method: 'GET',
      url: '/api/blade-log/security/list?size=200',
      headers: bladeAuth(admin),
    });
    expect(list.statusCode).toBe(200);
    const records = list.json().data.records as Array<Record<string, string>>;
    const events = new Set(records.map((r) => `${r.event}/${r.result}`));
    for (const e of [
      'sign_in/success',
      'sign_in_failed/failure',
      'account_locked/failure',
      'refresh/success',
      'refresh_reuse/failure',
      'logout/success',
    ])
      expect(events, e).toContain(e);
    const mine = records.find((r) => r.event === 'sign_in' && r.userAgent === 'SaberTest/1.0');
    expect(mine).toMatchObject({
      account: 'principal',
      userId: principal.id,
      ip: '127.0.0.1',
      clientId: 'saber',
      grantType: 'password',
      tenantId: '100001',
    });
    expect(mine?.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const lock = records.find((r) => r.event === 'account_locked');
    expect(lock).toMatchObject({ account: 'locked', detail: 'bad_credentials' });
    const filtered = await a.inject({
      method: 'GET',
      url: '/api/blade-log/security/list?account=locked&result=failure',
      headers: bladeAuth(admin),
    });
    expect(filtered.json().data.records.every((r: { account: string }) => r.account === 'locked')).toBe(true);
    const asTeacher = (await passwordGrant(a, teacher)).json().access_token;
    expect(
      (await a.inject({ method: 'GET', url: '/api/blade-log/security/list', headers: bladeAuth(asTeacher) }))
        .statusCode,
    ).toBe(403);
    // Failures against a tenant that does not exist land in the platform tenant's log.
    const platform = await inSystem(t.database, (trx) =>
      trx
        .selectFrom('security_log')
        .select(['tenant_id', 'detail'])
        .where('detail', 'like', 'tenant_not_found%')
        .execute(),
    );
    expect(platform[0]).toMatchObject({ tenant_id: '000000', detail: 'tenant_not_found: tenant 999999' });
  });

  describe('own account', () => {
    it('shows and updates personal info, validating every field', async () => {
      const token = (await passwordGrant(a, teacher)).json().access_token;
      const bad = await a.inject({
        method: 'POST',
        url: '/api/blade-user/update-info',
        headers: bladeAuth(token),
        payload: { name: '', phone: '12345', email: 'not-mail', avatar: 'javascript:alert(1)' },
      });
      expect(bad.statusCode).toBe(400);
      const fields = Object.fromEntries(
        bad.json().fields.map((f: { field: string; message: string }) => [f.field, f.message]),
      );
      expect(fields).toMatchObject({
        name: '不能为空',
        phone: '手机号码格式不正确',
        email: '邮箱格式不正确',
        avatar: '头像地址应为 http(s) 链接或站内路径',
      });
      const good = await a.inject({
        method: 'POST',
        url: '/api/blade-user/update-info',
        headers: bladeAuth(token),
        payload: {
          name: '小王',
          realName: '王芳',
          phone: '13800000001',
          email: 'wang@example.cn',
          avatar: '/upload/a.png',
          account: 'hacked',
          tenantId: '100004',
        },
      });
      expect(good.statusCode).toBe(200);
      expect(good.json().data).toMatchObject({
        name: '小王',
        realName: '王芳',
        phone: '13800000001',
        email: 'wang@example.cn',
        avatar: '/upload/a.png',
        account: 'teacher1',
        tenantId: '100001',
      });
      const again = (await info(a, token)).json().data;
      expect(again).toMatchObject({ name: '小王', phone: '13800000001' });
      // Looking users up by phone is for user administrators (system/info-by-phone.int.test.ts).
      const byPhone = await a.inject({
        method: 'GET',
        url: '/api/blade-user/infoByPhone?phone=13800000001',
        headers: bladeAuth(token),
      });
      expect(byPhone.statusCode).toBe(403);
      const ui = await a.inject({ method: 'GET', url: '/api/blade-auth/oauth/user-info', headers: bladeAuth(token) });
      expect(ui.json().data).toMatchObject({
        userId: teacher.id,
        tenantId: '100001',
        account: 'teacher1',
        nickName: '小王',
        realName: '王芳',
        roleName: 'teacher',
        clientId: 'saber',
      });
    });

    it('changes the password: mismatch and a wrong old password are clear 400s; other sessions end', async () => {
      const u = users.pwchange as TestUser;
      const here = (await passwordGrant(a, u)).json().access_token;
      const elsewhere = (await passwordGrant(b, u)).json();
      const change = (q: Record<string, string>) =>
        a.inject({
          method: 'POST',
          url: `/api/blade-user/update-password?${new URLSearchParams(q)}`,
          headers: bladeAuth(here),
        });
      const mismatch = await change({
        oldPassword: md5(u.password),
        newPassword: md5('new-pass-1'),
        newPassword1: md5('new-pass-2'),
      });
      expect(mismatch.statusCode).toBe(400);
      expect(mismatch.json()).toMatchObject({ success: false, msg: '两次密码输入不一致' });
      const wrongOld = await change({
        oldPassword: md5('guess'),
        newPassword: md5('new-pass-1'),
        newPassword1: md5('new-pass-1'),
      });
      expect(wrongOld.statusCode).toBe(400);
      expect(wrongOld.json().msg).toBe('原密码不正确');
      const missing = await change({ oldPassword: md5(u.password) });
      expect(missing.statusCode).toBe(400);
      expect(
        missing
          .json()
          .fields.map((f: { field: string }) => f.field)
          .sort(),
      ).toEqual(['newPassword', 'newPassword1']);
      const done = await change({
        oldPassword: md5(u.password),
        newPassword: md5('new-pass-1'),
        newPassword1: md5('new-pass-1'),
      });
      expect(done.statusCode).toBe(200);
      expect((await info(a, here)).statusCode).toBe(200);
      expect(await eventually(async () => (await info(b, elsewhere.access_token)).statusCode === 401)).toBe(true);
      expect(
        (
          await saberToken(a, {
            tenantId: '100001',
            refresh_token: elsewhere.refresh_token,
            grant_type: 'refresh_token',
          })
        ).statusCode,
      ).toBe(400);
      expect((await passwordGrant(a, u)).statusCode).toBe(400);
      expect((await passwordGrant(a, { ...u, password: 'new-pass-1' })).statusCode).toBe(200);
    });
  });

  describe('public calls', () => {
    it('finds the tenant of a domain and its background, without any credentials', async () => {
      const r = await a.inject({ method: 'GET', url: '/api/blade-system/tenant/info?domain=KG.example.cn' });
      expect(r.statusCode).toBe(200);
      expect(r.json().data).toMatchObject({ tenantId: '100001', backgroundUrl: '/bg/100001.jpg' });
      expect(
        (await a.inject({ method: 'GET', url: '/api/blade-system/tenant/info?domain=none.example.cn' })).json().data,
      ).toEqual({});
      const bg = await a.inject({
        method: 'GET',
        url: '/api/blade-system/tenant/getBackgroundUrl?domain=kg.example.cn',
      });
      expect(bg.json()).toMatchObject({ success: true, data: '/bg/100001.jpg' });
      const byHeader = await a.inject({
        method: 'GET',
        url: '/api/blade-system/tenant/getBackgroundUrl',
        headers: { 'tenant-id': '100001' },
      });
      expect(byHeader.json().data).toBe('/bg/100001.jpg');
    });

    it('serves the captcha publicly and keeps the rest of the auth API behind the client check', async () => {
      expect((await a.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha' })).statusCode).toBe(200);
      for (const url of [
        '/api/blade-auth/oauth/user-info',
        '/api/blade-auth/oauth/logout',
        '/api/blade-auth/oauth/clear-cache',
        '/api/blade-log/security/list',
      ])
        expect((await a.inject({ method: 'GET', url })).statusCode, url).toBe(401);
      expect((await a.inject({ method: 'POST', url: '/api/blade-user/register-guest' })).statusCode).toBe(401);
    });
  });
});
