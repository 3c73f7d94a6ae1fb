// Issue 22: the list (the user page, the list bench's list) through HAProxy + PgBouncer across
// three api processes, vs one api process straight on PostgreSQL — same database, same run,
// alternating rounds. Prints the throughput ratio and each process's share: requests (HAProxy's
// count) and CPU. On a 2-core machine three processes cannot scale past the cores; the
// per-process CPU shows where the time went.
import { processCpuMs } from './cpu';
import { fmt, load, table } from './lib';
import { authHeaders, signIn } from '../tests/fleet/client';
import { Fleet } from '../tests/fleet/fleet';

export async function benchFleet(opts: { seconds: number; connections: number; rounds: number }) {
  const fleet = new Fleet();
  try {
    await fleet.start({ api: 3, collab: 1, worker: 1, env: { API_LOG: 'false', LOG_LEVEL: 'warn' } });
    const single = await fleet.startSprout('api', undefined, {
      DATABASE_URL: fleet.directUrl,
      DATABASE_SESSION_URL: fleet.directUrl,
      DATABASE_POOL_SIZE: '10',
      API_LOG: 'false',
    });
    const singleUrl = `http://127.0.0.1:${single.port}`;
    const admin = await signIn(fleet.url, 'admin');
    const path = '/api/blade-user/page?current=1&size=10';
    const headers = authHeaders(admin.token);
    const check = await fetch(`${fleet.url}${path}`, { headers });
    if (!check.ok) throw new Error(`the list answered ${check.status}`);
    // Warm both up (JIT, pools, caches), then alternate.
    await load({ url: `${fleet.url}${path}`, headers, connections: opts.connections, seconds: 2 });
    await load({ url: `${singleUrl}${path}`, headers, connections: opts.connections, seconds: 2 });
    const apis = fleet.of('api');
    const rows: Array<Record<string, string | number>> = [];
    const perProcess = new Map<string, { requests: number; cpuMs: number }>();
    const sums = { fleet: 0, single: 0 };
    for (let round = 1; round <= opts.rounds; round++) {
      const before = await fleet.requestsPerServer();
      const cpu0 = apis.map((p) => processCpuMs(p.child.pid ?? 0));
      const f = await load({
        url: `${fleet.url}${path}`,
        headers,
        connections: opts.connections,
        seconds: opts.seconds,
      });
      const after = await fleet.requestsPerServer();
      apis.forEach((p, i) => {
        const cur = perProcess.get(p.name) ?? { requests: 0, cpuMs: 0 };
        cur.requests += (after[p.name] ?? 0) - (before[p.name] ?? 0);
        cur.cpuMs += processCpuMs(p.child.pid ?? 0) - (cpu0[i] ?? 0);
        perProcess.set(p.name, cur);
      });
      const sc0 = processCpuMs(single.child.pid ?? 0);
      const s = await load({
        url: `${singleUrl}${path}`,
        headers,
        connections: opts.connections,
        seconds: opts.seconds,
      });
      const singleCpu = processCpuMs(single.child.pid ?? 0) - sc0;
      sums.fleet += f.rps;
      sums.single += s.rps;
      rows.push({
        round,
        'fleet req/s': fmt(f.rps),
        'fleet p99 ms': fmt(f.p99),
        'one req/s': fmt(s.rps),
        'one p99 ms': fmt(s.p99),
        'one CPU %': fmt((singleCpu / (opts.seconds * 1000)) * 100),
        ratio: (f.rps / s.rps).toFixed(2),
        errors: f.errors + f.non2xx + s.errors + s.non2xx,
      });
    }
    table(rows);
    const total = opts.rounds * opts.seconds * 1000;
    table(
      [...perProcess].map(([name, v]) => ({
        process: name,
        'req/s': fmt(v.requests / (total / 1000)),
        'CPU %': fmt((v.cpuMs / total) * 100),
        'CPU ms/req': v.requests ? (v.cpuMs / v.requests).toFixed(2) : '-',
      })),
    );
    console.log(
      `fleet (HAProxy + PgBouncer, 3 api) / one process direct: ${(sums.fleet / sums.single).toFixed(2)}× ` +
        `(${fmt(sums.fleet / opts.rounds)} vs ${fmt(sums.single / opts.rounds)} req/s; ${opts.connections} connections; ` +
        `this machine has ${(await import('node:os')).availableParallelism()} cores: the fleet can only scale with them)`,
    );
    single.child.kill('SIGTERM');
    await single.exited;
  } finally {
    await fleet.stop();
  }
}
