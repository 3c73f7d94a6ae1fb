import { processCpuMs } from './cpu';
import { fmt, load, startServer, table } from './lib';

/**
 * Issue 14: the authenticated user list through the full stack with the hardening on (security
 * headers and CORS, rate limits, the shared text rule) vs the same app built without it, same
 * database, same process, alternating rounds. Prints throughput, p99 and the server's CPU per
 * request of each, and the ratio on/off. Target: ≥ 0.95.
 */
export async function benchHardening(opts: { seconds: number; connections: number }) {
  const { info, child } = await startServer<{
    on: string;
    off: string;
    headers: Record<string, string>;
  }>('bench/servers/hardening-servers.ts', { LOG_LEVEL: 'silent' });
  const cpu = () => processCpuMs(child.pid ?? 0) * 1000; // µs
  try {
    for (const which of ['on', 'off'] as const) {
      const r = await fetch(info[which], { headers: info.headers });
      const body = (await r.json()) as { success: boolean; data: { records: unknown[] } };
      if (!body.success || body.data.records.length !== 10) throw new Error(`${which}: the list did not answer a page`);
      if (which === 'on' && !r.headers.get('content-security-policy')) throw new Error('on: no security headers');
      if (which === 'off' && r.headers.get('content-security-policy')) throw new Error('off: security headers present');
      await load({ url: info[which], headers: info.headers, connections: opts.connections, seconds: 2 });
    }
    const seconds = Math.max(2, Math.round(opts.seconds / 2));
    type Round = { rps: number; p99: number; us: number };
    const rounds: Record<'on' | 'off', Round[]> = { on: [], off: [] };
    for (const which of ['off', 'on', 'on', 'off', 'off', 'on', 'on', 'off'] as const) {
      const before = cpu();
      const r = await load({ url: info[which], headers: info.headers, connections: opts.connections, seconds });
      const used = cpu() - before;
      if (r.non2xx || r.errors) throw new Error(`errors during load: ${JSON.stringify({ which, r })}`);
      rounds[which].push({ rps: r.rps, p99: r.p99, us: used / Math.max(1, r.rps * seconds) });
    }
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const row = (name: string, xs: Round[]) => ({
      stack: name,
      'req/s': fmt(avg(xs.map((x) => x.rps))),
      'p99 ms': fmt(avg(xs.map((x) => x.p99)), 1),
      'server CPU µs/req': fmt(avg(xs.map((x) => x.us))),
    });
    console.log(`\nuser list page, ${opts.connections} connections, 4 × ${seconds}s each side, alternating`);
    table([row('hardening off', rounds.off), row('hardening on (as served)', rounds.on)]);
    const ratio = avg(rounds.on.map((x) => x.rps)) / avg(rounds.off.map((x) => x.rps));
    const cpuRatio = avg(rounds.off.map((x) => x.us)) / avg(rounds.on.map((x) => x.us));
    console.log(
      `ratio on/off: ${ratio.toFixed(3)} throughput, ${cpuRatio.toFixed(3)} server CPU  (target ≥ 0.95: ${ratio >= 0.95 ? 'met' : 'NOT met'})`,
    );
    return { ratio, cpuRatio };
  } finally {
    child.kill('SIGTERM');
  }
}
