// Two Sprout apps over one PostgreSQL database, in one process (only one is loaded at a time):
//  - on:  the app as served, the API log on (every write call buffered and written in batches)
//  - off: the same app without the log context's request hooks (no API log, no error log rows)
// The benchmark reads this process's CPU time from /proc, so it counts the server's CPU per
// request as well as its throughput.
import { buildApp } from '@sprout/api/app';
import { CONTEXTS } from '@sprout/api/contexts';
import { bladeAuth, testConfig, userWithRole } from '@sprout/api/testing';
import { MemoryQueue } from '@sprout/core/queue';
import { seed } from '@sprout/core/seed';
import { createTestDatabase } from '@sprout/core/testing/pg';
import { addBenchUsers } from './users-data';

const t = await createTestDatabase(16);
await seed(t.database, { demo: false });
await addBenchUsers(t.database, ['100001']);

const config = testConfig();
const serve = async (apiLog: boolean) => {
  const app = await buildApp(config, {
    database: t.database,
    queue: new MemoryQueue(),
    fastify: { logger: false },
    contexts: apiLog ? CONTEXTS : CONTEXTS.map((c) => (c.name === 'log' ? { ...c, hooks: undefined } : c)),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as { port: number }).port };
};
const on = await serve(true);
const off = await serve(false);

const { token } = await userWithRole(t.database, config, '100001', 'admin', {
  createTime: new Date(Date.UTC(2020, 0, 1)),
});
const headers = { ...bladeAuth(token), 'accept-language': 'zh-CN,zh;q=0.9', cookie: 'language=zh-CN' };
// The write: updating one parameter to the same values (a real write transaction, 200 every time).
const added = await on.app.inject({
  method: 'POST',
  url: '/api/blade-system/param/submit',
  headers,
  payload: { paramName: '基准', paramKey: 'bench.apilog', paramValue: '1' },
});
const param = added.json().data as { id: string };
const list = '/api/blade-user/page?current=3&size=10&realName=%E6%95%99%E5%B8%88';
const write = '/api/blade-system/param/submit';
console.log(
  JSON.stringify({
    on: `http://127.0.0.1:${on.port}`,
    off: `http://127.0.0.1:${off.port}`,
    list,
    write,
    writeBody: JSON.stringify({ id: param.id, paramName: '基准', paramKey: 'bench.apilog', paramValue: '1' }),
    headers,
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
