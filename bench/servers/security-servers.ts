// Three bare Fastify servers in one process for the security-headers benchmark: the same
// list-shaped JSON route without the security plugin, with it (same-origin default), and
// with it and an allowlisted origin. One process: the benchmark reads its CPU time from /proc,
// so it counts the server's CPU per request (not the load generator's).
import Fastify from 'fastify';
import { securityPlugin } from '@sprout/api/plugins/security';

const records = Array.from({ length: 10 }, (_, i) => ({
  id: String(1900000000000000000n + BigInt(i)),
  account: `teacher${i}`,
  realName: `王老师${i}`,
  deptName: '小班组',
  roleName: '教师',
  createTime: '2026-11-25 09:00:00',
}));

async function serve(secure: boolean, origins: string[] = []) {
  const app = Fastify({ logger: false });
  if (secure) await app.register(securityPlugin, { config: { CORS_ORIGINS: origins } });
  app.get('/api/blade-user/page', async () => ({
    code: 200,
    success: true,
    msg: '操作成功',
    data: { records, total: 10, size: 10, current: 1, pages: 1 },
  }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as { port: number }).port;
}

const ports = {
  off: await serve(false),
  on: await serve(true),
  allowlisted: await serve(true, ['https://saber.example.com']),
};
console.log(JSON.stringify(ports));
