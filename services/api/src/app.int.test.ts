import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '@sprout/core/auth/password';
import { inSystem } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import { BullQueue } from '@sprout/core/queue/bullmq';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { testRedisUrl } from '@sprout/core/testing/services';
import { bladeAuth, type FastifyInstance, testApp, testConfig, tokenFor, userWithRole, fieldNames } from './testing';

/** The HTTP contract of spec §8 on real PostgreSQL and Redis (server mode). */
describe('API platform on PostgreSQL + Redis', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  let admin: string;
  let teacherToken: string;
  let platformAdminId: string;
  const config = testConfig();

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: false });
    const queue = new BullQueue(await testRedisUrl(), `t${randomBytes(4).toString('hex')}`);
    ({ app } = await testApp(t.database, { config, queue }));
    const ids = await inSystem(t.database, async (trx) => {
      const adminUser = await trx
        .selectFrom('app_user')
        .select('id')
        .where('account', '=', 'admin')
        .executeTakeFirstOrThrow();
      // 25 users in tenant 100001 (plus its administrator, below), 3 in 100002, with spread-out create times.
      const hash = await hashPassword('x');
      const rows = [];
      for (let i = 0; i < 25; i++)
        rows.push({
          tenant_id: '100001',
          id: nextId(),
          account: `u${i}`,
          password_hash: hash,
          real_name: `用户${i}`,
          create_time: new Date(Date.UTC(2026, 0, 1 + i)),
        });
      for (let i = 0; i < 3; i++)
        rows.push({ tenant_id: '100002', id: nextId(), account: `other${i}`, password_hash: hash });
      await trx.insertInto('app_user').values(rows).execute();
      return { admin: String(adminUser.id) };
    });
    platformAdminId = ids.admin;
    // The tenant's administrator (seeded role admin), listed after the 25 users above.
    admin = (await userWithRole(t.database, config, '100001', 'admin', { createTime: new Date(Date.UTC(2025, 0, 1)) }))
      .token;
    teacherToken = tokenFor(config, { tenant_id: '100001', user_id: '5', roles: ['teacher'] });
  });
  afterAll(async () => {
    await app?.close();
    await app?.queue.close();
    await t?.drop();
  });

  const page = (q: string, token = admin, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: `/api/blade-user/page${q}`, headers: { ...bladeAuth(token), ...headers } });

  it('answers an unknown route with 404 in the envelope', async () => {
    const r = await app.inject({ method: 'POST', url: '/api/does-not-exist' });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({
      code: 404,
      success: false,
      data: null,
      msg: '接口不存在：POST /api/does-not-exist',
      errorCode: 'route_not_found',
    });
  });

  it('pages a list: records, total, size, current, pages; ids as strings; times formatted', async () => {
    const r = await page('?current=2&size=10');
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ code: 200, success: true, msg: '操作成功' });
    expect(body.data).toMatchObject({ total: 26, size: 10, current: 2, pages: 3 });
    expect(body.data.records).toHaveLength(10);
    const rec = body.data.records[0];
    expect(typeof rec.id).toBe('string');
    expect(rec.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(rec).not.toHaveProperty('password_hash');
    expect(rec).not.toHaveProperty('passwordHash');
    // newest first: page 2 starts at the 11th newest (u14)
    expect(rec.account).toBe('u14');
  });

  it('defaults to current=1, size=10', async () => {
    const body = (await page('')).json();
    expect(body.data).toMatchObject({ current: 1, size: 10, total: 26 });
  });

  it('filters by createTime_dategt / createTime_datelt', async () => {
    const body = (
      await page('?createTime_dategt=2026-01-05%2007:00:00&createTime_datelt=2026-01-10%2007:00:00&size=30')
    ).json();
    expect(body.data.records.map((u: { account: string }) => u.account).sort()).toEqual(['u4', 'u5', 'u6', 'u7', 'u8']);
  });

  it('refuses size=7 with 400 naming size', async () => {
    const r = await page('?size=7');
    expect(r.statusCode).toBe(400);
    const body = r.json();
    expect(body).toMatchObject({ code: 400, success: false, errorCode: 'validation_failed' });
    expect(body.msg).toContain('size');
    expect(body.msg).toContain('10, 30, 50, 100, 200');
    expect(body.fields).toEqual([{ field: 'size', message: '每页条数只能是 10, 30, 50, 100, 200' }]);
  });

  it('names every bad field at once, in English when asked', async () => {
    const r = await page('?size=7&current=0&createTime_dategt=yesterday', admin, { 'accept-language': 'en' });
    expect(r.statusCode).toBe(400);
    const fields = fieldNames(r);
    expect(fields).toEqual(['createTime_dategt', 'current', 'size']);
    expect(r.json().msg).toMatch(/^Invalid parameters: /);
  });

  const platformAdmin = () =>
    tokenFor(config, { tenant_id: '000000', user_id: platformAdminId, roles: ['administrator'] });
  const submitTenant = (payload: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/blade-system/tenant/submit',
      headers: { 'content-type': 'application/json', ...bladeAuth(platformAdmin()), ...headers },
      payload,
    });

  it('answers a malformed JSON body with 400, never 500', async () => {
    for (const payload of ['{bad', '{"tenantName":', '[1,', 'null x', '\u0000']) {
      const r = await submitTenant(payload);
      expect(r.statusCode, payload).toBe(400);
      expect(r.json(), payload).toMatchObject({ code: 400, success: false, errorCode: 'invalid_json' });
    }
  });

  it('names the content type it does not accept (415)', async () => {
    const r = await app.inject({
      method: 'POST',
      url: '/api/blade-system/tenant/submit',
      headers: { 'content-type': 'application/x-unknown; charset=utf-8', ...bladeAuth(platformAdmin()) },
      payload: 'x',
    });
    expect(r.statusCode).toBe(415);
    expect(r.json()).toMatchObject({
      errorCode: 'unsupported_media_type',
      msg: '不支持的请求内容类型：application/x-unknown',
    });
  });

  it('validates a body naming every bad field, and writes nothing', async () => {
    const r = await submitTenant(JSON.stringify({ tenantName: '', domain: 'bad domain!', expireTime: 'soon' }));
    expect(r.statusCode).toBe(400);
    expect(fieldNames(r)).toEqual(['domain', 'expireTime', 'tenantName']);
    const list = await app.inject({
      method: 'GET',
      url: '/api/blade-system/tenant/list?size=100',
      headers: bladeAuth(platformAdmin()),
    });
    expect(list.json().data.total).toBe(1); // only 000000
  });

  it('adds and updates a tenant through submit; the platform lists it', async () => {
    const added = await submitTenant(
      JSON.stringify({ tenantName: '萌芽二园', domain: 'Two.Example.cn', expireTime: '2027-08-31 23:59:59' }),
    );
    expect(added.statusCode).toBe(200);
    const t1 = added.json().data;
    expect(t1).toMatchObject({ tenantName: '萌芽二园', domain: 'two.example.cn', expireTime: '2027-08-31 23:59:59' });
    expect(t1.tenantId).toMatch(/^\d{6}$/);
    const updated = await submitTenant(
      JSON.stringify({ tenantId: t1.tenantId, tenantName: '萌芽第二幼儿园', domain: 'two.example.cn' }),
    );
    expect(updated.json().data).toMatchObject({
      tenantId: t1.tenantId,
      tenantName: '萌芽第二幼儿园',
      expireTime: null,
    });
    const dup = await submitTenant(JSON.stringify({ tenantName: '重复域名', domain: 'two.example.cn' }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 409, success: false, errorCode: 'conflict' });
    const missing = await submitTenant(JSON.stringify({ tenantId: '999999', tenantName: 'x' }));
    expect(missing.statusCode).toBe(404);
  });

  it('lets only the platform tenant manage tenants', async () => {
    // An administrator of another tenant is refused by the role guard and, underneath, by RLS.
    const foreign = tokenFor(config, { tenant_id: '100001', user_id: '1', roles: ['administrator'] });
    const r = await submitTenant(JSON.stringify({ tenantName: 'x' }), bladeAuth(foreign));
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({ code: 403, success: false, errorCode: 'forbidden', msg: '没有权限执行此操作' });
  });

  it('needs a valid token: none → 401, forged → 401, wrong role → 403', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/blade-user/page' })).statusCode).toBe(401);
    const forged = tokenFor(testConfig(), { tenant_id: '100001', user_id: '1', roles: ['admin'] });
    const r = await page('', forged);
    expect(r.statusCode).toBe(401);
    expect(r.json()).toMatchObject({ code: 401, success: false, errorCode: 'token_invalid' });
    expect((await page('', teacherToken)).statusCode).toBe(403);
  });

  it('confines a list to the token’s tenant, whatever Tenant-Id says', async () => {
    const body = (await page('?size=100', admin, { 'tenant-id': '100002' })).json();
    expect(body.data.total).toBe(26);
    expect(body.data.records.every((u: { tenantId: string }) => u.tenantId === '100001')).toBe(true);
  });

  it('reports readiness of the database and the queue', async () => {
    const r = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toMatchObject({ status: 'UP', checks: { database: 'UP', queue: 'UP' }, mode: 'embedded' });
  });

  it('serves OpenAPI generated from the route schemas', async () => {
    const r = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(r.statusCode).toBe(200);
    const doc = r.json();
    expect(doc.openapi).toMatch(/^3\./);
    const params = doc.paths['/api/blade-user/page'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(['current', 'size', 'createTime_dategt', 'account']));
  });

  it('hides internals of a 500', async () => {
    const r = await app.inject({ method: 'GET', url: '/api/blade-user/page?deptId=99999999999999999999' });
    // 20 digits fails the schema; a value PostgreSQL rejects would still be a 4xx
    expect(r.statusCode).toBeLessThan(500);
  });
});

describe('API with the web app built', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  beforeAll(async () => {
    const { mkdtempSync, writeFileSync, mkdirSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dist = mkdtempSync(join(tmpdir(), 'sprout-web-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>萌芽教学管理平台</title>');
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    t = await createTestDatabase();
    ({ app } = await testApp(t.database, { config: testConfig({ WEB_DIST: dist }) }));
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('serves the app publicly and keeps every API route behind sign-in', async () => {
    expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
    const asset = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const deep = await app.inject({ method: 'GET', url: '/week/week/', headers: { accept: 'text/html' } });
    expect(deep.statusCode).toBe(200);
    expect(deep.body).toContain('萌芽教学管理平台');
    for (const url of ['/api/blade-user/page', '/api/blade-system/tenant/list']) {
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
    expect((await app.inject({ method: 'POST', url: '/api/blade-system/tenant/submit', payload: {} })).statusCode).toBe(
      401,
    );
  });
});
