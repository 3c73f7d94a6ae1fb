// The Sprout app on PostgreSQL (+ Redis when reachable) for the sign-in benchmarks:
//  - the password grant exactly as Saber sends it;
//  - one authenticated GET (the caller's own user row, one statement) and the very same
//    handler on a route with auth switched off (public, fixed caller), side by side.
import type { FastifyInstance } from 'fastify';
import { buildApp } from '@sprout/api/app';
import { presentOwnUser } from '@sprout/api/modules/auth/presenters';
import { loadOwnUser } from '@sprout/api/modules/auth/queries';
import { addTenant, addUser } from '@sprout/api/modules/auth/fixtures';
import { bladeAuth, clientBasic } from '@sprout/api/testing';
import { md5, verifyPassword } from '@sprout/core/auth/password';
import { ok } from '@sprout/core/http/envelope';
import { MemoryQueue } from '@sprout/core/queue';
import { seed } from '@sprout/core/seed';
import { createTestDatabase } from '@sprout/core/testing/pg';
import { benchConfig } from './bench-config';

const t = await createTestDatabase(16);
await seed(t.database, { demo: false });
await addTenant(t.database, { tenant_id: '100001', tenant_name: '萌芽实验幼儿园' });
const user = await addUser(t.database, { tenantId: '100001', account: 'teacher1', password: 'sprout123' });
// The bench's bare verify checks this very hash (same salt and parameters as the grant's).
const stored = await t.database.db
  .selectFrom('app_user')
  .select('password_hash')
  .where('tenant_id', '=', '100001')
  .where('id', '=', user.id)
  .executeTakeFirstOrThrow();

const { config, redisUrl } = await benchConfig('bench', { LOGIN_MAX_FAILURES_PER_IP: '100000' });

async function benchRoutes(app: FastifyInstance) {
  const tz = app.config.TIME_ZONE;
  const me = async (ctx: { tenantId: string; userId: string }) => {
    const u = await loadOwnUser(app.database, ctx);
    return ok(u ? presentOwnUser(u, tz) : null);
  };
  // Self-service (the caller's own row): the token check, not the route check, is measured here.
  app.get('/api/bench/me', { config: { access: 'authenticated' } }, async (request) =>
    me({ tenantId: request.user?.tenant_id as string, userId: request.user?.user_id as string }),
  );
  app.get('/api/bench/me-open', { config: { public: true } }, async () => me({ tenantId: '100001', userId: user.id }));
  // The verify alone behind the very hooks the token endpoint runs (client credentials, the
  // sensitive rate limit, the text rule): what HTTP and the hooks cost a sign-in, apart from
  // the grant's own work (throttle counts, account read, session insert, token).
  app.post('/api/bench/verify', { config: { clientOnly: true, limit: 'sensitive' } }, async () => {
    if (!(await verifyPassword(stored.password_hash as string, md5('sprout123')))) throw new Error('verify failed');
    return ok(true);
  });
}

const app = await buildApp(config, {
  database: t.database,
  queue: new MemoryQueue(),
  fastify: { logger: false },
  plugins: [benchRoutes],
});
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

const params = new URLSearchParams({
  tenantId: '100001',
  username: 'teacher1',
  password: md5('sprout123'),
  grant_type: 'password',
  scope: 'all',
  type: 'account',
});
const signIn = await fetch(`${base}/api/blade-auth/oauth/token?${params}`, {
  method: 'POST',
  headers: { ...clientBasic(), 'tenant-id': '100001' },
});
const token = ((await signIn.json()) as { access_token: string }).access_token;

console.log(
  JSON.stringify({
    kv: redisUrl ? 'redis' : 'memory',
    passwordHash: stored.password_hash,
    grant: `${base}/api/blade-auth/oauth/token?${params}`,
    grantHeaders: { ...clientBasic(), 'tenant-id': '100001' },
    verifyHttp: `${base}/api/bench/verify`,
    authed: `${base}/api/bench/me`,
    authedHeaders: bladeAuth(token),
    open: `${base}/api/bench/me-open`,
  }),
);

const stop = async () => {
  await app.close();
  await t.drop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
