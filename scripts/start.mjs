#!/usr/bin/env node
// `npm start`: install what is missing, build the web app if it is missing or stale, then
// run Sprout (migrate, seed, serve http://localhost:8080). Plain Node: runs before any install.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ltsNode, NODE_LTS, supported } from './node-lts.mjs';

const root = new URL('..', import.meta.url).pathname;
const say = (m) => console.log(`[sprout] ${m}`);

// An unsupported Node (the 20 some machines still carry): run this same script on the LTS,
// fetched from the npm registry into .tools/ (scripts/node-lts.mjs), with npm on it too.
if (!supported()) {
  let node;
  try {
    node = ltsNode(root, say);
  } catch (err) {
    console.error(
      `[sprout] Node.js ${process.versions.node} is too old (Sprout needs 22.19+, 24 or 26+): ${err.message}`,
    );
    process.exit(1);
  }
  say(`running on Node.js ${NODE_LTS} from .tools/`);
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
  const again = spawn(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => again.kill(sig));
  again.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  await start();
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
    if (entry.name === 'node_modules') continue;
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

async function start() {
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

  // 3. Server: compiled into plain JavaScript once (scripts/build-server.mjs), again when its sources change.
  const compiled = join(root, 'dist/server/main.mjs');
  const serverSources = Math.max(
    newest(join(root, 'services')),
    newest(join(root, 'migrations')),
    mtime(join(root, 'scripts/build-server.mjs')),
  );
  if (!existsSync(compiled) || serverSources > mtime(compiled)) {
    run(process.execPath, [join(root, 'scripts/build-server.mjs')], 'compiling the server');
  }

  // 4. Serve. Signals go to the server, which drains and closes cleanly.
  const child = spawn(process.execPath, ['--enable-source-maps', compiled], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
