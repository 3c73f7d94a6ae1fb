#!/usr/bin/env node
// `npm test`: lint, typecheck, build the web app if stale, then every vitest project
// (unit, integration on PostgreSQL + Redis, embedded smoke, browser end-to-end).
// Ends with one summary line: "tests: N passed, N failed, N skipped".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const env = { ...process.env, FORCE_COLOR: process.env.CI ? '0' : (process.env.FORCE_COLOR ?? '1') };
const failures = [];

function step(name, cmd, args) {
  console.log(`\n[test] ${name}: ${[cmd, ...args].join(' ')}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (r.status !== 0) {
    failures.push(name);
    console.log(`[test] ${name} FAILED after ${secs}s`);
  } else {
    console.log(`[test] ${name} ok (${secs}s)`);
  }
  return r.status === 0;
}

step('lint', 'npx', ['biome', 'check', '.']);
step('typecheck', 'npm', ['run', '--silent', 'typecheck']);
// Smoke and e2e tests load the built app; npm start builds the same way.
if (!existsSync(join(root, 'web/dist/index.html')) || process.env.CI) {
  step('build web', 'npm', ['run', '--silent', 'build', '-w', 'web']);
}

mkdirSync(join(root, '.tmp'), { recursive: true });
const report = join(root, '.tmp/vitest-report.json');
rmSync(report, { force: true });
const extra = process.argv.slice(2);
step('vitest', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...extra,
]);

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  passed = r.numPassedTests ?? 0;
  failed = r.numFailedTests ?? 0;
  skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  // A file that failed to load counts as a failure even if it ran no test.
  const brokenFiles = (r.testResults ?? []).filter(
    (f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0,
  );
  failed += brokenFiles.length;
}
if (failures.length) console.log(`\n[test] failed steps: ${failures.join(', ')}`);
if (failures.length && failed === 0) failed = failures.length;
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failures.length || failed ? 1 : 0);
