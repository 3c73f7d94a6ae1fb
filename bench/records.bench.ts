import { fmt, type LoadResult, load, startServer, table } from './lib';

/**
 * Issue 7, over 200,000 weekly plans in 20 kindergartens (lifecycle events in the log,
 * record_list and record_activity built from it), as a grade leader whose data scope is
 * "dept and below" (one grade group of the demo kindergarten):
 *
 *  1. Trial list (the review queue, page 10): the full stack (auth, cached ability, route
 *     and button check, the scope as a where-clause, one-round-trip tenant transaction with
 *     RLS, presenter, envelope) ÷ the same SQL bound through pg on a bare Fastify route that
 *     presents and wraps the page alike, in req/s, same run, same concurrency. It is what the
 *     stack costs on top of its own query. Target ≥ 0.6.
 *  2. Dashboard: served from the read models (record_activity for the weekly counts,
 *     record_list for totals and pending reviews) ÷ the same numbers folded from the events
 *     table on every call, in req/s, same stack. It is what the projections buy. Target ≥ 10×.
 *
 * Figures only: rounds alternate between the two sides so drift on a shared machine hits
 * both alike; nothing here passes or fails on time.
 */
interface Info {
  kv: string;
  trialFull: string;
  trialBare: string;
  homeProjection: string;
  homeEvents: string;
  headers: Record<string, string>;
  sql: string;
  sameSql: boolean;
  scope: number;
  data: {
    tenants: number;
    records: number;
    events: number;
    seconds: Record<string, number>;
    counts: Record<string, number>;
    seedSeconds: number;
    generationSeconds: number;
  };
}

interface Target {
  url: string;
  method: 'GET' | 'POST';
}

const loadOf = (target: Target, headers: Record<string, string>, connections: number, seconds: number) =>
  load({ url: target.url, method: target.method, headers, connections, seconds });

async function call(target: Target, headers: Record<string, string>) {
  const post = target.method === 'POST';
  const r = await fetch(target.url, {
    method: target.method,
    headers: post ? { ...headers, 'content-type': 'application/json' } : headers,
    body: post ? '{}' : undefined,
  });
  // biome-ignore lint/suspicious/noExplicitAny: compared field by field below
  const body = (await r.json()) as { success: boolean; data: any };
  if (!body.success) throw new Error(`${target.url} answered ${r.status}: ${JSON.stringify(body)}`);
  return body.data;
}

const avg = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;

/** Warm-up, then `rounds` alternating rounds of A and B; the averages of each. */
async function compare(
  a: Target,
  b: Target,
  headers: Record<string, string>,
  opts: { seconds: number; connections: number; rounds: number },
) {
  await loadOf(a, headers, opts.connections, 2);
  await loadOf(b, headers, opts.connections, 2);
  const runs = { a: [] as LoadResult[], b: [] as LoadResult[] };
  for (let i = 0; i < opts.rounds; i++) {
    const order = i % 2 ? (['b', 'a'] as const) : (['a', 'b'] as const);
    for (const which of order) {
      const r = await loadOf(which === 'a' ? a : b, headers, opts.connections, opts.seconds);
      if (r.non2xx || r.errors) throw new Error(`errors during load: ${JSON.stringify({ which, r })}`);
      runs[which].push(r);
    }
  }
  const sum = (rs: LoadResult[]) => ({
    rps: avg(rs.map((r) => r.rps)),
    p50: avg(rs.map((r) => r.p50)),
    p99: avg(rs.map((r) => r.p99)),
    rounds: rs.map((r) => fmt(r.rps)).join(' / '),
  });
  return { a: sum(runs.a), b: sum(runs.b) };
}

export async function benchRecords(opts: { seconds: number; connections: number }) {
  const { info, child } = await startServer<Info>('bench/servers/records-servers.ts', { LOG_LEVEL: 'silent' });
  try {
    const d = info.data;
    console.log(
      `\ndata: ${fmt(d.records)} weekly plans generated in ${d.tenants} tenants, beside the demo's own (${Object.entries(
        d.counts,
      )
        .map(([k, n]) => `${k} ${fmt(n)}`)
        .join(', ')}), ${fmt(d.events)} events; generated in ${fmt(d.generationSeconds, 1)} s (seed ${fmt(
        d.seedSeconds,
        1,
      )} s, ${Object.entries(d.seconds)
        .map(([k, s]) => `${k} ${fmt(s, 1)} s`)
        .join(', ')}); read models verified against the log and the projections' replay of a sample`,
    );
    const trialFull: Target = { url: info.trialFull, method: 'POST' };
    const trialBare: Target = { url: info.trialBare, method: 'POST' };
    const homeProjection: Target = { url: info.homeProjection, method: 'GET' };
    const homeEvents: Target = { url: info.homeEvents, method: 'GET' };

    // Sanity: the same page of the same queue, the same dashboard.
    const [full, bare] = [await call(trialFull, info.headers), await call(trialBare, info.headers)];
    const ids = (p: { records: Array<{ id: string }> }) => p.records.map((r) => r.id).join();
    if (full.total !== bare.total || full.records.length !== 10 || ids(full) !== ids(bare))
      throw new Error(`the trial lists disagree: ${JSON.stringify({ full: full.total, bare: bare.total })}`);
    if (JSON.stringify(full) !== JSON.stringify(bare)) throw new Error('the trial pages differ');
    const [proj, evts] = [await call(homeProjection, info.headers), await call(homeEvents, info.headers)];
    const shown = (h: Record<string, unknown>) => JSON.stringify({ ...h, asOf: '' });
    if (shown(proj) !== shown(evts)) throw new Error(`the dashboards disagree:\n${shown(proj)}\n${shown(evts)}`);
    if (proj.pendingReviews !== full.total) throw new Error('pending reviews ≠ the review queue');
    const weekly = (proj.weeks as Array<Record<string, number>>).reduce((n, w) => n + (w.created ?? 0), 0);

    const rounds = 4;
    const trial = await compare(trialBare, trialFull, info.headers, { ...opts, rounds });
    console.log(
      `\nreview queue, page 10 of ${fmt(full.total)} trial weeks in scope (${info.scope} dept(s); ${info.kv} key-value store; same statement: ${info.sameSql}), ${opts.connections} connections, ${rounds} × ${opts.seconds}s each, alternating`,
    );
    table([
      {
        route: 'bare Fastify + pg, same SQL',
        'req/s': fmt(trial.a.rps),
        'p50 ms': fmt(trial.a.p50, 1),
        'p99 ms': fmt(trial.a.p99, 1),
        rounds: trial.a.rounds,
      },
      {
        route: 'Sprout full stack',
        'req/s': fmt(trial.b.rps),
        'p50 ms': fmt(trial.b.p50, 1),
        'p99 ms': fmt(trial.b.p99, 1),
        rounds: trial.b.rounds,
      },
    ]);
    const listRatio = trial.b.rps / trial.a.rps;
    console.log(`ratio full/bare: ${listRatio.toFixed(2)}  (target ≥ 0.60: ${listRatio >= 0.6 ? 'met' : 'NOT met'})`);

    const home = await compare(homeEvents, homeProjection, info.headers, { ...opts, rounds });
    console.log(
      `\ndashboard (${fmt(weekly)} weeks created in the 9 weeks shown, ${fmt(proj.pendingReviews)} pending reviews; weekly counts, totals and pending equal on both), ${opts.connections} connections, ${rounds} × ${opts.seconds}s each, alternating`,
    );
    table([
      {
        source: 'events table',
        'req/s': fmt(home.a.rps, 1),
        'p50 ms': fmt(home.a.p50, 1),
        'p99 ms': fmt(home.a.p99, 1),
        rounds: home.a.rounds,
      },
      {
        source: 'projections',
        'req/s': fmt(home.b.rps, 1),
        'p50 ms': fmt(home.b.p50, 1),
        'p99 ms': fmt(home.b.p99, 1),
        rounds: home.b.rounds,
      },
    ]);
    const homeRatio = home.b.rps / home.a.rps;
    console.log(
      `ratio projection/events: ${homeRatio.toFixed(1)}×  (target ≥ 10×: ${homeRatio >= 10 ? 'met' : 'NOT met'})`,
    );
    return { listRatio, homeRatio };
  } finally {
    child.kill('SIGTERM');
  }
}
