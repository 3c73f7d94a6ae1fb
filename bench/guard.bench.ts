import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { fmt, startServer, table } from './lib';

/** CPU time (user + system) of a process so far, in µs (Linux /proc; clock ticks of 10 ms). */
function cpuUs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is stat's 3rd field (state): utime and stime are its 14th and 15th.
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * Issue 14: what the statement-outside-transaction guard costs the authenticated list. The
 * list bench's full-stack server twice, in two processes: the guard armed (its default
 * outside production) and not (NODE_ENV=production). The guard needs an AsyncLocalStorage,
 * which on Node 20 hooks every promise of the process once used, so the figure is the
 * server process's CPU time per list request (its own, not the load generator's), best of
 * alternating rounds, and the throughput ratio that follows for a CPU-bound server.
 */
export async function benchGuard(opts: { seconds: number; rounds?: number; connections?: number }) {
  type Info = { full: string; headers: Record<string, string> };
  const start = (nodeEnv: string) =>
    startServer<Info>('bench/servers/list-servers.ts', { LOG_LEVEL: 'silent', NODE_ENV: nodeEnv });
  const off = await start('production');
  const on = await start('development');
  const variants = [
    { name: 'guard off (NODE_ENV=production)', server: off },
    { name: 'guard on (development, test)', server: on },
  ];
  const run = async (v: (typeof variants)[number], seconds: number) => {
    const pid = v.server.child.pid ?? 0;
    const before = cpuUs(pid);
    const r = await autocannon({
      url: v.server.info.full,
      headers: v.server.info.headers,
      connections: opts.connections ?? 16,
      duration: seconds,
    });
    const used = cpuUs(pid) - before;
    if (r.non2xx || r.errors) throw new Error(`${v.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    return { us: used / r.requests.total, rps: r.requests.average };
  };
  try {
    for (const v of variants) await run(v, 1); // warm-up
    const rounds = opts.rounds ?? 8;
    const best = new Map<string, { us: number; rps: number }>();
    for (let i = 0; i < rounds; i++) {
      for (const v of i % 2 ? [...variants].reverse() : variants) {
        const m = await run(v, opts.seconds);
        const b = best.get(v.name);
        if (!b || m.us < b.us) best.set(v.name, m);
      }
    }
    const base = best.get(variants[0]?.name ?? '')?.us ?? 0;
    console.log(
      `\nstatement-outside-transaction guard: server CPU per list request, ${rounds} alternating rounds of ${opts.seconds}s (best of each)`,
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
    return { addedUs: (best.get(variants[1]?.name ?? '')?.us ?? base) - base };
  } finally {
    off.child.kill('SIGTERM');
    on.child.kill('SIGTERM');
  }
}
