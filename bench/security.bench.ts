import autocannon from 'autocannon';
import { fmt, startServer, table } from './lib';

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
  const cpu = async (port: number) => {
    const u = (await (await fetch(`http://127.0.0.1:${port}/cpu`)).json()) as { user: number; system: number };
    return u.user + u.system;
  };
  const run = async (v: (typeof variants)[number], seconds: number) => {
    const before = await cpu(v.port);
    const r = await autocannon({
      url: `http://127.0.0.1:${v.port}/api/blade-user/page?current=1&size=10`,
      headers: v.headers,
      connections: opts.connections ?? 16,
      duration: seconds,
    });
    const used = (await cpu(v.port)) - before;
    if (r.non2xx || r.errors) throw new Error(`${v.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    return { us: used / r.requests.total, rps: r.requests.average };
  };
  try {
    for (const v of variants) await run(v, 1); // warm-up
    const rounds = opts.rounds ?? 3;
    const best = new Map<string, { us: number; rps: number }>();
    for (let i = 0; i < rounds; i++) {
      for (const v of variants) {
        const m = await run(v, opts.seconds);
        const b = best.get(v.name);
        if (!b || m.us < b.us) best.set(v.name, m);
      }
    }
    const base = best.get(variants[0]?.name ?? '')?.us ?? 0;
    console.log(
      `\nsecurity headers and CORS: server CPU per request, ${rounds} alternating rounds of ${opts.seconds}s (best of each)`,
    );
    table(
      variants.map((v) => {
        const m = best.get(v.name) ?? { us: 0, rps: 0 };
        return {
          variant: v.name,
          'CPU µs/request': fmt(m.us, 1),
          'added µs': fmt(m.us - base, 1),
          'ratio off/on': (base / m.us).toFixed(3),
          'requests/s': fmt(m.rps),
        };
      }),
    );
    const addedUs = (best.get(variants[1]?.name ?? '')?.us ?? base) - base;
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
