import { execFileSync } from 'node:child_process';
import { fmt, type LoadResult, load, startServer, table } from './lib';

/**
 * Issue 18, over 200,000 observations (观察记录 and 区域观察) in 20 kindergartens beside their
 * weekly plans, as the demo reviewer (data scope: the kindergarten):
 *
 *  1. The review queue (`POST /api/t_observation/observation/alllistForTrial`, page 10);
 *  2. the per-child page: `GET /api/guide/child/records` (page 2 of 30) for a child named by
 *     300 records, and `GET /api/guide/child/coverage` (the current semester).
 *
 * Each through the whole stack (auth, cached ability, route and button check, the child's
 * scope check, the one-round-trip tenant transaction with RLS, presenter, envelope) ÷ the
 * very statements it sent (caught on a probe) sent through pg from a bare Fastify route in
 * the same round trips, in req/s, same run, same concurrency. Target ≥ 0.8 each.
 *
 * The server runs as in production (NODE_ENV=production). Figures only: rounds alternate between the two sides so drift on a shared machine hits
 * both alike; the machine's load average is printed beside each figure.
 */
export interface Target {
  method: 'GET' | 'POST';
  full: string;
  bare: string;
  scripts: string[];
}

interface Info {
  kv: string;
  headers: Record<string, string>;
  targets: Record<'trial' | 'records' | 'coverage', Target>;
  data: {
    tenants: number;
    observations: number;
    byKind: Record<string, number>;
    childRecords: number;
    weeks: number;
    generationSeconds: number;
    observationSeconds: number;
  };
}

export const loadAvg = () => {
  try {
    return execFileSync('uptime', { encoding: 'utf8' })
      .replace(/.*load average:\s*/, '')
      .trim();
  } catch {
    return '?';
  }
};

export async function call(method: 'GET' | 'POST', url: string, headers: Record<string, string>) {
  const post = method === 'POST';
  const r = await fetch(url, {
    method,
    headers: post ? { ...headers, 'content-type': 'application/json' } : headers,
    body: post ? '{}' : undefined,
  });
  // biome-ignore lint/suspicious/noExplicitAny: read field by field below
  const body = (await r.json()) as { success: boolean; data: any };
  if (!body.success) throw new Error(`${url} answered ${r.status}: ${JSON.stringify(body)}`);
  return body.data;
}

const avg = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;

export async function compare(
  t: Target,
  headers: Record<string, string>,
  opts: { seconds: number; connections: number; rounds: number },
) {
  const run = (url: string, seconds: number) =>
    load({ url, method: t.method, headers, connections: opts.connections, seconds });
  await run(t.bare, 2);
  await run(t.full, 2);
  const runs = { bare: [] as LoadResult[], full: [] as LoadResult[] };
  for (let i = 0; i < opts.rounds; i++) {
    for (const which of i % 2 ? (['full', 'bare'] as const) : (['bare', 'full'] as const)) {
      const r = await run(which === 'bare' ? t.bare : t.full, opts.seconds);
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
  return { bare: sum(runs.bare), full: sum(runs.full) };
}

/**
 * One call measured against its peer (`compare`): its two rows of the figures table (req/s,
 * p50, p99, the rounds, the machine's load around it) and its ratio full/pg, printed against
 * the 0.8 target.
 */
export async function measureCase(
  title: string,
  target: Target,
  headers: Record<string, string>,
  opts: { seconds: number; connections: number; rounds: number },
  rows: Array<Record<string, string>>,
): Promise<number> {
  const before = loadAvg();
  const r = await compare(target, headers, opts);
  const after = loadAvg();
  const ratio = r.full.rps / r.bare.rps;
  for (const [side, s] of [
    ['pg, same SQL', r.bare],
    ['Sprout full stack', r.full],
  ] as const)
    rows.push({
      call: title,
      side,
      'req/s': fmt(s.rps),
      'p50 ms': fmt(s.p50, 1),
      'p99 ms': fmt(s.p99, 1),
      rounds: s.rounds,
      'load avg (before → after)': `${before} → ${after}`,
    });
  console.log(
    `${title}: ratio full/pg ${ratio.toFixed(2)}  (target ≥ 0.80: ${ratio >= 0.8 ? 'met' : 'NOT met'}); statements per call: ${
      target.scripts.length
    }`,
  );
  return ratio;
}

/** Each case measured (`measureCase`), then the figures table; the ratios by case. */
export async function measureCases(
  cases: ReadonlyArray<readonly [string, string, Target]>,
  headers: Record<string, string>,
  opts: { seconds: number; connections: number; rounds?: number },
): Promise<Record<string, number>> {
  const rounds = opts.rounds ?? 4;
  const rows: Array<Record<string, string>> = [];
  const ratios: Record<string, number> = {};
  for (const [name, title, target] of cases)
    ratios[name] = await measureCase(title, target, headers, { ...opts, rounds }, rows);
  console.log(`\n${opts.connections} connections, ${rounds} × ${opts.seconds}s each side, alternating`);
  table(rows);
  return ratios;
}

export async function benchObservations(opts: { seconds: number; connections: number; rounds?: number }) {
  // As production runs it (NODE_ENV=production): without the statement-outside-transaction
  // guard, whose AsyncLocalStorage hooks every promise of the process on Node 20 (bench `guard`).
  const { info, child } = await startServer<Info>('bench/servers/observations-servers.ts', {
    LOG_LEVEL: 'silent',
    NODE_ENV: 'production',
  });
  try {
    const d = info.data;
    console.log(
      `\ndata: ${fmt(d.observations)} observations in ${d.tenants} tenants (record_list by kind, the demo's own included: ${Object.entries(
        d.byKind,
      )
        .map(([k, n]) => `${k} ${fmt(n)}`)
        .join(', ')}), beside ${fmt(d.weeks)} generated weekly plans; ` +
        `the child is named by ${d.childRecords} records; generated in ${fmt(d.generationSeconds, 1)} s (observations ${fmt(
          d.observationSeconds,
          1,
        )} s); ${info.kv} key-value store`,
    );
    const { trial, records, coverage } = info.targets;

    // Sanity: the stack and its peer read the same rows.
    const page = await call('POST', trial.full, info.headers);
    const trialBare = await call('POST', trial.bare, info.headers);
    if (JSON.stringify(page) !== JSON.stringify(trialBare) || page.records.length !== 10)
      throw new Error(`the review queues differ: ${page.total} vs ${trialBare.total}`);
    const childPage = await call('GET', records.full, info.headers);
    const childBare = await call('GET', records.bare, info.headers);
    // Named by d.childRecords; the page leaves out other people's drafts.
    if (Number(childBare.records[0]?.__total) !== childPage.total || childPage.records.length !== 30)
      throw new Error(`the child's pages disagree: ${childPage.total} vs ${childBare.records[0]?.__total}`);
    const cov = await call('GET', coverage.full, info.headers);

    const cases = [
      ['trial', `review queue, page 10 of ${fmt(page.total)}`, trial],
      ['records', `child's records, page 2 of ${fmt(childPage.total)}`, records],
      ['coverage', `child's coverage (${cov.semester}: ${cov.records} records)`, coverage],
    ] as const;
    return await measureCases(cases, info.headers, opts);
  } finally {
    child.kill('SIGTERM');
  }
}
