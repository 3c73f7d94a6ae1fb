// Issue 22: how fast Sprout starts.
//   warm: process start to /api/ready answering 200, on data that exists (target < 3 s): the
//         compiled server (`node dist/server/main.mjs`, what the image and `npm start` run) beside
//         the same code through the tsx loader (what ran before), alternating, embedded (PGlite)
//         and server mode (PostgreSQL).
//   cold: a fresh clone to serving — `git clone`, `npm start` (npm ci, the web build, the server
//         compiled, migrations, seed) until /api/ready (target < 3 min). npm's cache is warm on a
//         machine that installed before, as on any developer's. START_COLD=0 skips it, START_WARM=0 the warm part.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, ROOT, table } from './lib';
// @ts-expect-error: a plain .mjs script without types
import { ltsNode, supported } from '../scripts/node-lts.mjs';

/** The Node that `npm start` and the image run Sprout on: this one when supported, else the LTS (scripts/node-lts.mjs). */
const NODE: string = supported() ? process.execPath : ltsNode(ROOT);

const ready = async (port: number) => {
  try {
    return (await fetch(`http://127.0.0.1:${port}/api/ready`)).status === 200;
  } catch {
    return false;
  }
};

let nextPort = 18_700 + Math.floor(Math.random() * 200);

/** Spawns a Sprout process and resolves with milliseconds until /api/ready answered 200. */
async function timeToReady(
  args: string[],
  env: Record<string, string>,
  cwd = ROOT,
  limitMs = 400_000,
): Promise<{ ms: number; child: ChildProcess; port: number }> {
  const port = nextPort++;
  const started = performance.now();
  const child = spawn(args[0] as string, args.slice(1), {
    cwd,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  while (!(await ready(port))) {
    if (exited) throw new Error(`${args.join(' ')} exited before it was ready`);
    if (performance.now() - started > limitMs) {
      child.kill('SIGKILL');
      throw new Error(`${args.join(' ')}: not ready in ${limitMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return { ms: performance.now() - started, child, port };
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

export async function benchStart(opts: { runs: number; cold: boolean; warm?: boolean }) {
  if (opts.warm !== false) await warmStart(opts.runs);
  if (opts.cold) await coldStart();
}

async function warmStart(runs: number) {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-server.mjs')], { stdio: 'inherit' });
  const compiled = [NODE, '--enable-source-maps', join(ROOT, 'dist/server/main.mjs')];
  const tsx = [NODE, '--import', 'tsx', join(ROOT, 'services/api/src/main.ts')];

  // Embedded: a data directory migrated and seeded once (the first start), then copied for every run.
  const base = mkdtempSync(join(tmpdir(), 'sprout-start-'));
  const seeded = join(base, 'seeded');
  const first = await timeToReady(compiled, { DATA_DIR: seeded });
  await stop(first.child);
  // Server mode: a database migrated and seeded once.
  const db = `bench_start_${randomBytes(4).toString('hex')}`;
  const admin = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  execFileSync('psql', [admin, '-qc', `create database ${db}`]);
  // Server mode as production runs it: PostgreSQL, and Redis for the queue and the key-value store.
  const serverEnv = {
    DATABASE_URL: admin.replace(/\/[^/]*$/, `/${db}`),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    KV_PREFIX: db,
    JWT_SECRET: randomBytes(32).toString('hex'),
    MASTER_KEY: randomBytes(32).toString('base64'),
    DEMO_SEED: 'true',
  };
  await stop((await timeToReady(compiled, serverEnv)).child);

  const rows: Array<Record<string, string | number>> = [];
  try {
    for (const mode of ['embedded', 'server'] as const) {
      const times = { compiled: [] as number[], tsx: [] as number[] };
      for (let i = 0; i < runs; i++)
        for (const [name, args] of [
          ['compiled', compiled],
          ['tsx', tsx],
        ] as const) {
          const env: Record<string, string> =
            mode === 'server' ? serverEnv : { DATA_DIR: join(base, `run-${name}-${i}`) };
          if (mode === 'embedded') cpSync(seeded, env.DATA_DIR as string, { recursive: true });
          const r = await timeToReady([...args], env);
          times[name].push(r.ms);
          await stop(r.child);
        }
      console.log(
        `${mode}: compiled ${times.compiled.map((x) => fmt(x)).join(', ')} ms; tsx ${times.tsx.map((x) => fmt(x)).join(', ')} ms`,
      );
      const c = median(times.compiled);
      const t = median(times.tsx);
      rows.push({
        mode,
        'compiled (ms, median)': fmt(c),
        'tsx loader (ms, median)': fmt(t),
        'compiled / tsx': fmt(c / t, 2),
        target: '< 3000 ms',
        runs,
      });
    }
  } finally {
    execFileSync('psql', [admin, '-qc', `drop database if exists ${db} with (force)`]);
    rmSync(base, { recursive: true, force: true });
  }
  console.log(
    `warm start: process start → /api/ready 200 on Node ${execFileSync(NODE, ['--version']).toString().trim()} (alternating, same machine; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')})`,
  );
  table(rows);
}

async function coldStart() {
  // Cold: a fresh clone of this commit to serving.
  const dir = mkdtempSync(join(tmpdir(), 'sprout-clone-'));
  try {
    const t0 = performance.now();
    execFileSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, join(dir, 'sprout')]);
    const cloned = performance.now() - t0;
    const r = await timeToReady([process.execPath, 'scripts/start.mjs'], {}, join(dir, 'sprout'), 600_000);
    await stop(r.child);
    const total = cloned + r.ms;
    console.log('cold start: fresh clone → serving (npm ci, web build, server compiled, migrated, seeded)');
    table([
      {
        'git clone (s)': fmt(cloned / 1000, 1),
        'npm start → ready (s)': fmt(r.ms / 1000, 1),
        'total (s)': fmt(total / 1000, 1),
        target: '< 180 s',
      },
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
