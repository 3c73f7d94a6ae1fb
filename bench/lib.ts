import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import autocannon from 'autocannon';

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
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(ROOT, script)], {
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
