// What must hold after the faults, and the backup runbook of docs/OPERATIONS.md executed as
// written: its shell blocks between `<!-- runbook:backup -->` markers are run by bash.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Database } from '@sprout/core/db';
import { ROOT } from '../helpers/server';
import { call, PLAN, signIn } from './client';
import { type Fleet, waitFor } from './fleet';

/** Streams whose versions are not exactly 1 … n (a gap or a duplicate), and streams whose row disagrees. */
export async function checkEventStreams(direct: Database): Promise<string[]> {
  const gaps = await sql<{ stream_id: string; n: number; hi: number }>`
    select stream_id, count(*)::int as n, max(stream_version) as hi from events
    group by tenant_id, stream_id
    having count(*) <> max(stream_version) or min(stream_version) <> 1 or count(distinct stream_version) <> count(*)`.execute(
    direct.db,
  );
  const rows = await sql<{ stream_id: string }>`
    select s.stream_id from streams s
    where s.version <> (select coalesce(max(e.stream_version), 0) from events e
                        where e.tenant_id = s.tenant_id and e.stream_id = s.stream_id)`.execute(direct.db);
  return [
    ...gaps.rows.map((r) => `stream ${r.stream_id}: ${r.n} events, highest version ${r.hi}`),
    ...rows.rows.map((r) => `stream ${r.stream_id}: its version disagrees with its events`),
  ];
}

/** A read model's rows, in a fixed order, as text. */
function snapshot(fleet: Fleet, name: string, db = fleet.dbName): string {
  return fleet.psql(
    `select coalesce(md5(string_agg(t::text, E'\\n' order by t::text)), '') || ' ' || count(*) from ${name} t`,
    db,
  );
}

/** Committed events a projection has not applied yet. */
function behind(fleet: Fleet, name: string, db = fleet.dbName): number {
  return Number(
    fleet.psql(
      `select count(*) from events e, projections p where p.name = '${name}' and (e.transaction_id, e.global_position) > (p.transaction_id, p.global_position)`,
      db,
    ),
  );
}

/**
 * Every projection, once caught up, against a blue/green rebuild from the log
 * (`npm run projections:rebuild`, run as an operator would, through PgBouncer).
 */
export async function rebuildAndCompare(fleet: Fleet): Promise<string[]> {
  const names = fleet.psql("select string_agg(name, ',' order by name) from projections").split(',').filter(Boolean);
  // Only the async projections trail the log; an inline one (the workflow's work lists) is
  // written with its events and keeps no checkpoint of its own.
  const trailing = new Set(
    fleet.psql("select string_agg(name, ',') from projections where kind = 'async'").split(',').filter(Boolean),
  );
  const before = new Map<string, string>();
  for (const name of names) {
    if (trailing.has(name))
      await waitFor(() => behind(fleet, name) === 0, `${name} to catch up`, 30_000).catch(() => undefined);
    before.set(name, snapshot(fleet, name));
  }
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/projections-rebuild.ts', '--all'], {
    cwd: ROOT,
    env: { ...fleet.envFor('worker', 0, 900), LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  if (r.status !== 0) return [`rebuild failed: ${r.stderr || r.stdout}`];
  const diffs: string[] = [];
  for (const name of names) {
    const after = snapshot(fleet, name);
    console.log(`[fleet] projection ${name}: live ${before.get(name)} = rebuilt ${after}`);
    if (before.get(name) !== after) diffs.push(`${name}: live ${before.get(name)} ≠ rebuilt ${after}`);
  }
  return diffs;
}

/** The shell blocks of a runbook section of docs/OPERATIONS.md. */
export function runbookBlocks(section: string): string[] {
  const doc = readFileSync(join(ROOT, 'docs/OPERATIONS.md'), 'utf8');
  const start = doc.indexOf(`<!-- runbook:${section} -->`);
  const end = doc.indexOf(`<!-- /runbook:${section} -->`);
  if (start < 0 || end < start) throw new Error(`docs/OPERATIONS.md has no runbook:${section} section`);
  return [...doc.slice(start, end).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] as string);
}

function bash(script: string, env: Record<string, string>): string {
  const r = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`runbook step failed (${r.status}):\n${script}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const TABLES = [
  'events',
  'streams',
  'record_list',
  'app_user',
  'user_role',
  'role',
  'dept',
  'clazz',
  'student',
  'collab_doc',
  'collab_update',
];

/**
 * The backup runbook against the live fleet: dump, restore into a fresh database, start a
 * Sprout process on it, rebuild every projection, compare lists, counts and event checksums.
 */
export async function runBackupRunbook(fleet: Fleet) {
  const [backup, restore, rebuild, checksum] = runbookBlocks('backup');
  if (!backup || !restore || !rebuild || !checksum) throw new Error('the backup runbook needs four shell blocks');
  const target = 'sprout_restored';
  const env = {
    ...fleet.envFor('api', 0, 901),
    SOURCE_URL: fleet.directUrl,
    BACKUP_FILE: join(fleet.dir, 'sprout.dump'),
    ADMIN_URL: `postgres://postgres@127.0.0.1:${fleet.pgPort}/postgres`,
    TARGET_DB: target,
    TARGET_URL: `postgres://postgres@127.0.0.1:${fleet.pgPort}/${target}`,
  };
  const t0 = Date.now();
  bash(backup, env);
  const dumped = Date.now();
  bash(restore, env);
  const restored = Date.now();
  // Sprout on the restored database (its own key-value prefix: caches and queues of the original stay apart).
  const p = await fleet.startSprout('api', undefined, {
    DATABASE_URL: env.TARGET_URL,
    DATABASE_SESSION_URL: env.TARGET_URL,
    KV_PREFIX: 'restored',
    DEMO_SEED: 'false',
  });
  const restoredUrl = `http://127.0.0.1:${p.port}`;
  bash(rebuild, { ...env, DATABASE_URL: env.TARGET_URL, DATABASE_SESSION_URL: env.TARGET_URL, KV_PREFIX: 'restored' });
  const rebuilt = Date.now();

  const mismatches: string[] = [];
  // Checksums of the events (the runbook's own query) and counts of the main tables.
  const sumOf = (url: string) => bash(checksum, { ...env, DB_URL: url }).trim();
  const [a, b] = [sumOf(fleet.directUrl), sumOf(env.TARGET_URL)];
  if (a !== b) mismatches.push(`event checksum: live ${a} ≠ restored ${b}`);
  for (const table of TABLES) {
    const q = `select count(*) from ${table}`;
    const [x, y] = [fleet.psql(q), fleet.psql(q, target)];
    if (x !== y) mismatches.push(`${table}: live ${x} rows ≠ restored ${y}`);
  }
  // The projections rebuilt on the restored side equal the live ones.
  for (const name of fleet
    .psql("select string_agg(name, ',' order by name) from projections")
    .split(',')
    .filter(Boolean)) {
    const [x, y] = [snapshot(fleet, name), snapshot(fleet, name, target)];
    if (x !== y) mismatches.push(`projection ${name}: live ${x} ≠ restored ${y}`);
  }
  // The same lists through the API, both sides: a teacher's plans and the administrator's users.
  const lists: Array<[string, string, string]> = [
    ['teacher plans', 'teacher1', `${PLAN}/list?current=1&size=50`],
    ['users', 'admin', '/api/blade-user/page?current=1&size=50'],
  ];
  for (const [what, account, url] of lists) {
    const live = await call(fleet.url, (await signIn(fleet.url, account)).token, 'GET', url);
    const back = await call(restoredUrl, (await signIn(restoredUrl, account)).token, 'GET', url);
    if (live.status !== 200 || back.status !== 200)
      mismatches.push(`${what}: live ${live.status}, restored ${back.status}`);
    else if (JSON.stringify(live.body.data) !== JSON.stringify(back.body.data))
      mismatches.push(`${what}: the lists differ (${live.body.data?.total} vs ${back.body.data?.total})`);
  }
  const events = fleet.psql('select count(*) from events');
  p.child.kill('SIGTERM');
  await p.exited;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return {
    mismatches,
    text: `[fleet] backup/restore: pg_dump ${s(dumped - t0)}, restore ${s(restored - dumped)}, start + rebuild ${s(rebuilt - restored)}; ${events} events, checksum ${a}`,
  };
}
