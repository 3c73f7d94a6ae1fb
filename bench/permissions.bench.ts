import { fmt, load, startServer, table } from './lib';

/**
 * Issue 5: an authorised, data-scoped list (route check by API scope, ability from the
 * cache, the scope as a where-clause, field rules) against the same statement with no
 * permission layer, same app, same run, same concurrency. Target: ratio ≥ 0.85.
 */
export async function benchPermissions(opts: { seconds: number; connections: number }) {
  const { info, child } = await startServer<{
    kv: string;
    scoped: string;
    bare: string;
    headers: Record<string, string>;
    sql: string;
  }>('bench/servers/permission-servers.ts', { LOG_LEVEL: 'silent' });
  try {
    // Sanity: both answer the same page of the same 5,000 children.
    const [s, b] = await Promise.all(
      [info.scoped, info.bare].map(async (url) => {
        const r = await fetch(url, { headers: info.headers });
        return (await r.json()) as { success: boolean; data: { total: number; records: Array<{ id: string }> } };
      }),
    );
    if (!s?.success || !b?.success || s.data.total !== b.data.total || s.data.records.length !== 10)
      throw new Error(`the two routes disagree: ${JSON.stringify({ scoped: s?.data.total, bare: b?.data.total })}`);
    if (s.data.records.map((r) => r.id).join() !== b.data.records.map((r) => r.id).join())
      throw new Error('the two routes return different pages');
    await load({ url: info.bare, headers: info.headers, connections: opts.connections, seconds: 2 });
    await load({ url: info.scoped, headers: info.headers, connections: opts.connections, seconds: 2 });
    const rounds = { bare: [] as number[], scoped: [] as number[], bareP99: [] as number[], scopedP99: [] as number[] };
    for (let i = 0; i < 4; i++) {
      // Alternate which goes first, so drift on a shared machine hits both alike.
      const order = i % 2 ? (['scoped', 'bare'] as const) : (['bare', 'scoped'] as const);
      for (const which of order) {
        const r = await load({
          url: info[which],
          headers: info.headers,
          connections: opts.connections,
          seconds: opts.seconds,
        });
        if (r.non2xx || r.errors) throw new Error(`errors during load: ${JSON.stringify({ which, r })}`);
        rounds[which].push(r.rps);
        rounds[`${which}P99`].push(r.p99);
      }
    }
    const avg = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
    const ratio = avg(rounds.scoped) / avg(rounds.bare);
    console.log(
      `\nchildren list, page 3 of ${s.data.total} (${info.kv} key-value store), ${opts.connections} connections, 4 × ${opts.seconds}s each, alternating`,
    );
    table([
      { route: 'no permission layer', 'req/s': fmt(avg(rounds.bare)), 'p99 ms': fmt(avg(rounds.bareP99), 1) },
      { route: 'authorised + data scope', 'req/s': fmt(avg(rounds.scoped)), 'p99 ms': fmt(avg(rounds.scopedP99), 1) },
    ]);
    console.log(`ratio scoped/bare: ${ratio.toFixed(2)}  (target ≥ 0.85: ${ratio >= 0.85 ? 'met' : 'NOT met'})`);
    return { ratio };
  } finally {
    child.kill('SIGTERM');
  }
}
