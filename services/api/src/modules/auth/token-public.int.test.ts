import { describe, expect, it } from 'vitest';
import { a, useTokenSetup } from './token-setup';

/** The calls a sign-in page makes before anyone signs in, and what stays behind the client check. */
describe('sign-in, tokens and sessions (two replicas on PostgreSQL + Redis)', () => {
  useTokenSetup();

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
