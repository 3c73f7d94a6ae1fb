#!/usr/bin/env node
// `npm start`: install what is missing, build the web app if it is missing or stale, then
// run Sprout (migrate, seed, serve http://localhost:8080). Plain Node: runs before any install.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const say = (m) => console.log(`[sprout] ${m}`);

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`[sprout] Node.js ${process.versions.node} is too old; Sprout needs 20.19 or newer.`);
  process.exit(1);
}

function mtime(p) {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return 0;
  }
}

function newest(dir) {
  let max = 0;
  if (!existsSync(dir)) return 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    max = Math.max(max, entry.isDirectory() ? newest(p) : mtime(p));
  }
  return max;
}

function run(cmd, args, what) {
  say(what);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (r.status !== 0) {
    console.error(`[sprout] ${what} failed (exit ${r.status ?? r.signal}).`);
    process.exit(r.status || 1);
  }
}

// 1. Dependencies: install when node_modules is missing or older than the lock file.
const installed = join(root, 'node_modules/.package-lock.json');
if (!existsSync(installed) || mtime(join(root, 'package-lock.json')) > mtime(installed)) {
  run('npm', ['ci', '--no-audit', '--no-fund'], 'installing dependencies (first start takes a minute)');
}

// 2. Web app: build when missing or older than its sources.
const built = join(root, 'web/dist/index.html');
const sources = Math.max(
  newest(join(root, 'web/src')),
  mtime(join(root, 'web/index.html')),
  mtime(join(root, 'web/vite.config.ts')),
);
if (!existsSync(built) || sources > mtime(built)) {
  run('npm', ['run', 'build', '-w', 'web', '--silent'], 'building the web app');
}

// 3. Serve. Signals go to the server, which drains and closes cleanly.
const child = spawn(process.execPath, ['--import', 'tsx', 'services/api/src/main.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
