import { fmt, startServer } from './lib';
import { call, measureCases, type Target } from './observations.bench';

/**
 * Issue 23: what the whole kindergarten publishes, over 200,000 lesson plans in 20
 * kindergartens, as the demo's 中一班 teacher (data scope: her class; excellent plans are
 * shared whatever the scope):
 *
 *  1. 优秀教案, the school's excellent lesson plans (`POST /api/week_plan/weekplan/ExcellentPlan`, page 2);
 *  2. 我的收藏, her favourites: 300 excellent plans of other classes (`collectionByUserId`, page 2).
 *
 * Each through the whole stack ÷ the very statements it sent (caught on a probe) sent through
 * pg from a bare Fastify route in the same round trips, in req/s, same run, same concurrency,
 * rounds alternating. Target ≥ 0.8 each; p50 and p99 printed.
 */
interface Info {
  kv: string;
  headers: Record<string, string>;
  targets: Record<'excellent' | 'favourites', Target>;
  data: { tenants: number; plans: number; excellent: number; favourites: number; generationSeconds: number };
}

export async function benchShared(opts: { seconds: number; connections: number; rounds?: number }) {
  // As production runs it: no development guard (see observations.bench.ts).
  const { info, child } = await startServer<Info>('bench/servers/shared-servers.ts', {
    LOG_LEVEL: 'silent',
    NODE_ENV: 'production',
  });
  try {
    const d = info.data;
    console.log(
      `\ndata: ${fmt(d.plans)} lesson plans in ${d.tenants} tenants; the demo kindergarten has ${fmt(d.excellent)} excellent, ` +
        `the 中一班 teacher holds ${d.favourites} of other classes among her favourites; generated in ${fmt(
          d.generationSeconds,
          1,
        )} s; ${info.kv} key-value store`,
    );
    const cases: Array<[string, string, Target]> = [];
    for (const name of ['excellent', 'favourites'] as const) {
      const target = info.targets[name];
      // Sanity: the stack and its peer read the same rows.
      const full = await call('POST', target.full, info.headers);
      const bare = await call('POST', target.bare, info.headers);
      if (JSON.stringify(full) !== JSON.stringify(bare) || full.records.length !== 10)
        throw new Error(`${name}: the pages differ: ${full.total} vs ${bare.total}`);
      const classes = new Set(full.records.map((r: { className: string }) => r.className)).size;
      const list = name === 'excellent' ? '优秀教案' : '我的收藏';
      cases.push([name, `${list}, page 2 of ${fmt(full.total)} (${classes} classes on it)`, target]);
    }
    return await measureCases(cases, info.headers, opts);
  } finally {
    child.kill('SIGTERM');
  }
}
