// Two servers over one PostgreSQL database, in one process (only one is loaded at a time):
//  - full: Sprout's app (auth, envelope, paging schema, tenant transaction with RLS, presenters)
//  - bare: a plain Fastify route running the same two SQL statements through pg.
import Fastify from 'fastify';
import pg from 'pg';
import { bladeAuth, testApp, testConfig, userWithRole } from '@sprout/api/testing';
import { createTestDatabase } from '@sprout/core/testing/pg';
import { addBenchUsers } from './users-data';
import { userListQuery } from '@sprout/api/modules/system/user-list';
import { pageQueryOf } from '@sprout/core/http/paging';
import { seed } from '@sprout/core/seed';

const t = await createTestDatabase(16);
// The platform tenant and the saber client: every call carries client credentials.
await seed(t.database, { demo: false });
await addBenchUsers(t.database, ['100001', '100002', '100003']);

const config = testConfig();
const { app } = await testApp(t.database, { config });
await app.listen({ port: 0, host: '127.0.0.1' });
// The same app writing its answers with JSON.stringify instead of from the response schema.
const { app: plain } = await testApp(t.database, { config, serializer: 'json' });
await plain.listen({ port: 0, host: '127.0.0.1' });

// The exact statement the full stack runs for page 3 of size 10.
const q = { current: 3, size: 10 } as const;
const statement = pageQueryOf(userListQuery(t.database.db, '100001', {}, 'Asia/Shanghai'), q);

const pool = new pg.Pool({ connectionString: t.url, max: 16 });
const bare = Fastify({ logger: false });
bare.get('/bare/users', async () => {
  // Same statement with bound parameters: no transaction, no RLS role, no envelope, no presenter.
  const r = await pool.query(statement.sql, [...statement.parameters]);
  return { total: Number(r.rows[0]?.__total ?? 0), records: r.rows };
});
await bare.listen({ port: 0, host: '127.0.0.1' });

// The tenant's administrator: the route check and the data scope (all) apply as in production.
const { token } = await userWithRole(t.database, config, '100001', 'admin', {
  createTime: new Date(Date.UTC(2020, 0, 1)),
});
console.log(
  JSON.stringify({
    full: `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/blade-user/page?current=${q.current}&size=${q.size}`,
    json: `http://127.0.0.1:${(plain.server.address() as { port: number }).port}/api/blade-user/page?current=${q.current}&size=${q.size}`,
    bare: `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/bare/users`,
    headers: bladeAuth(token),
    sql: statement.sql,
  }),
);

const stop = async () => {
  await app.close();
  await plain.close();
  await bare.close();
  await pool.end();
  await t.drop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
