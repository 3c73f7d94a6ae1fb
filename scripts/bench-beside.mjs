// Runs benchmarks of an older commit beside this checkout, alternating, on the same machine:
//   node scripts/bench-beside.mjs <rev> [bench ...]     (default: list records auth)
// The older commit is checked out once into a git worktree under the system's temp folder
// (its dependencies installed there); each bench then runs old, new, new, old so that drift
// on a shared machine falls on both alike. Prints each run's figures and, per bench, every
// "ratio" line of the old and the new side by side. A report, never a pass/fail check.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const here = path.resolve(import.meta.dirname, '..');
const [rev, ...asked] = process.argv.slice(2);
if (!rev) {
  console.error('usage: node scripts/bench-beside.mjs <rev> [bench ...]');
  process.exit(2);
}
const benches = asked.length ? asked : ['list', 'records', 'auth'];
const sha = execFileSync('git', ['rev-parse', '--short', rev], { cwd: here, encoding: 'utf8' }).trim();
const old = path.join(tmpdir(), `sprout-beside-${sha}`);

if (!existsSync(old)) {
  execFileSync('git', ['worktree', 'add', '--detach', old, sha], { cwd: here, stdio: 'inherit' });
}
if (!existsSync(path.join(old, 'node_modules'))) {
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: old, stdio: 'inherit' });
}

const run = (cwd, bench) => {
  const r = spawnSync('npx', ['tsx', 'bench/run.ts', bench], { cwd, encoding: 'utf8', env: process.env });
  if (r.status !== 0) throw new Error(`${bench} in ${cwd} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
};
const ratios = (out) => out.split('\n').filter((l) => /ratio|vs /i.test(l));

for (const bench of benches) {
  const outs = { old: [], new: [] };
  for (const side of ['old', 'new', 'new', 'old']) {
    const out = run(side === 'old' ? old : here, bench);
    outs[side].push(out);
    console.log(`\n----- ${bench}, ${side === 'old' ? `old (${sha})` : 'new (this checkout)'} -----\n${out.trim()}`);
  }
  console.log(`\n===== ${bench}: the ratio lines, old ${sha} | new =====`);
  for (const side of ['old', 'new'])
    for (const out of outs[side]) for (const l of ratios(out)) console.log(`${side}: ${l}`);
}
