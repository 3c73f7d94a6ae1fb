// Two Sprout apps over one PostgreSQL database, in one process, that differ in one build option
// (the "on" app as served, the "off" app without the piece a benchmark measures), with the
// demo-free seed, the bench users of kindergarten 100001 and an administrator's headers. The
// benchmark reads this process's CPU time from /proc, so it counts the server's CPU per request
// as well as its throughput. Stops on SIGTERM / SIGINT (apps closed, database dropped).
import type { AppDeps } from '@sprout/api/app';
import { buildApp } from '@sprout/api/app';
import { bladeAuth, testConfig, userWithRole } from '@sprout/api/testing';
import { MemoryQueue } from '@sprout/core/queue';
import { seed } from '@sprout/core/seed';
import { createTestDatabase } from '@sprout/core/testing/pg';
import { addBenchUsers } from './users-data';

/** The user list page both benchmarks read (a filtered, authenticated page of 10). */
export const USER_PAGE = '/api/blade-user/page?current=3&size=10&realName=%E6%95%99%E5%B8%88';

/** Starts the two apps; `off` gives the options that tell the "off" app apart. */
export async function startOnOff(off: Partial<Omit<AppDeps, 'database' | 'queue'>>) {
  const t = await createTestDatabase(16);
  await seed(t.database, { demo: false });
  await addBenchUsers(t.database, ['100001']);
  const config = testConfig();
  const serve = async (extra: Partial<AppDeps>) => {
    const app = await buildApp(config, {
      database: t.database,
      queue: new MemoryQueue(),
      fastify: { logger: false },
      ...extra,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { app, url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
  };
  const on = await serve({});
  const offApp = await serve(off);
  const { token } = await userWithRole(t.database, config, '100001', 'admin', {
    createTime: new Date(Date.UTC(2020, 0, 1)),
  });
  const headers: Record<string, string> = {
    ...bladeAuth(token),
    'accept-language': 'zh-CN,zh;q=0.9',
    cookie: 'language=zh-CN',
  };
  const stop = async () => {
    await on.app.close();
    await offApp.app.close();
    await t.drop();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  return { on, off: offApp, headers, database: t.database };
}
