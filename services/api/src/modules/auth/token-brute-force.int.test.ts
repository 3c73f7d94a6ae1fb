import { md5 } from '@sprout/core/auth/password';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientBasic, type FastifyInstance, testApp, testConfig } from '../../testing';
import { peekKv, type TestUser, uniquePrefix } from './fixtures';
import { env, grant, t, users, useTokenSetup } from './token-setup';

/** Brute force: a captcha instead of a lock, and the rate limits, with the production defaults. */
describe('sign-in, tokens and sessions (two replicas on PostgreSQL + Redis)', () => {
  useTokenSetup();

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
});
