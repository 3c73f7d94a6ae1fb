import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { bladeAuth, clientBasic, testApp, testConfig, tokenFor, userWithRole } from '../testing';

/**
 * HTTP hardening as a browser sees it: security headers on the web app, an API call and an
 * error; HSTS only behind TLS; CORS closed by default and open to the CORS_ORIGINS allowlist,
 * preflights answered before sign-in; the API docs public or the platform administrator's.
 */
describe('security headers, CORS and API docs visibility', () => {
  let t: TestDatabase;
  const apps: FastifyInstance[] = [];
  let dist: string;
  let platformAdmin: string;
  let tenantAdmin: string;
  let secret = '';

  const start = async (env: Record<string, string> = {}) => {
    const config = testConfig({ WEB_DIST: dist, ...env });
    const { app } = await testApp(t.database, { config });
    apps.push(app);
    return { app, config };
  };

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'sprout-web-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>萌芽教学管理平台</title>');
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    t = await createTestDatabase();
    await seed(t.database, { demo: false });
    const { config } = await start();
    const id = await inSystem(t.database, async (trx) =>
      trx
        .selectFrom('app_user')
        .select('id')
        .where('tenant_id', '=', '000000')
        .where('account', '=', 'admin')
        .executeTakeFirstOrThrow(),
    );
    // Tokens are signed with each app's JWT_SECRET: the apps below share this one's secret.
    platformAdmin = tokenFor(config, { tenant_id: '000000', user_id: String(id.id) });
    tenantAdmin = (await userWithRole(t.database, config, '100001', 'admin')).token;
    secret = config.JWT_SECRET;
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await t?.drop();
  });

  const csp = (headers: Record<string, unknown>) => {
    const value = String(headers['content-security-policy'] ?? '');
    return new Map(
      value
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((d) => d[0])
        .map(([name, ...values]) => [name as string, values]),
    );
  };

  it('sends the security headers on the web app, an API call, an API error and a 404', async () => {
    const app = apps[0] as FastifyInstance;
    const answers = {
      page: await app.inject({ method: 'GET', url: '/' }),
      deepLink: await app.inject({ method: 'GET', url: '/week/week', headers: { accept: 'text/html' } }),
      asset: await app.inject({ method: 'GET', url: '/assets/app-abc123.js' }),
      api: await app.inject({ method: 'GET', url: '/api/blade-auth/oauth/user-info', headers: bladeAuth(tenantAdmin) }),
      unauthorized: await app.inject({ method: 'GET', url: '/api/blade-user/page' }),
      missing: await app.inject({ method: 'GET', url: '/api/no/such/route' }),
    };
    expect(answers.page.statusCode).toBe(200);
    expect(answers.api.statusCode).toBe(200);
    expect(answers.unauthorized.statusCode).toBe(401);
    expect(answers.missing.statusCode).toBe(404);
    for (const [name, r] of Object.entries(answers)) {
      const h = r.headers;
      expect(h['x-content-type-options'], name).toBe('nosniff');
      expect(h['referrer-policy'], name).toBe('no-referrer');
      expect(h['x-frame-options'], name).toBe('SAMEORIGIN');
      // Over plain HTTP there is no HSTS.
      expect(h['strict-transport-security'], name).toBeUndefined();
      const policy = csp(h);
      // Scripts only from this origin, never inline; nothing frames Sprout but Sprout.
      expect(policy.get('script-src'), name).toEqual(["'self'"]);
      expect(policy.get('script-src-attr'), name).toEqual(["'none'"]);
      expect(policy.get('default-src'), name).toEqual(["'self'"]);
      expect(policy.get('object-src'), name).toEqual(["'none'"]);
      expect(policy.get('frame-ancestors'), name).toEqual(["'self'"]);
      // The iframe route embeds the http(s) pages a menu points to.
      expect(policy.get('frame-src'), name).toEqual(expect.arrayContaining(['http:', 'https:']));
    }
  });

  it('sends HSTS only when the request arrived over TLS (behind a trusted proxy)', async () => {
    const { app } = await start({ TRUST_PROXY: 'true', JWT_SECRET: secret });
    const overTls = await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(overTls.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const error = await app.inject({
      method: 'GET',
      url: '/api/blade-user/page',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(error.statusCode).toBe(401);
    expect(error.headers['strict-transport-security']).toContain('max-age=');
    const plain = await app.inject({ method: 'GET', url: '/api/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // Without TRUST_PROXY a forged X-Forwarded-Proto changes nothing.
    const closed = apps[0] as FastifyInstance;
    const forged = await closed.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
  });

  const preflight = (app: FastifyInstance, origin: string) =>
    app.inject({
      method: 'OPTIONS',
      url: '/api/blade-user/page',
      headers: {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization,blade-auth,tenant-id',
      },
    });

  it('is same-origin by default: a preflight is answered, but no other origin is allowed', async () => {
    const app = apps[0] as FastifyInstance;
    const r = await preflight(app, 'https://saber.example.com');
    expect(r.statusCode).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
    const call = await app.inject({
      method: 'GET',
      url: '/api/blade-auth/oauth/user-info',
      headers: { ...bladeAuth(tenantAdmin), origin: 'https://saber.example.com' },
    });
    expect(call.headers['access-control-allow-origin']).toBeUndefined();
    expect(call.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('lets the CORS_ORIGINS allowlist call the API from a browser, with its headers, and nobody else', async () => {
    const { app } = await start({ CORS_ORIGINS: 'https://saber.example.com', JWT_SECRET: secret });
    const ok = await preflight(app, 'https://saber.example.com');
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe('https://saber.example.com');
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    const allowed = String(ok.headers['access-control-allow-headers']).toLowerCase();
    for (const h of ['authorization', 'blade-auth', 'tenant-id', 'captcha-key', 'captcha-code', 'content-type'])
      expect(allowed).toContain(h);
    expect(String(ok.headers['access-control-allow-methods'])).toContain('POST');
    // The preflight carries no credentials: it is answered before sign-in, not with a 401.
    const call = await app.inject({
      method: 'GET',
      url: '/api/blade-auth/oauth/user-info',
      headers: { ...bladeAuth(tenantAdmin), origin: 'https://saber.example.com' },
    });
    expect(call.statusCode).toBe(200);
    expect(call.headers['access-control-allow-origin']).toBe('https://saber.example.com');
    expect(String(call.headers.vary)).toContain('Origin');
    // Its pages may load our files (avatars): the resource policy lets other origins in.
    expect(call.headers['cross-origin-resource-policy']).toBe('cross-origin');
    // Errors carry it too, so the front end can read the envelope of a 401.
    const refused = await app.inject({
      method: 'GET',
      url: '/api/blade-user/page',
      headers: { origin: 'https://saber.example.com' },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe('https://saber.example.com');

    const other = await preflight(app, 'https://evil.example.net');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const otherCall = await app.inject({
      method: 'GET',
      url: '/api/blade-auth/oauth/user-info',
      headers: { ...bladeAuth(tenantAdmin), origin: 'https://evil.example.net' },
    });
    expect(otherCall.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('serves the API docs to anyone when API_DOCS_PUBLIC is on (the embedded default)', async () => {
    const { app, config } = await start({ JWT_SECRET: secret });
    expect(config.mode).toBe('embedded');
    expect(config.API_DOCS_PUBLIC).toBe(true);
    const json = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(json.statusCode).toBe(200);
    expect(json.json().openapi).toMatch(/^3\./);
    const page = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger');
    // The Swagger UI page runs under the same CSP: its scripts are files, not inline.
    expect(page.body).not.toMatch(/<script>(?!\s*<\/script>)/);
  });

  it('serves the API docs only to the platform administrator when API_DOCS_PUBLIC is off (the server default)', async () => {
    const { app, config } = await start({ API_DOCS_PUBLIC: 'false', JWT_SECRET: secret });
    expect(config.API_DOCS_PUBLIC).toBe(false);
    for (const url of ['/api/docs/json', '/api/docs/yaml', '/api/docs/']) {
      const anonymous = await app.inject({ method: 'GET', url });
      expect(anonymous.statusCode, url).toBe(401);
      expect(anonymous.json()).toMatchObject({ success: false, errorCode: 'unauthorized' });
      expect((await app.inject({ method: 'GET', url, headers: clientBasic() })).statusCode, url).toBe(401);
      const admin = await app.inject({ method: 'GET', url, headers: bladeAuth(tenantAdmin) });
      expect(admin.statusCode, url).toBe(403);
      expect(admin.json()).toMatchObject({ errorCode: 'forbidden' });
      expect((await app.inject({ method: 'GET', url, headers: bladeAuth(platformAdmin) })).statusCode, url).toBe(200);
    }
    // Swagger UI's own files (the library, nothing about the API) need a sign-in only.
    expect((await app.inject({ method: 'GET', url: '/api/docs/static/swagger-ui.css' })).statusCode).toBe(401);
    const json = await app.inject({ method: 'GET', url: '/api/docs/json', headers: bladeAuth(platformAdmin) });
    expect(Object.keys(json.json().paths)).toContain('/api/blade-user/page');
  });
});
