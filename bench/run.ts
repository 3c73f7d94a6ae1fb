// `npm run bench [-- name ...]`: runs the benchmarks and prints their figures.
// Never a pass/fail test: it reports; targets are shown beside the numbers.
import { benchAudit } from './audit.bench';
import { benchEvents } from './events.bench';
import { benchGuard } from './guard.bench';
import { benchHardening } from './hardening.bench';
import { benchImport } from './import.bench';
import { benchApiLog } from './apilog.bench';
import { benchAuth } from './auth.bench';
import { benchCollab } from './collab.bench';
import { benchConsole } from './console.bench';
import { benchList } from './list.bench';
import { benchObservations } from './observations.bench';
import { benchPermissions } from './permissions.bench';
import { benchRecords } from './records.bench';
import { benchShared } from './shared.bench';
import { benchSecurity } from './security.bench';
import { benchTextRule } from './text-rule.bench';
import { benchUpload } from './upload.bench';
import { benchWeb } from './web.bench';
import { benchWorkflow } from './workflow.bench';

const all: Record<string, () => Promise<unknown>> = {
  list: () => benchList({ seconds: Number(process.env.BENCH_SECONDS ?? 10), connections: 32 }),
  // Issue 16: the builder-made user page (data scope applied) vs the same SQL on a bare route (target ≥ 0.85).
  console: () => benchConsole({ seconds: Number(process.env.BENCH_SECONDS ?? 10), connections: 32 }),
  auth: () => benchAuth({ seconds: Number(process.env.BENCH_SECONDS ?? 10), connections: 32 }),
  events: () => benchEvents({ seconds: Number(process.env.BENCH_SECONDS ?? 5) }),
  permissions: () => benchPermissions({ seconds: Number(process.env.BENCH_SECONDS ?? 10), connections: 32 }),
  records: () => benchRecords({ seconds: Number(process.env.BENCH_SECONDS ?? 10), connections: 32 }),
  // Issue 18: the observation review queue and the per-child page vs the same SQL through pg (target ≥ 0.8 each).
  observations: () => benchObservations({ seconds: Number(process.env.BENCH_SECONDS ?? 10), connections: 32 }),
  // Issue 23: the school-wide excellent list and 我的收藏 vs the same SQL through pg (target ≥ 0.8 each, p99 printed).
  shared: () => benchShared({ seconds: Number(process.env.BENCH_SECONDS ?? 10), connections: 32 }),
  // Issue 24: as-of state of a 1,000-event stream vs one SELECT + fold here; the search over 200,000 streams vs pg (≥ 0.8 each).
  audit: () =>
    benchAudit({
      streams: Number(process.env.AUDIT_STREAMS ?? 200_000),
      events: Number(process.env.AUDIT_EVENTS ?? 1000),
      runs: Number(process.env.BENCH_RUNS ?? 100),
    }),
  web: () => benchWeb({ runs: Number(process.env.BENCH_RUNS ?? 15) }),
  // Issue 14: the list with helmet, rate limits and the text rule on vs off (target ≥ 0.95).
  hardening: () => benchHardening({ seconds: Number(process.env.BENCH_SECONDS ?? 10), connections: 32 }),
  // Issue 17: the API log on vs off, on the user list and on a write call (target: overhead ≤ 5 %).
  apilog: () => benchApiLog({ seconds: Number(process.env.BENCH_SECONDS ?? 10), connections: 32 }),
  // Issue 14: the statement-outside-transaction guard's server CPU per list request (on vs off).
  guard: () => benchGuard({ seconds: Number(process.env.BENCH_SECONDS ?? 3) }),
  // Issue 14: the shared text rule's cost per request (LIST_RPS: the list bench's rate, for its share).
  text: () =>
    benchTextRule({
      seconds: Number(process.env.BENCH_SECONDS ?? 3),
      listRps: process.env.LIST_RPS ? Number(process.env.LIST_RPS) : undefined,
    }),
  // Issue 14: the security headers' and CORS's server CPU per request (LIST_RPS: the list bench's rate, for its share).
  security: () =>
    benchSecurity({
      seconds: Number(process.env.BENCH_SECONDS ?? 4),
      listRps: process.env.LIST_RPS ? Number(process.env.LIST_RPS) : undefined,
    }),
  // Issue 17: put-file of 1 MB images, 16 in flight, vs fs writes of the same bytes (target ≥ 0.7).
  // Issue 19: 5,000 children with guardians imported from .xlsx vs reading the file with exceljs alone (target ≥ 0.5).
  import: () =>
    benchImport({ rows: Number(process.env.BENCH_ROWS ?? 5000), rounds: Number(process.env.BENCH_ROUNDS ?? 3) }),
  // Issue 20: the leave process start→end on Sprout's engine vs bpmn-engine with its state in PostgreSQL (target ≥ 1.0); complete-task over HTTP p99.
  workflow: () =>
    benchWorkflow({
      seconds: Number(process.env.BENCH_SECONDS ?? 5),
      rounds: Number(process.env.BENCH_ROUNDS ?? 2),
      httpTasks: Number(process.env.BENCH_TASKS ?? 400),
    }),
  upload: () => benchUpload({ seconds: Number(process.env.BENCH_SECONDS ?? 5), inFlight: 16 }),
  // Issue 8; `--quick`: 5 s runs instead of the spec's 30 s (BENCH_SECONDS overrides both).
  collab: () =>
    benchCollab({
      seconds: Number(process.env.BENCH_SECONDS ?? (process.argv.includes('--quick') ? 5 : 30)),
      rate: 5,
      oneDocClients: 50,
      docs: 500,
      clientsPerDoc: 2,
      processes: Number(process.env.COLLAB_CLIENT_PROCESSES ?? 2),
      asyncCommit: process.env.COLLAB_BENCH_ASYNC === '1',
      rounds: process.argv.includes('--quick') ? 3 : 6,
    }),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length ? wanted : Object.keys(all);
for (const name of names) {
  const run = all[name];
  if (!run) {
    console.error(`unknown benchmark "${name}"; known: ${Object.keys(all).join(', ')}`);
    process.exit(2);
  }
  console.log(`\n=== ${name} ===`);
  await run();
}
process.exit(0);
