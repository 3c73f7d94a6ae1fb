import { randomBytes } from 'node:crypto';
import { md5 } from '@sprout/core/auth/password';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { testRedisUrl } from '@sprout/core/testing/services';
import { afterAll, beforeAll } from 'vitest';
import { bladeAuth, clientBasic, type FastifyInstance, testApp, testConfig } from '../../testing';
import { addRole, addTenant, addUser, type TestUser, uniquePrefix } from './fixtures';

/**
 * What the token tests (token-*.int.test.ts) share: sign-in as Saber/BladeX front ends make
 * it, on PostgreSQL + Redis, with two replicas (two apps sharing the database and the Redis
 * prefix), four tenants and their users.
 *
 * `useTokenSetup()` in a file's outer describe builds all this before the file's tests and
 * drops it after them; the bindings below hold it meanwhile (each test file has its own).
 */
export let t: TestDatabase;
export let a: FastifyInstance;
export let b: FastifyInstance;
export let teacher: TestUser;
export let principal: TestUser;
export let teacherRole: string;
export let adminRole: string;
export const users: Record<string, TestUser> = {};
export let config: ReturnType<typeof testConfig>;
export let configB: ReturnType<typeof testConfig>;
export let env: Record<string, string>;

export function useTokenSetup() {
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
}

export const info = (app: FastifyInstance, token: string) =>
  app.inject({ method: 'GET', url: '/api/blade-user/info', headers: bladeAuth(token) });

/** A password grant (a captcha grant when `captcha` is given) from the address `ip`. */
export const grant = (
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
