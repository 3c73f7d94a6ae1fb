// One Sprout app over the main PostgreSQL database and a second database on the same server
// (issue 21): kindergarten 100001 stays on the main database, 100002 (the same bench users and
// roles) is moved onto its own data source. The benchmark loads the same lists as each
// tenant's administrator, so the only difference is the route the tenant seam takes.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '@sprout/api/app';
import { bladeAuth, testConfig, userWithRole } from '@sprout/api/testing';
import { moveTenant } from '@sprout/core/datasource/move';
import { inSystem, openDatabase, tenantRouter } from '@sprout/core/db';
import { MemoryQueue } from '@sprout/core/queue';
import { seed } from '@sprout/core/seed';
import { createTestDatabase } from '@sprout/core/testing/pg';
import { testPostgresUrl } from '@sprout/core/testing/services';
import { USER_PAGE } from './on-off';
import { addBenchUsers } from './users-data';

const t = await createTestDatabase(16);
await seed(t.database, { demo: false });
await inSystem(t.database, (trx) =>
  trx.insertInto('tenant').values({ tenant_id: '100002', tenant_name: '基准二园' }).execute(),
);
await addBenchUsers(t.database, ['100001', '100002']);
const config = testConfig();
const headersOf = async (tenantId: string) => {
  const { token } = await userWithRole(t.database, config, tenantId, 'admin', {
    createTime: new Date(Date.UTC(2020, 0, 1)),
  });
  return { ...bladeAuth(token), 'accept-language': 'zh-CN,zh;q=0.9', cookie: 'language=zh-CN' };
};
const main = await headersOf('100001');
const bound = await headersOf('100002');

const name = `sprout_ds_bench_${randomBytes(3).toString('hex')}`;
const admin = new pg.Client({ connectionString: await testPostgresUrl() });
await admin.connect();
await admin.query(`create database ${name}`);
const u = new URL(await testPostgresUrl());
u.pathname = `/${name}`;
const second = await openDatabase({ url: u.toString(), poolSize: 16 });
// BENCH_DS_SAME=1: both tenants stay on the main database (the two tenants' own difference).
if (!process.env.BENCH_DS_SAME) await moveTenant({ router: tenantRouter(t.database), tenantId: '100002', to: second });
await inSystem(second, (trx) => sql`analyze`.execute(trx));

const app = await buildApp(config, { database: t.database, queue: new MemoryQueue(), fastify: { logger: false } });
await app.listen({ port: 0, host: '127.0.0.1' });
const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
const stop = async () => {
  await app.close();
  await second.close();
  await t.drop();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
console.log(
  JSON.stringify({
    url,
    lists: [USER_PAGE, '/api/blade-system/role/list', '/api/blade-system/dept/tree'],
    main,
    bound,
  }),
);
