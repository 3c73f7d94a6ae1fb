// Faults during load: autocannon (loopback, fixed duration) writes and reads teacher plans
// through HAProxy while two co-editors type; meanwhile one api, one collab and one worker are
// killed with SIGKILL (and started again, as an orchestrator would), Redis is restarted and
// PostgreSQL stopped immediately and started. Returns the figures and what went wrong.
import autocannon from 'autocannon';
import { sql } from 'kysely';
import * as Y from 'yjs';
import type { Database } from '@sprout/core/db';
import { type Client, connectClient, createWeek, themeOf } from '@sprout/collab/testing';
import { authHeaders, currentSemester, PLAN, planContent, signIn, TENANT } from './client';
import { type Fleet, type SproutProcess, sleep, waitFor } from './fleet';

export interface FaultWindow {
  name: string;
  /** ms since the load started. */
  at: number;
  /**
   * Until the fleet serves again: HAProxy answers ready, each backend has an UP server and
   * none that is dead, a write through it succeeds, every async projection has a leader.
   */
  servingMs: number;
  /** Until the killed process is replaced too: every backend UP in HAProxy, every worker running. */
  recoveredMs: number;
  errors: number;
  /** From the first to the last error attributed to this fault. */
  errorSpanMs: number;
  /** What the errors were (HTTP status or connection error) and how many of each. */
  kinds: Record<string, number>;
}

export interface FaultReport {
  requests: number;
  /** How long the load ran (ms): every fault must fall inside it. */
  loadMs: number;
  acknowledgedWrites: number;
  lostWrites: string[];
  reads: number;
  faults: FaultWindow[];
  errorsOutsideFaults: Array<{ at: number; what: string }>;
  coEdits: { typed: number; acknowledged: number };
  coEditMissing: string[];
  text: string;
}

interface Typist {
  client: Client;
  tag: string;
  /** Each insert's marker and the clock it needs acknowledged. */
  typed: Array<{ marker: string; clock: number }>;
}

/** The load's bound: it stops 3 s after the last fault has recovered, or at this. */
const LOAD_MAX_SECONDS = Number(process.env.FLEET_LOAD_MAX_SECONDS ?? 480);
/** An error belongs to a fault from this long before it until this long after recovery. */
const BEFORE_MS = 500;
const AFTER_MS = 2000;

export async function runFaultsUnderLoad(
  fleet: Fleet,
  direct: Database,
  admin: { token: string; userId: string },
): Promise<FaultReport> {
  const teacher = await signIn(fleet.url, 'teacher1');
  const semester = currentSemester();
  const run = Date.now().toString(36);

  // Co-editors through HAProxy (round robin puts them on different collab processes).
  const week = await createWeek(direct, TENANT, admin.userId);
  const typists: Typist[] = ['A', 'B'].map((tag) => ({
    tag,
    client: connectClient(fleet.wsUrl, week.docName, admin.token, { acks: true }),
    typed: [],
  }));
  await Promise.all(typists.map((t) => t.client.synced));
  let typing = true;
  const typingDone = Promise.all(
    typists.map(async (t) => {
      let n = 0;
      while (typing) {
        const marker = `[${t.tag}${n++}]`;
        const doc = t.client.doc;
        themeOf(doc).insert(themeOf(doc).length, marker);
        t.typed.push({ marker, clock: Y.decodeStateVector(Y.encodeStateVector(doc)).get(doc.clientID) ?? 0 });
        await sleep(250);
      }
    }),
  );

  // The load and its ledger.
  const t0 = Date.now();
  const ledger = new Map<string, string>();
  const errors: Array<{ at: number; what: string }> = [];
  let writes = 0;
  let reads = 0;
  // An error answer and what gave it: Sprout's envelope names its errorCode; anything else
  // (HAProxy's own 502/503 page) is the balancer's.
  const failed = (status: number, body: string) => {
    if (status < 400) return;
    let by = 'balancer';
    try {
      by = String(JSON.parse(body).errorCode ?? 'sprout');
    } catch {
      /* not Sprout's envelope */
    }
    errors.push({ at: Date.now() - t0, what: `HTTP ${status} ${by}` });
  };
  let finish!: (r: autocannon.Result) => void;
  let fail!: (err: Error) => void;
  const finished = new Promise<autocannon.Result>((res, rej) => {
    finish = res;
    fail = rej;
  });
  const instance = autocannon(
    {
      url: fleet.url,
      connections: 4,
      overallRate: 80,
      duration: LOAD_MAX_SECONDS,
      timeout: 15,
      headers: authHeaders(teacher.token),
      requests: [
        {
          method: 'POST',
          path: `${PLAN}/update`,
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => {
            const title = `load-${run}-${writes++}`;
            return { ...req, body: JSON.stringify({ content: planContent(semester, title) }) };
          },
          onResponse: (status, body) => {
            if (status !== 200) return failed(status, body);
            try {
              const data = JSON.parse(body).data;
              if (data?.id) ledger.set(String(data.id), String(data.title));
            } catch {
              /* not an acknowledgement */
            }
          },
        },
        {
          method: 'GET',
          path: `${PLAN}/list?current=1&size=10`,
          onResponse: (status, body) => {
            if (status !== 200) return failed(status, body);
            reads++;
          },
        },
      ],
    },
    (err, result) => (err ? fail(err) : finish(result)),
  );
  instance.on('reqError', (err: Error) => errors.push({ at: Date.now() - t0, what: err.message }));

  // The faults, one after another, each once the fleet is healthy again.
  const asyncProjections = Number(
    (await sql<{ n: number }>`select count(*)::int as n from projections where kind = 'async'`.execute(direct.db))
      .rows[0]?.n ?? 0,
  );
  const alive = (p: SproutProcess) => p.child.exitCode === null && p.child.signalCode === null;
  const serving = async () => {
    if (!(await fetch(`${fleet.url}/api/ready`, { signal: AbortSignal.timeout(2000) })).ok) return false;
    const s = await fleet.backendStatus();
    for (const role of ['api', 'collab'] as const) {
      const servers = fleet.of(role);
      if (!servers.some((p) => s[p.name] === 'UP')) return false;
      if (servers.some((p) => s[p.name] === 'UP' && !alive(p))) return false;
    }
    const probe = await fetch(`${fleet.url}${PLAN}/update`, {
      method: 'POST',
      headers: { ...authHeaders(teacher.token), 'content-type': 'application/json' },
      body: JSON.stringify({ content: planContent(semester, `probe-${run}`) }),
      signal: AbortSignal.timeout(5000),
    });
    if (probe.status !== 200) return false;
    const locks = await sql<{ n: number }>`
      select count(*)::int as n from pg_locks where locktype = 'advisory' and granted`.execute(direct.db);
    return (locks.rows[0]?.n ?? 0) >= asyncProjections;
  };
  const faults: FaultWindow[] = [];
  const fault = async (name: string, act: () => Promise<void>, replace?: () => Promise<void>) => {
    await sleep(2500);
    const at = Date.now() - t0;
    await act();
    const replaced = replace?.();
    await waitFor(serving, `${name}: the fleet to serve again`, 60_000);
    const servedAt = Date.now() - t0;
    await replaced;
    await fleet.waitHealthy(120_000);
    faults.push({
      name,
      at,
      servingMs: servedAt - at,
      recoveredMs: Date.now() - t0 - at,
      errors: 0,
      errorSpanMs: 0,
      kinds: {},
    });
  };
  const kill = (role: 'api' | 'collab' | 'worker') => {
    const victim = fleet.of(role)[0];
    if (!victim) throw new Error(`no ${role}`);
    return [() => fleet.kill9(victim), () => fleet.restart(victim)] as const;
  };
  await fault('kill -9 api1', ...kill('api'));
  await fault('kill -9 collab1', ...kill('collab'));
  await fault('kill -9 worker1', ...kill('worker'));
  await fault('restart Redis', () => fleet.restartRedis());
  await fault('restart PostgreSQL (immediate)', () => fleet.restartPostgres());
  await sleep(3000);
  instance.stop();
  const result = await finished;
  typing = false;
  await typingDone;

  // Attribute every error to the fault whose window holds it.
  const outside: FaultReport['errorsOutsideFaults'] = [];
  for (const e of errors) {
    const f = faults.find((x) => e.at >= x.at - BEFORE_MS && e.at <= x.at + x.servingMs + AFTER_MS);
    if (!f) {
      outside.push(e);
      continue;
    }
    f.errors++;
    f.kinds[e.what] = (f.kinds[e.what] ?? 0) + 1;
    (f as FaultWindow & { first?: number }).first ??= e.at;
    f.errorSpanMs = e.at - ((f as FaultWindow & { first?: number }).first ?? e.at);
  }

  // Every acknowledged co-edit, then every acknowledged write, must be stored.
  await waitFor(
    () => typists.every((t) => (t.client.acked.get(t.client.doc.clientID) ?? 0) >= (t.typed.at(-1)?.clock ?? 0)),
    'the co-editors’ last updates to be acknowledged',
    30_000,
  ).catch(() => undefined);
  const acknowledged = typists.flatMap((t) =>
    t.typed.filter((x) => (t.client.acked.get(t.client.doc.clientID) ?? 0) >= x.clock).map((x) => x.marker),
  );
  const typed = typists.reduce((n, t) => n + t.typed.length, 0);
  for (const t of typists) t.client.destroy();
  const reader = connectClient(fleet.wsUrl, week.docName, admin.token);
  await reader.synced;
  const stored = themeOf(reader.doc).toString();
  reader.destroy();
  const coEditMissing = acknowledged.filter((m) => !stored.includes(m));

  const ids = [...ledger.keys()];
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await direct.db
      .selectFrom('record_list')
      .select(['id', 'title'])
      .where('tenant_id', '=', TENANT)
      .where('id', 'in', ids.slice(i, i + 1000))
      .execute();
    for (const r of rows) if (ledger.get(String(r.id)) === r.title) found.add(String(r.id));
  }
  const lostWrites = ids.filter((id) => !found.has(id));

  const fmt = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const lines = [
    `[fleet] load: ${(result.duration).toFixed(1)} s (bound ${LOAD_MAX_SECONDS} s), ${result.requests.total} requests (${result.requests.average}/s), ` +
      `${result['2xx']} 2xx, ${result.non2xx} non-2xx, ${result.errors} connection errors, ${result.timeouts} timeouts`,
    `[fleet] writes: ${ledger.size} acknowledged, ${lostWrites.length} lost; reads answered: ${reads}`,
    `[fleet] co-editing: ${typed} updates typed, ${acknowledged.length} acknowledged, ${coEditMissing.length} missing`,
    ...faults.map(
      (f) =>
        `[fleet] ${f.name.padEnd(32)} at ${fmt(f.at).padStart(7)}: ${String(f.errors).padStart(4)} errors over ${fmt(f.errorSpanMs)}, serving again after ${fmt(f.servingMs)}, replaced and all healthy after ${fmt(f.recoveredMs)}${
          f.errors
            ? ` (${Object.entries(f.kinds)
                .map(([k, n]) => `${n}× ${k}`)
                .join(', ')})`
            : ''
        }`,
    ),
    `[fleet] errors outside the fault windows: ${outside.length}${
      outside.length
        ? ` (${Object.entries(
            outside.reduce<Record<string, number>>((m, e) => {
              m[e.what] = (m[e.what] ?? 0) + 1;
              return m;
            }, {}),
          )
            .map(([k, n]) => `${n}× ${k}`)
            .join(', ')}; at ${[...new Set(outside.map((e) => fmt(e.at)))].join(', ')})`
        : ''
    }`,
  ];
  return {
    requests: result.requests.total,
    loadMs: result.duration * 1000,
    acknowledgedWrites: ledger.size,
    lostWrites,
    reads,
    faults,
    errorsOutsideFaults: outside,
    coEdits: { typed, acknowledged: acknowledged.length },
    coEditMissing,
    text: lines.join('\n'),
  };
}
