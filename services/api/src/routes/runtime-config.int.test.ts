import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { addTenant } from '../modules/auth/fixtures';
import { testApp, testConfig } from '../testing';

/** The web app's runtime configuration follows the server's settings (issue 14). */
describe('GET /api/sprout/runtime-config', () => {
  let t: TestDatabase;
  const apps: FastifyInstance[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const { app } = await testApp(t.database, { config: testConfig(env) });
    apps.push(app);
    return app;
  };

  const provider = (tenantId: string, source: string, name: string, status = 1) =>
    inSystem(t.database, (trx) =>
      trx
        .insertInto('oauth_provider')
        .values({
          tenant_id: tenantId,
          id: nextId(),
          source,
          name,
          status,
          client_id: 'c',
          client_secret: 's',
          authorize_url: 'https://idp.example.com/auth',
          token_url: 'https://idp.example.com/token',
          userinfo_url: 'https://idp.example.com/me',
          redirect_uri: 'https://sprout.example.com/oauth/redirect',
        })
        .execute(),
    );

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: false });
    await addTenant(t.database, { tenant_id: '100007', domain: 'kg7.example.com' });
    await provider('100007', 'github', 'GitHub');
    await provider('100007', 'gitlab', 'GitLab (off)', 0);
    await provider('000000', 'wechat', '微信');
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await t?.drop();
  });

  const get = (app: FastifyInstance, query = '') =>
    app.inject({ method: 'GET', url: `/api/sprout/runtime-config${query}` });

  it('answers anyone, without credentials, with the defaults of the settings', async () => {
    const app = await start();
    const r = await get(app);
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.json().data).toEqual({
      tenantMode: true,
      defaultTenantId: '000000',
      tenantId: '000000',
      captchaMode: false,
      accessTokenTtl: 3600,
      tokenTime: 3000,
      social: [{ source: 'wechat', name: '微信' }],
    });
  });

  it('follows CAPTCHA_ENABLED and ACCESS_TOKEN_TTL', async () => {
    const app = await start({ CAPTCHA_ENABLED: 'true', ACCESS_TOKEN_TTL: '1200' });
    const data = (await get(app)).json().data;
    expect(data.captchaMode).toBe(true);
    expect(data.accessTokenTtl).toBe(1200);
    expect(data.tokenTime).toBe(1000);
  });

  it('lists the enabled social sources of the tenant asked for, or of the domain’s tenant', async () => {
    const app = apps[0] as FastifyInstance;
    const byId = (await get(app, '?tenantId=100007')).json().data;
    expect(byId.tenantId).toBe('100007');
    expect(byId.social).toEqual([{ source: 'github', name: 'GitHub' }]);
    const byDomain = (await get(app, '?domain=KG7.example.com')).json().data;
    expect(byDomain).toMatchObject({ tenantId: '100007', social: [{ source: 'github', name: 'GitHub' }] });
    // An unknown domain or a tenant without providers: the default's, or none.
    expect((await get(app, '?domain=nowhere.example.com')).json().data.tenantId).toBe('000000');
    expect((await get(app, '?tenantId=100008')).json().data.social).toEqual([]);
  });

  it('ignores the tenant asked for when TENANT_MODE is off', async () => {
    const app = await start({ TENANT_MODE: 'false' });
    const data = (await get(app, '?tenantId=100007')).json().data;
    expect(data).toMatchObject({ tenantMode: false, tenantId: '000000', social: [{ source: 'wechat' }] });
  });

  it('refuses a malformed tenant number with a 400 naming it', async () => {
    const r = await get(apps[0] as FastifyInstance, '?tenantId=abc');
    expect(r.statusCode).toBe(400);
    expect(JSON.stringify(r.json())).toContain('tenantId');
  });
});
