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
    for (const account of ['refresher', 'logout', 'locked', 'pwchange', 'probe'])
      users[account] = await addUser(t.database, { tenantId: '100001', account, roleIds: [teacherRole] });
    users.disabled = await addUser(t.database, { tenantId: '100001', account: 'disabled', status: 0 });
    users.pending = await addUser(t.database, { tenantId: '100001', account: 'pending', status: 2 });
    users.expired = await addUser(t.database, { tenantId: '100002', account: 'teacher1' });
    users.quota1 = await addUser(t.database, { tenantId: '100003', account: 'q1' });
    users.quota2 = await addUser(t.database, { tenantId: '100003', account: 'q2' });
    users.other = await addUser(t.database, { tenantId: '100004', account: 'teacher1', password: 'other-pass' });
    users.owner = await addUser(t.database, { tenantId: '100004', account: 'owner' });
    users.colleague = await addUser(t.database, { tenantId: '100004', account: 'colleague' });
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

  describe('brute force: a captcha instead of a lock, and rate limits (the production defaults, two replicas)', () => {
    // Two more replicas sharing a fresh Redis prefix, with the shipped limits: a captcha
    // after 3 failures of an account from one address or 10 of the account in all, 429
    // for an address after 50 failures unless it solves a captcha, 60 requests a minute.
    let c: FastifyInstance;
    let d: FastifyInstance;
    let limited: ReturnType<typeof testConfig>;
    beforeAll(async () => {
      limited = testConfig({
        ...env,
        KV_PREFIX: uniquePrefix(),
        LOGIN_CAPTCHA_AFTER_FAILURES: '3',
        LOGIN_MAX_FAILURES: '10',
        LOGIN_MAX_FAILURES_PER_IP: '50',
        RATE_LIMIT_PER_MINUTE: '60',
      });
      ({ app: c } = await testApp(t.database, { config: limited }));
      ({ app: d } = await testApp(t.database, { config: limited }));
    });
    afterAll(async () => {
      await c?.close();
      await d?.close();
    });

    const grant = (
      app: FastifyInstance,
      u: Pick<TestUser, 'tenantId' | 'account' | 'password'>,
      ip: string,
      captcha?: { key: string; code: string },
    ) =>
      app.inject({
        method: 'POST',
        url: `/api/blade-auth/oauth/token?${new URLSearchParams({ tenantId: u.tenantId, username: u.account, password: md5(u.password), grant_type: captcha ? 'captcha' : 'password', scope: 'all', type: 'account' })}`,
        headers: {
          ...clientBasic(),
          'tenant-id': u.tenantId,
          ...(captcha ? { 'captcha-key': captcha.key, 'captcha-code': captcha.code } : {}),
        },
        remoteAddress: ip,
      });
    /** A captcha as the owner gets it from her address, and the code she reads off the image. */
    const solved = async (app: FastifyInstance, ip: string) => {
      const r = await app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha', remoteAddress: ip });
      expect(r.statusCode).toBe(200);
      const key = r.json().key as string;
      return { key, code: (await peekKv(limited, `captcha:${key}`)) as string };
    };
    const answer = (r: { statusCode: number; json: () => { errorCode?: string } }) =>
      `${r.statusCode} ${r.statusCode === 200 ? 'signed in' : r.json().errorCode}`;

    it('after 3 failures asks that address for a captcha, on every replica, and never locks the owner out', async () => {
      const u = users.locked as TestUser;
      const wrong = (i: number) => ({ ...u, password: `wrong${i}` });
      const answers: string[] = [];
      for (let i = 0; i < 3; i++) answers.push(answer(await grant(i % 2 ? d : c, wrong(i), '198.51.100.20')));
      expect(answers).toEqual(['400 bad_credentials', '400 bad_credentials', '400 bad_credentials']);
      // From there, even the right password gets a request for a captcha, not a token — and not a lock.
      for (const app of [c, d]) {
        const right = await grant(app, u, '198.51.100.20');
        expect(right.statusCode).toBe(400);
        expect(right.json()).toMatchObject({ errorCode: 'captcha_required', error_description: '请输入验证码' });
      }
      const en = await c.inject({
        method: 'POST',
        url: `/api/blade-auth/oauth/token?${new URLSearchParams({ tenantId: u.tenantId, username: u.account, password: md5(u.password), grant_type: 'password' })}`,
        headers: { ...clientBasic(), 'accept-language': 'en' },
        remoteAddress: '198.51.100.20',
      });
      expect(en.json().error_description).toBe('Please enter the verification code');
      // A wrong captcha counts as one more failure; the password is not even looked at.
      const unread = await solved(c, '198.51.100.20');
      const guess = { key: unread.key, code: unread.code === 'zzzz' ? 'yyyy' : 'zzzz' };
      expect(answer(await grant(d, u, '198.51.100.20', guess))).toBe('400 captcha_invalid');
      // The owner from another address needs no captcha; from this one she signs in with one.
      expect(answer(await grant(c, u, '198.51.100.21'))).toBe('200 signed in');
      expect(answer(await grant(d, u, '198.51.100.20', await solved(c, '198.51.100.20')))).toBe('200 signed in');
      // Her success cleared this address's count for her account: no captcha next time.
      expect(answer(await grant(c, u, '198.51.100.20'))).toBe('200 signed in');
    });

    it('1,000 wrong passwords from 50 addresses get nowhere; the owner still signs in from her own address with a captcha', async () => {
      const owner = users.owner as TestUser;
      const tally = new Map<string, number>();
      for (let round = 0; round < 20; round++) {
        for (let n = 0; n < 50; n++) {
          const r = await grant(round % 2 ? d : c, { ...owner, password: `guess-${round}-${n}` }, `203.0.113.${n + 1}`);
          tally.set(answer(r), (tally.get(answer(r)) ?? 0) + 1);
        }
      }
      // No token; the passwords were checked only until the account asked everyone for a
      // captcha (10 failures in all); every later guess was refused before any check.
      expect(tally.get('200 signed in')).toBeUndefined();
      expect(tally.get('400 bad_credentials')).toBe(10);
      expect(tally.get('400 captcha_required')).toBe(990);
      // Even the right password, from an attacker's address, gets no token without a captcha.
      expect(answer(await grant(c, owner, '203.0.113.7'))).toBe('400 captcha_required');
      // The owner, from her own address: asked for a captcha, she solves it and is in.
      expect(answer(await grant(d, owner, '192.0.2.200'))).toBe('400 captcha_required');
      const r = await grant(c, owner, '192.0.2.200', await solved(d, '192.0.2.200'));
      expect(answer(r)).toBe('200 signed in');
      expect(r.json().user_id).toBe(owner.id);
    });

    it('refuses a noisy address with 429 and Retry-After, yet lets a colleague behind it in with a captcha', async () => {
      const nat = '198.51.100.77';
      for (let i = 0; i < 50; i++) {
        const r = await grant(i % 2 ? d : c, { tenantId: '100004', account: `nobody${i}`, password: 'x' }, nat);
        expect(r.statusCode).toBe(400);
      }
      const colleague = users.colleague as TestUser;
      const refused = await grant(c, colleague, nat);
      expect(refused.statusCode).toBe(429);
      const after = Number(refused.headers['retry-after']);
      expect(after).toBeGreaterThan(60);
      expect(after).toBeLessThanOrEqual(900);
      expect(refused.json()).toMatchObject({
        error_code: 429,
        errorCode: 'ip_locked',
        error_description: `此网络登录失败次数过多，请输入验证码，或 ${Math.ceil(after / 60)} 分钟后再试`,
      });
      expect(answer(await grant(d, colleague, nat, await solved(c, nat)))).toBe('200 signed in');
      // Another address is not affected.
      expect(answer(await grant(c, colleague, '198.51.100.78'))).toBe('200 signed in');
    });

    it('behind a proxy (TRUST_PROXY), counts the client address from X-Forwarded-For', async () => {
      const proxied = await testApp(t.database, {
        config: testConfig({
          ...env,
          KV_PREFIX: uniquePrefix(),
          LOGIN_CAPTCHA_AFTER_FAILURES: '3',
          TRUST_PROXY: 'true',
        }),
      });
      try {
        const u = users.probe as TestUser;
        const via = (client: string, password: string) =>
          proxied.app.inject({
            method: 'POST',
            url: `/api/blade-auth/oauth/token?${new URLSearchParams({ tenantId: u.tenantId, username: u.account, password: md5(password), grant_type: 'password' })}`,
            headers: { ...clientBasic(), 'x-forwarded-for': client },
            remoteAddress: '10.0.0.2', // the balancer
          });
        for (let i = 0; i < 3; i++) expect(answer(await via('203.0.113.200', 'wrong'))).toBe('400 bad_credentials');
        expect(answer(await via('203.0.113.200', u.password))).toBe('400 captcha_required');
        // Another client behind the same balancer is another address.
        expect(answer(await via('203.0.113.201', u.password))).toBe('200 signed in');
      } finally {
        await proxied.app.close();
      }
    });

    it('rate-limits the token endpoint and captcha images per address across replicas: 429 with Retry-After', async () => {
      const ip = '198.51.100.90';
      const captcha = (app: FastifyInstance, from = ip) =>
        app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha', remoteAddress: from });
      for (let i = 0; i < 60; i++) expect((await captcha(i % 2 ? d : c)).statusCode).toBe(200);
      const over = await captcha(c);
      expect(over.statusCode).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(over.json()).toMatchObject({ code: 429, errorCode: 'too_many_requests', msg: '请求过于频繁，请稍后再试' });
      expect((await captcha(d, '198.51.100.91')).statusCode).toBe(200);
      // The token endpoint counts on its own (a sign-in's captcha does not use up its token calls),
      // also for calls with bad client credentials, and answers in the OAuth shape.
      const token = (app: FastifyInstance, headers: Record<string, string>) =>
        app.inject({
          method: 'POST',
          url: '/api/blade-auth/oauth/token?grant_type=refresh_token&refresh_token=x',
          headers,
          remoteAddress: ip,
        });
      for (let i = 0; i < 60; i++)
        expect(
          (await token(i % 2 ? c : d, i < 30 ? clientBasic() : clientBasic('saber', 'wrong'))).statusCode,
        ).not.toBe(429);
      const limitedToken = await token(c, clientBasic());
      expect(limitedToken.statusCode).toBe(429);
      expect(Number(limitedToken.headers['retry-after'])).toBeGreaterThan(0);
      expect(limitedToken.json()).toMatchObject({ error_code: 429, errorCode: 'too_many_requests' });
      expect(limitedToken.json().error_description).toBe('请求过于频繁，请稍后再试');
      // register-guest too, before its token check; and an IPv6 client counts by its /64.
      for (let i = 0; i < 60; i++) {
        const r = await c.inject({
          method: 'POST',
          url: '/api/blade-user/register-guest',
          headers: clientBasic(),
          remoteAddress: `2001:db8:0:7::${(i % 3) + 1}`,
        });
        expect(r.statusCode).toBe(401);
      }
      const guest = await d.inject({
        method: 'POST',
        url: '/api/blade-user/register-guest',
        headers: clientBasic(),
        remoteAddress: '2001:db8:0:7::ff',
      });
      expect(guest.statusCode).toBe(429);
      expect(guest.json().errorCode).toBe('too_many_requests');
    });
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
      'captcha_demanded/failure',
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
    // The failure after which an account needs a captcha from that address is recorded as such.
    const demanded = records.find((r) => r.event === 'captcha_demanded' && r.account === 'locked');
    expect(demanded).toMatchObject({ ip: '198.51.100.20', detail: 'bad_credentials/account_address' });
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
      // What info answers can be sent back as it is: null clears a field.
      const back = await a.inject({
        method: 'POST',
        url: '/api/blade-user/update-info',
        headers: bladeAuth(token),
        payload: { ...again, email: null, avatar: null },
      });
      expect(back.statusCode, back.body).toBe(200);
      expect(back.json().data).toMatchObject({ name: '小王', phone: '13800000001', email: null, avatar: null });
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
