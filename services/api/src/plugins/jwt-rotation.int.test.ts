import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyJwt } from '@sprout/core/auth/jwt';
import { md5 } from '@sprout/core/auth/password';
import { type Database, openDatabase } from '@sprout/core/db';
import { migrateToLatest } from '@sprout/core/db/migrate';
import { seed } from '@sprout/core/seed';
import { bladeAuth, clientBasic, type FastifyInstance, testApp, testConfig } from '../testing';

const OLD = `old-${'o'.repeat(40)}`;
const NEW = `new-${'n'.repeat(40)}`;

/**
 * Rotating JWT_SECRET (docs/OPERATIONS.md): processes deployed with the new secret and the old
 * one in JWT_SECRET_PREVIOUS keep accepting the access tokens signed before, sign new ones with
 * the new secret, and refresh sessions begun before; without it the old tokens are refused.
 */
describe('JWT_SECRET rotation', () => {
  let database: Database;
  let before: FastifyInstance;
  let during: FastifyInstance;
  let after: FastifyInstance;

  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    await migrateToLatest(database.db as never);
    await seed(database, { demo: true });
    ({ app: before } = await testApp(database, { config: testConfig({ JWT_SECRET: OLD }) }));
    ({ app: during } = await testApp(database, { config: testConfig({ JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: OLD }) }));
    ({ app: after } = await testApp(database, { config: testConfig({ JWT_SECRET: NEW }) }));
  }, 300_000);
  afterAll(async () => {
    await Promise.all([before?.close(), during?.close(), after?.close()]);
    await database?.close();
  });

  const signIn = async (app: FastifyInstance) => {
    const q = new URLSearchParams({
      tenantId: '100001',
      username: 'teacher1',
      password: md5('sprout123'),
      grant_type: 'password',
      scope: 'all',
      type: 'account',
    });
    const r = await app.inject({
      method: 'POST',
      url: `/api/blade-auth/oauth/token?${q}`,
      headers: { ...clientBasic(), 'tenant-id': '100001' },
    });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as { access_token: string; refresh_token: string };
  };
  const info = (app: FastifyInstance, token: string) =>
    app.inject({ method: 'GET', url: '/api/blade-user/info', headers: bladeAuth(token) });

  it('keeps earlier tokens valid during the rotation, signs and refreshes with the new secret, refuses them after', async () => {
    const old = await signIn(before);
    expect((await info(before, old.access_token)).statusCode).toBe(200);
    expect((await info(during, old.access_token)).statusCode).toBe(200);
    expect((await info(after, old.access_token)).statusCode).toBe(401);

    const fresh = await signIn(during);
    expect(verifyJwt(fresh.access_token, NEW).ok).toBe(true);
    expect(verifyJwt(fresh.access_token, OLD).ok).toBe(false);
    expect((await info(after, fresh.access_token)).statusCode).toBe(200);

    // A session begun before the rotation refreshes into a token of the new secret.
    const q = new URLSearchParams({
      tenantId: '100001',
      grant_type: 'refresh_token',
      scope: 'all',
      refresh_token: old.refresh_token,
    });
    const refreshed = await during.inject({
      method: 'POST',
      url: `/api/blade-auth/oauth/token?${q}`,
      headers: { ...clientBasic(), 'tenant-id': '100001' },
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(verifyJwt(refreshed.json().access_token, NEW).ok).toBe(true);
  });
});
