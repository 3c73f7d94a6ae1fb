import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import { processCpuMs } from './cpu';

export const ROOT = resolve(import.meta.dirname, '..');

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** Closed-loop load: `connections` clients for `seconds`, from this process. */
export async function load(opts: {
  url: string;
  /** POST sends an empty JSON object. */
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
}): Promise<LoadResult> {
  const post = opts.method === 'POST';
  const r = await autocannon({
    url: opts.url,
    method: opts.method ?? 'GET',
    headers: post ? { ...opts.headers, 'content-type': 'application/json' } : opts.headers,
    body: post ? '{}' : undefined,
    connections: opts.connections,
    duration: opts.seconds,
    pipelining: 1,
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

/** Starts a bench server script in its own process; resolves with what it prints as JSON on its first line. */
export async function startServer<T>(
  script: string,
  env: Record<string, string> = {},
): Promise<{ info: T; child: ChildProcess }> {
  // BENCH_NODE_ARGS: extra node flags for the server (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
  const extra = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...extra, '--import', 'tsx', resolve(ROOT, script)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const info = await new Promise<T>((res, rej) => {
    let buf = '';
    child.stdout?.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        try {
          res(JSON.parse(buf.slice(0, nl)) as T);
        } catch (e) {
          rej(e);
        }
      }
    });
    child.on('exit', (code) => rej(new Error(`${script} exited with ${code}`)));
  });
  return { info, child };
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function table(rows: Array<Record<string, string | number>>) {
  const cols = Object.keys(rows[0] ?? {});
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(width[i] ?? 0)).join('  ');
  console.log(line(cols));
  for (const r of rows) console.log(line(cols.map((c) => String(r[c]))));
}

/** One side of a CPU-per-request comparison: a URL served by the process `pid`. */
export interface CpuVariant {
  name: string;
  url: string;
  headers?: Record<string, string>;
  pid: number;
}

/**
 * The server process's own CPU time per request (µs, read from /proc, not the load
 * generator's) for each variant: a warm-up, then `rounds` rounds in alternating order, the
 * best round of each kept. Prints a table with what each variant adds to the first and the
 * ratio off/on (the throughput ratio of a CPU-bound server); answers the best rounds.
 */
export async function cpuPerRequest(
  title: string,
  variants: CpuVariant[],
  opts: { seconds: number; rounds: number; connections?: number },
) {
  const run = async (v: CpuVariant, seconds: number) => {
    const before = processCpuMs(v.pid);
    const r = await autocannon({
      url: v.url,
      headers: v.headers,
      connections: opts.connections ?? 16,
      duration: seconds,
    });
    const used = processCpuMs(v.pid) - before;
    if (r.non2xx || r.errors) throw new Error(`${v.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    return { us: (used * 1000) / r.requests.total, rps: r.requests.average };
  };
  for (const v of variants) await run(v, 1); // warm-up
  const best = new Map<string, { us: number; rps: number }>();
  for (let i = 0; i < opts.rounds; i++) {
    for (const v of i % 2 ? [...variants].reverse() : variants) {
      const m = await run(v, opts.seconds);
      const b = best.get(v.name);
      if (!b || m.us < b.us) best.set(v.name, m);
    }
  }
  const base = best.get(variants[0]?.name ?? '')?.us ?? 0;
  console.log(
    `\n${title}: server CPU per request, ${opts.rounds} alternating rounds of ${opts.seconds}s (best of each)`,
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
  return { best, addedUs: (best.get(variants[1]?.name ?? '')?.us ?? base) - base };
}

/** One round of an on/off comparison: throughput, p99 and the server's CPU per request (µs). */
export interface OnOffRound {
  rps: number;
  p99: number;
  us: number;
}

/**
 * An on/off comparison on one server process (`pid`): `run` loads one side for `seconds`; the
 * sides alternate (off on on off off on on off) so drift in the machine's load hits both alike.
 * Prints the two sides' throughput, p99 and server CPU per request, and the ratio on/off of
 * throughput and of CPU; answers both ratios.
 */
export async function onOffRounds(opts: {
  title: string;
  names: { off: string; on: string };
  pid: number;
  seconds: number;
  run: (which: 'on' | 'off', seconds: number) => Promise<{ rps: number; p99: number }>;
  target?: number;
}) {
  const target = opts.target ?? 0.95;
  const rounds: Record<'on' | 'off', OnOffRound[]> = { on: [], off: [] };
  for (const which of ['off', 'on', 'on', 'off', 'off', 'on', 'on', 'off'] as const) {
    const before = processCpuMs(opts.pid) * 1000;
    const r = await opts.run(which, opts.seconds);
    const used = processCpuMs(opts.pid) * 1000 - before;
    rounds[which].push({ rps: r.rps, p99: r.p99, us: used / Math.max(1, r.rps * opts.seconds) });
  }
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const row = (name: string, xs: OnOffRound[]) => ({
    stack: name,
    'req/s': fmt(avg(xs.map((x) => x.rps))),
    'p99 ms': fmt(avg(xs.map((x) => x.p99)), 1),
    'server CPU µs/req': fmt(avg(xs.map((x) => x.us))),
  });
  console.log(`\n${opts.title}, 4 × ${opts.seconds}s each side, alternating`);
  table([row(opts.names.off, rounds.off), row(opts.names.on, rounds.on)]);
  const ratio = avg(rounds.on.map((x) => x.rps)) / avg(rounds.off.map((x) => x.rps));
  const cpuRatio = avg(rounds.off.map((x) => x.us)) / avg(rounds.on.map((x) => x.us));
  console.log(
    `ratio on/off: ${ratio.toFixed(3)} throughput (overhead ${((1 - ratio) * 100).toFixed(1)} %), ${cpuRatio.toFixed(3)} server CPU  (target ≥ ${target}: ${ratio >= target ? 'met' : 'NOT met'})`,
  );
  return { ratio, cpuRatio };
}
