import { cpuPerRequest, fmt, startServer } from './lib';

/**
 * Issue 14: the cost of the security headers and CORS (`plugins/security.ts`: helmet's CSP and
 * headers, the TLS-only HSTS hook, @fastify/cors) per request. Bare Fastify servers with one
 * list-shaped JSON route — without the plugin, with it, and with it answering an allowlisted
 * origin — loaded in alternating rounds with the headers of a Saber list call; the figure is
 * the server process's CPU time per request (its own, not the load generator's), the best
 * of the rounds. The ratio off/on is the throughput ratio of a CPU-bound server; against a
 * real list request it is printed as a share of that request at the list bench's rate.
 */
export async function benchSecurity(opts: {
  seconds: number;
  rounds?: number;
  connections?: number;
  listRps?: number;
}) {
  const { info: ports, child } = await startServer<Record<'off' | 'on' | 'allowlisted', number>>(
    'bench/servers/security-servers.ts',
  );
  const headers = {
    accept: 'application/json, text/plain, */*',
    'accept-language': 'zh-CN,zh;q=0.9',
    authorization: 'Basic c2FiZXI6c2FiZXJfc2VjcmV0',
    'blade-auth': `bearer ${'x'.repeat(400)}`,
    cookie: 'language=zh-CN',
  };
  const variants = [
    { name: 'without the plugin', port: ports.off, headers },
    { name: 'helmet + CORS, same-origin (default)', port: ports.on, headers },
    {
      name: 'helmet + CORS, allowlisted origin',
      port: ports.allowlisted,
      headers: { ...headers, origin: 'https://saber.example.com' },
    },
  ];
  try {
    const { addedUs } = await cpuPerRequest(
      'security headers and CORS',
      variants.map((v) => ({
        name: v.name,
        url: `http://127.0.0.1:${v.port}/api/blade-user/page?current=1&size=10`,
        headers: v.headers,
        pid: child.pid ?? 0,
      })),
      { seconds: opts.seconds, rounds: opts.rounds ?? 3, connections: opts.connections },
    );
    if (opts.listRps) {
      // One core's time per list request at the measured rate (2 cores): the plugin's share of it.
      const perRequestUs = (2 * 1e6) / opts.listRps;
      console.log(
        `share of a list request at ${fmt(opts.listRps)} req/s: ${((addedUs / perRequestUs) * 100).toFixed(2)} %; ` +
          `estimated list throughput with / without the headers: ${(perRequestUs / (perRequestUs + addedUs)).toFixed(3)}` +
          ' (target ≥ 0.95 with the text rule and rate limits)',
      );
    }
    return { addedUs };
  } finally {
    child.kill('SIGKILL');
  }
}
