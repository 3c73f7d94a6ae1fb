import autocannon from 'autocannon';
import { processCpuMs } from './cpu';
import { fmt, startServer, table } from './lib';

interface Info {
  on: string;
  off: string;
  list: string;
  write: string;
  writeBody: string;
  headers: Record<string, string>;
}

/**
 * Issue 17: the API log's cost. The authenticated user list (a read: the hooks run, nothing is
 * logged) and a write call (a parameter update: a row buffered per call, written in batches)
 * with the API log on vs the same app without the log context's hooks; same database, same
 * process, alternating rounds. Prints throughput, p99, the server's CPU per request and the
 * ratio on/off of each. Target: overhead ≤ 5 % (ratio ≥ 0.95).
 */
export async function benchApiLog(opts: { seconds: number; connections: number }) {
  const { info, child } = await startServer<Info>('bench/servers/apilog-servers.ts', { LOG_LEVEL: 'silent' });
  const cpu = () => processCpuMs(child.pid ?? 0) * 1000; // µs
  const run = async (which: 'on' | 'off', kind: 'list' | 'write', seconds: number) => {
    const r = await autocannon({
      url: `${info[which]}${info[kind]}`,
      method: kind === 'write' ? 'POST' : 'GET',
      headers: kind === 'write' ? { ...info.headers, 'content-type': 'application/json' } : info.headers,
      body: kind === 'write' ? info.writeBody : undefined,
      connections: kind === 'write' ? Math.min(8, opts.connections) : opts.connections,
      duration: seconds,
      pipelining: 1,
    });
    if (r.non2xx || r.errors || r.timeouts) throw new Error(`errors during load: ${which} ${kind} ${r.non2xx} non-2xx`);
    return { rps: r.requests.average, p99: r.latency.p99 };
  };
  try {
    for (const kind of ['list', 'write'] as const)
      for (const which of ['on', 'off'] as const) await run(which, kind, 2);
    const seconds = Math.max(2, Math.round(opts.seconds / 2));
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const ratios: Record<string, number> = {};
    for (const kind of ['list', 'write'] as const) {
      type Round = { rps: number; p99: number; us: number };
      const rounds: Record<'on' | 'off', Round[]> = { on: [], off: [] };
      for (const which of ['off', 'on', 'on', 'off', 'off', 'on', 'on', 'off'] as const) {
        const before = cpu();
        const r = await run(which, kind, seconds);
        rounds[which].push({ ...r, us: (cpu() - before) / Math.max(1, r.rps * seconds) });
      }
      const row = (name: string, xs: Round[]) => ({
        stack: name,
        'req/s': fmt(avg(xs.map((x) => x.rps))),
        'p99 ms': fmt(avg(xs.map((x) => x.p99)), 1),
        'server CPU µs/req': fmt(avg(xs.map((x) => x.us))),
      });
      console.log(
        `\n${kind === 'list' ? 'user list page (GET)' : 'parameter update (POST, logged)'}, 4 × ${seconds}s each side, alternating`,
      );
      table([row('API log off (no log hooks)', rounds.off), row('API log on (as served)', rounds.on)]);
      const ratio = avg(rounds.on.map((x) => x.rps)) / avg(rounds.off.map((x) => x.rps));
      const cpuRatio = avg(rounds.off.map((x) => x.us)) / avg(rounds.on.map((x) => x.us));
      console.log(
        `ratio on/off: ${ratio.toFixed(3)} throughput (overhead ${((1 - ratio) * 100).toFixed(1)} %), ${cpuRatio.toFixed(3)} server CPU  (target ≥ 0.95: ${ratio >= 0.95 ? 'met' : 'NOT met'})`,
      );
      ratios[kind] = ratio;
    }
    return ratios;
  } finally {
    child.kill('SIGTERM');
  }
}
