import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
    s.on('error', rej);
  });
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  output: () => string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

/**
 * What a Sprout process runs: the compiled server, as `npm start` and the image run it
 * (compiled once per run by the e2e global setup, tests/setup/e2e-global.ts).
 */
export const SPROUT_PROGRAM = ['--enable-source-maps', 'dist/server/main.mjs'];

/**
 * Starts a real Sprout process (`node dist/server/main.mjs`), as `npm start`
 * does after install and build. `env` replaces DATABASE_URL/REDIS_URL: absent → embedded.
 */
export async function startSprout(
  env: Record<string, string | undefined> = {},
  dataDir?: string,
): Promise<RunningServer> {
  // `PORT` in `env`: the same address again (a restart the open pages reconnect to).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'sprout-e2e-'));
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) childEnv[k] = v;
  delete childEnv.DATABASE_URL;
  delete childEnv.REDIS_URL;
  delete childEnv.JWT_SECRET;
  Object.assign(childEnv, { PORT: String(port), DATA_DIR: dir, LOG_LEVEL: 'warn', HOST: '127.0.0.1' });
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete childEnv[k];
    else childEnv[k] = v;
  }
  const child: ChildProcess = spawn(process.execPath, SPROUT_PROGRAM, {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  const url = `http://127.0.0.1:${port}`;
  // A crowded machine may need longer (SPROUT_E2E_START_TIMEOUT_MS); 120 s by default.
  const startMs = Number(process.env.SPROUT_E2E_START_TIMEOUT_MS ?? 120_000);
  const deadline = Date.now() + startMs;
  let done = false;
  exited.then(() => {
    done = true;
  });
  while (!done) {
    try {
      const r = await fetch(`${url}/api/health`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Sprout did not start within ${startMs / 1000} s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  if (done) throw new Error(`Sprout exited during start:\n${out}`);
  return {
    url,
    port,
    dataDir: dir,
    output: () => out,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      child.kill(signal);
      return exited;
    },
  };
}

/** Runs the process to its exit (for start-up failures). */
export function runSprout(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((res) => {
    const childEnv = { ...process.env, ...env } as Record<string, string>;
    delete childEnv.DATABASE_URL;
    const child = spawn(process.execPath, SPROUT_PROGRAM, {
      cwd: ROOT,
      env: childEnv,
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('exit', (code) => res({ code, output }));
  });
}
