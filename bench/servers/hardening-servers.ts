// Two Sprout apps over one PostgreSQL database, in one process (only one is loaded at a time):
//  - on:  the full stack as served (security headers and CORS, rate limits, the shared text rule)
//  - off: the same app built with `hardening: false`
// The benchmark reads this process's CPU time from /proc, so it counts the server's CPU per
// request as well as its throughput.
import { buildApp } from '@sprout/api/app';
import { bladeAuth, testConfig, userWithRole } from '@sprout/api/testing';
import { MemoryQueue } from '@sprout/core/queue';
import { seed } from '@sprout/core/seed';
import { createTestDatabase } from '@sprout/core/testing/pg';
import { addBenchUsers } from './users-data';

const t = await createTestDatabase(16);
await seed(t.database, { demo: false });
await addBenchUsers(t.database, ['100001']);

const config = testConfig();
const serve = async (hardening: boolean) => {
  const app = await buildApp(config, {
    database: t.database,
    queue: new MemoryQueue(),
    fastify: { logger: false },
    hardening,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as { port: number }).port };
};
const on = await serve(true);
const off = await serve(false);

const { token } = await userWithRole(t.database, config, '100001', 'admin', {
  createTime: new Date(Date.UTC(2020, 0, 1)),
});
const path = '/api/blade-user/page?current=3&size=10&realName=%E6%95%99%E5%B8%88';
console.log(
  JSON.stringify({
    on: `http://127.0.0.1:${on.port}${path}`,
    off: `http://127.0.0.1:${off.port}${path}`,
    headers: { ...bladeAuth(token), 'accept-language': 'zh-CN,zh;q=0.9', cookie: 'language=zh-CN' },
  }),
);

const stop = async () => {
  await on.app.close();
  await off.app.close();
  await t.drop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
