import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5 } from '@sprout/core/auth/password';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { testRedisUrl } from '@sprout/core/testing/services';
import { bladeAuth, clientBasic, type FastifyInstance, testApp, testConfig } from '../../testing';
import { addRole, addTenant, addUser, passwordGrant, saberToken, type TestUser, uniquePrefix } from './fixtures';
import { configureProvider, OIDC_CLIENT, REDIRECT_URI, startOidcProvider, type TestOidc } from './oidc-fixture';

/**
 * Social sign-in against a real OpenID Connect provider on loopback, through the whole
 * path a Saber front end takes: render → provider → code → social grant → user_id "-1" →
 * register-guest → administrator approval → signed in.
 */
describe('social sign-in through a local OpenID Connect provider', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  let oidc: TestOidc;
  let admin: TestUser;
  let adminToken: string;

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: false });
    oidc = await startOidcProvider({
      alice: {
        preferred_username: 'alice.w',
        name: 'Alice 王',
        email: 'alice@example.cn',
        picture: 'https://img.example.cn/a.png',
        phone_number: '13900000001',
      },
      carol: { preferred_username: 'carol', name: 'Carol' },
      dave: { preferred_username: 'dave', name: 'Dave' },
      // A provider that sends control characters and an unpaired surrogate in its names.
      erin: { preferred_username: 'erin\u0000w', name: 'Erin\u0007 李\ud800' },
    });
    const config = testConfig({ REDIS_URL: await testRedisUrl(), KV_PREFIX: uniquePrefix() });
    ({ app } = await testApp(t.database, { config }));
    await addTenant(t.database, { tenant_id: '100001', tenant_name: '萌芽实验幼儿园' });
    await addTenant(t.database, { tenant_id: '100005', tenant_name: '没有第三方登录的幼儿园' });
    await configureProvider(t.database, '100001', 'sprout-oidc', oidc.issuer);
    admin = await addUser(t.database, {
      tenantId: '100001',
      account: 'principal',
      roleIds: [await addRole(t.database, '100001', 'admin')],
    });
    await addUser(t.database, { tenantId: '100001', account: 'teacher1' });
    adminToken = (await passwordGrant(app, admin)).json().access_token;
  });
  afterAll(async () => {
    await app?.close();
    await oidc?.close();
    await t?.drop();
  });

  /** The browser part: Sprout's render redirect, then the provider's sign-in, back with a code. */
  async function codeFor(account: string, tenantId = '100001') {
    const render = await app.inject({
      method: 'GET',
      url: `/api/blade-auth/oauth/render/sprout-oidc?tenantId=${tenantId}`,
    });
    expect(render.statusCode).toBe(302);
    return oidc.authorize(render.headers.location as string, account);
  }

  const socialGrant = (p: { code: string; state: string }, tenantId = '100001') =>
    saberToken(app, {
      tenantId,
      source: 'sprout-oidc',
      code: p.code,
      state: p.state,
      grant_type: 'social',
      scope: 'all',
    });

  const registerGuest = (token: string, q: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: `/api/blade-user/register-guest?${new URLSearchParams(q)}`,
      headers: bladeAuth(token),
    });

  it('walks a new social user through user_id -1, registration, approval and sign-in', async () => {
    // 1. First social sign-in: no local account yet.
    const first = await socialGrant(await codeFor('alice'));
    expect(first.statusCode).toBe(200);
    const guest = first.json();
    expect(guest).toMatchObject({
      user_id: '-1',
      tenant_id: '100001',
      account: 'alice.w',
      user_name: 'alice.w',
      nick_name: 'Alice 王',
      avatar: 'https://img.example.cn/a.png',
      role_id: '',
      refresh_token: '',
      token_type: 'bearer',
    });
    expect(guest.oauth_id).toMatch(/^\d+$/);
    expect(guest.access_token).toBeTruthy();

    // The guest token reaches the registration and sign-out calls, nothing else.
    const info = await app.inject({
      method: 'GET',
      url: '/api/blade-user/info',
      headers: bladeAuth(guest.access_token),
    });
    expect(info.statusCode).toBe(403);
    expect(info.json().msg).toBe('请先完成账号注册');
    const ui = await app.inject({
      method: 'GET',
      url: '/api/blade-auth/oauth/user-info',
      headers: bladeAuth(guest.access_token),
    });
    expect(ui.json().data).toMatchObject({ userId: '-1', oauthId: guest.oauth_id });

    // 2. The registration dialog (Saber sends its fields in the query string).
    const fields = {
      tenantId: '100001',
      name: 'Alice 王',
      account: 'alice',
      password: md5('alice-pass'),
      oauthId: guest.oauth_id,
    };
    const taken = await registerGuest(guest.access_token, { ...fields, account: 'teacher1' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().msg).toBe('账号已存在');
    const wrongTenant = await registerGuest(guest.access_token, { ...fields, tenantId: '100005' });
    expect(wrongTenant.json().msg).toBe('租户编号与当前登录不一致');
    const reg = await registerGuest(guest.access_token, fields);
    expect(reg.statusCode).toBe(200);
    expect(reg.json()).toMatchObject({ code: 200, success: true, msg: '注册申请已提交,请耐心等待管理员通过!' });
    const userId = reg.json().data.userId as string;
    const twice = await registerGuest(guest.access_token, { ...fields, account: 'alice2' });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().msg).toBe('该第三方账号已注册或已提交注册申请');
    // The web app then signs the guest out.
    expect(
      (await app.inject({ method: 'GET', url: '/api/blade-auth/oauth/logout', headers: bladeAuth(guest.access_token) }))
        .statusCode,
    ).toBe(200);

    // 3. Pending: neither a social nor a password sign-in gets in, and both say why.
    const pendingSocial = await socialGrant(await codeFor('alice'));
    expect(pendingSocial.statusCode).toBe(400);
    expect(pendingSocial.json().error_description).toBe('账号正在审核中，请等待管理员通过');
    const pendingPassword = await passwordGrant(app, { tenantId: '100001', account: 'alice', password: 'alice-pass' });
    expect(pendingPassword.json().error_description).toBe('账号正在审核中，请等待管理员通过');

    // 4. An administrator finds and approves the registration.
    const pending = await app.inject({
      method: 'GET',
      url: '/api/blade-user/audit-list',
      headers: bladeAuth(adminToken),
    });
    expect(pending.json().data.records.map((u: { account: string }) => u.account)).toContain('alice');
    const teacherToken = (
      await passwordGrant(app, { tenantId: '100001', account: 'teacher1', password: 'sprout123' })
    ).json().access_token;
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `/api/blade-user/audit-pass?userIds=${userId}`,
          headers: bladeAuth(teacherToken),
        })
      ).statusCode,
    ).toBe(403);
    const pass = await app.inject({
      method: 'POST',
      url: `/api/blade-user/audit-pass?userIds=${userId}`,
      headers: bladeAuth(adminToken),
    });
    expect(pass.statusCode).toBe(200);
    expect(pass.json().msg).toBe('审核通过');
    const again = await app.inject({
      method: 'POST',
      url: `/api/blade-user/audit-pass?userIds=${userId}`,
      headers: bladeAuth(adminToken),
    });
    expect(again.json().msg).toBe('所选用户中有不在待审核状态的用户');

    // 5. Signed in, socially and with the password chosen at registration.
    const signedIn = await socialGrant(await codeFor('alice'));
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({
      user_id: userId,
      account: 'alice',
      oauth_id: guest.oauth_id,
      tenant_id: '100001',
    });
    expect(signedIn.json().refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const me = await app.inject({
      method: 'GET',
      url: '/api/blade-user/info',
      headers: bladeAuth(signedIn.json().access_token),
    });
    expect(me.json().data).toMatchObject({ id: userId, account: 'alice', name: 'Alice 王', status: 1 });
    expect(
      (await passwordGrant(app, { tenantId: '100001', account: 'alice', password: 'alice-pass' })).statusCode,
    ).toBe(200);

    // The approval is in the security log, naming who approved.
    const log = await app.inject({
      method: 'GET',
      url: '/api/blade-log/security/list?event=registration_approved',
      headers: bladeAuth(adminToken),
    });
    expect(log.json().data.records[0]).toMatchObject({
      account: 'alice',
      userId,
      actorId: admin.id,
      result: 'success',
    });
  });

  it('tells a rejected registrant so', async () => {
    const guest = (await socialGrant(await codeFor('carol'))).json();
    const reg = await registerGuest(guest.access_token, {
      tenantId: '100001',
      name: 'Carol',
      account: 'carol',
      password: md5('c-pass'),
      oauthId: guest.oauth_id,
    });
    const userId = reg.json().data.userId;
    const refuse = await app.inject({
      method: 'POST',
      url: `/api/blade-user/audit-refuse?userIds=${userId}`,
      headers: bladeAuth(adminToken),
    });
    expect(refuse.json()).toMatchObject({ success: true, msg: '已拒绝注册申请' });
    const r = await socialGrant(await codeFor('carol'));
    expect(r.statusCode).toBe(400);
    expect(r.json().error_description).toBe('注册申请未通过，请联系管理员');
  });

  it('refuses a replayed state, a forged state and a bad code', async () => {
    const p = await codeFor('dave');
    expect((await socialGrant(p)).json().user_id).toBe('-1');
    const replay = await socialGrant(p);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error_description).toBe('第三方登录已失效，请重新发起登录');
    const forged = await socialGrant({ code: 'whatever', state: 'A'.repeat(32) });
    expect(forged.json().error_description).toBe('第三方登录已失效，请重新发起登录');
    const fresh = await codeFor('dave');
    const badCode = await socialGrant({ code: 'not-the-code', state: fresh.state });
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json().error_description).toBe('第三方登录失败，请重试');
    // A state minted for one tenant does not open another.
    const other = await codeFor('dave');
    expect((await socialGrant(other, '100005')).json().error_description).toBe('第三方登录已失效，请重新发起登录');
  });

  it('reads the phone number a provider access token vouches for (phoneByToken)', async () => {
    const { code } = await codeFor('alice');
    // The mobile client's part: it holds a provider access token of its own.
    const res = await fetch(`${oidc.issuer}/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${OIDC_CLIENT.id}:${OIDC_CLIENT.secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI }).toString(),
    });
    const providerToken = ((await res.json()) as { access_token: string }).access_token;
    const r = await app.inject({
      method: 'POST',
      url: `/api/blade-auth/oauth/phoneByToken?token=${encodeURIComponent(providerToken)}&source=sprout-oidc`,
      headers: { ...clientBasic(), 'tenant-id': '100001' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toEqual({ phone: '13900000001' });
    const bad = await app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/phoneByToken?token=forged',
      headers: { ...clientBasic(), 'tenant-id': '100001' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe('第三方登录失败，请重试');
  });

  it('keeps the characters the text rule forbids out of what a provider sends (no failed sign-in)', async () => {
    const { code } = await codeFor('erin');
    const r = await app.inject({
      method: 'GET',
      url: `/api/login/login/getUserInfo?authCode=${encodeURIComponent(code)}&tenantId=100001`,
      headers: clientBasic(),
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toMatchObject({ uuid: 'erin', username: 'erinw', nickname: 'Erin 李' });
  });

  it('says when a tenant has no such provider', async () => {
    const r = await app.inject({ method: 'GET', url: '/api/blade-auth/oauth/render/sprout-oidc?tenantId=100005' });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ success: false, msg: '未配置该第三方登录：sprout-oidc' });
  });

  it('exchanges a third-party code for the account behind it (getUserInfo)', async () => {
    const { code } = await codeFor('alice');
    const r = await app.inject({
      method: 'GET',
      url: `/api/login/login/getUserInfo?authCode=${encodeURIComponent(code)}&tenantId=100001`,
      headers: clientBasic(),
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toMatchObject({
      uuid: 'alice',
      username: 'alice.w',
      email: 'alice@example.cn',
      phone: '13900000001',
      source: 'sprout-oidc',
    });
    expect(r.json().data.userId).toMatch(/^\d+$/); // alice registered and was approved above
    const used = await app.inject({
      method: 'GET',
      url: `/api/login/login/getUserInfo?authCode=${encodeURIComponent(code)}&tenantId=100001`,
      headers: clientBasic(),
    });
    expect(used.statusCode).toBe(400);
    expect(used.json().msg).toBe('第三方登录失败，请重试');
    expect((await app.inject({ method: 'GET', url: `/api/login/login/getUserInfo?authCode=x` })).statusCode).toBe(401);
  });
});
