import { inSystem } from '@sprout/core/db';
import { beforeAll, describe, expect, it } from 'vitest';
import { bladeAuth, testApp, testConfig } from '../../testing';
import { passwordGrant, saberToken, type TestUser, uniquePrefix } from './fixtures';
import { a, env, grant, principal, t, teacher, users, useTokenSetup } from './token-setup';

/** The security log: what sign-in records, and who may read it. */
describe('sign-in, tokens and sessions (two replicas on PostgreSQL + Redis)', () => {
  useTokenSetup();

  // What the log is read for: a tenant that does not exist, an account asked for a captcha
  // from one address after failures, a refresh, a reused refresh token and a logout.
  beforeAll(async () => {
    const strict = await testApp(t.database, {
      config: testConfig({ ...env, KV_PREFIX: uniquePrefix(), LOGIN_CAPTCHA_AFTER_FAILURES: '3' }),
    });
    try {
      const locked = users.locked as TestUser;
      for (let i = 0; i < 3; i++) await grant(strict.app, { ...locked, password: `wrong${i}` }, '198.51.100.20');
    } finally {
      await strict.app.close();
    }
    await passwordGrant(a, { tenantId: '999999', account: 'teacher1', password: 'sprout123' });
    const first = (await passwordGrant(a, users.refresher as TestUser)).json();
    // Rotated, taken once more within the grace, then reused: theft.
    for (let i = 0; i < 3; i++)
      await saberToken(a, { tenantId: '100001', refresh_token: first.refresh_token, grant_type: 'refresh_token' });
    const session = (await passwordGrant(a, users.logout as TestUser)).json();
    await a.inject({ method: 'GET', url: '/api/blade-auth/oauth/logout', headers: bladeAuth(session.access_token) });
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
});
