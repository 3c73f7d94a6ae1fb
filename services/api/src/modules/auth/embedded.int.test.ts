import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5 } from '@sprout/core/auth/password';
import { type Database, openDatabase } from '@sprout/core/db';
import { migrateToLatest } from '@sprout/core/db/migrate';
import { seed } from '@sprout/core/seed';
import { bladeAuth, type FastifyInstance, testApp, testConfig } from '../../testing';
import { addTenant, addUser, passwordGrant, saberToken } from './fixtures';

/** The embedded default: PGlite and the in-memory key-value store (no REDIS_URL). */
describe('sign-in in embedded mode (PGlite, in-memory store)', () => {
  let database: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    await migrateToLatest(database.db as never);
    await seed(database, { demo: false });
    await addTenant(database, { tenant_id: '100001' });
    await addUser(database, { tenantId: '100001', account: 'teacher1' });
    // The shipped sign-in limits and rate limit, on the in-memory stores.
    const limits = { LOGIN_CAPTCHA_AFTER_FAILURES: '3', LOGIN_MAX_FAILURES: '10', RATE_LIMIT_PER_MINUTE: '60' };
    ({ app } = await testApp(database, { config: testConfig(limits) }));
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('signs in the seeded admin, refreshes, asks for a captcha after failures, rate-limits, and signs out', async () => {
    expect(app.auth.kv.kind).toBe('memory');
    const admin = await saberToken(app, {
      tenantId: '000000',
      username: 'admin',
      password: md5('admin'),
      grant_type: 'password',
      scope: 'all',
    });
    expect(admin.statusCode).toBe(200);
    expect(admin.json()).toMatchObject({ tenant_id: '000000', account: 'admin', role_name: 'administrator' });
    const refreshed = await saberToken(app, {
      tenantId: '000000',
      refresh_token: admin.json().refresh_token,
      grant_type: 'refresh_token',
    });
    expect(refreshed.statusCode).toBe(200);
    const token = refreshed.json().access_token;
    expect(
      (await app.inject({ method: 'GET', url: '/api/blade-user/info', headers: bladeAuth(token) })).statusCode,
    ).toBe(200);
    const teacher = { tenantId: '100001', account: 'teacher1', password: 'sprout123' };
    for (let i = 0; i < 3; i++) await passwordGrant(app, { ...teacher, password: 'bad' });
    expect((await passwordGrant(app, teacher)).json().errorCode).toBe('captcha_required');
    const captcha = async () => {
      const r = await app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha' });
      const key = r.json().key as string;
      return { statusCode: r.statusCode, key, code: (await app.auth.kv.get(`captcha:${key}`)) as string };
    };
    const c = await captcha();
    const withCaptcha = await passwordGrant(app, teacher, { 'captcha-key': c.key, 'captcha-code': c.code });
    expect(withCaptcha.statusCode).toBe(200);
    // The in-memory rate limit: 60 captchas a minute from one address (one used above), then 429.
    for (let i = 0; i < 59; i++) expect((await captcha()).statusCode).toBe(200);
    const over = await app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha' });
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(
      (await app.inject({ method: 'GET', url: '/api/blade-auth/oauth/logout', headers: bladeAuth(token) })).statusCode,
    ).toBe(200);
    expect(
      (await app.inject({ method: 'GET', url: '/api/blade-user/info', headers: bladeAuth(token) })).statusCode,
    ).toBe(401);
  });
});
