import { type ChildProcess, fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Assignment, FromClients, ToClients } from './collab-clients';
import { fmt, ROOT, startServer, table } from './lib';

/**
 * Issue 8: Sprout's collab service against @hocuspocus/server (with its own provider) on the
 * same machine in the same run. Two scenarios, each client sending `rate` updates a second
 * (a typed character and its send time) for `seconds` per server (in alternating rounds, so
 * load from elsewhere on the machine falls on both alike):
 *   1. `oneDocClients` clients on one document;
 *   2. `docs` documents × `clientsPerDoc` clients.
 * Figures: p50/p95/p99 update-to-peer latency (send → applied at every other client of the
 * document, clients spread over separate processes), the server process's CPU over the load
 * window, and memory per idle document (heap + buffers, and RSS, of the server process after
 * a GC with every client connected and idle, minus the same before any client connected;
 * both servers are warmed up first). The client processes' CPU is shown too: on a small
 * machine their own load is part of every latency figure.
 * Both relay an update to the document's other clients at once and tell its sender when it
 * is kept (Sprout's clients ask for message 100, as the web app does; Hocuspocus sends its
 * sync-status message). Sprout acknowledges once the update is stored in PostgreSQL (and
 * publishes it to Redis when reachable); Hocuspocus without extensions keeps documents in
 * memory only. Targets: Sprout's p95 ≤ Hocuspocus's, and memory per idle document ≤
 * Hocuspocus's.
 */
export interface CollabBenchOptions {
  seconds: number;
  rate: number;
  oneDocClients: number;
  docs: number;
  clientsPerDoc: number;
  /** Client processes the providers are spread over. */
  processes: number;
  /** Also run Sprout with `synchronousCommit: false` (acknowledge once committed, not once flushed). */
  asyncCommit?: boolean;
  /** Each server's `seconds` are split into this many rounds, alternating with the other servers. */
  rounds: number;
}

interface SproutInfo {
  url: string;
  statsUrl: string;
  docs: string[];
  tokens: string[];
  kv: string;
}
interface HocusInfo {
  url: string;
  statsUrl: string;
}
interface Stats {
  cpu: { user: number; system: number };
  at: number;
  heapUsed: number;
  rss: number;
  external: number;
  documents: number;
  connections: number;
  /** Sprout only: no background work (storing, unloading, compacting) under way. */
  quiet?: boolean;
  /** Since the last `reset=1`: the server's event-loop delay and GC pauses (ms). */
  loop: { loopP99: number; loopMax: number; gcMs: number; gcMaxMs: number };
}

type Kind = 'sprout' | 'hocuspocus';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function stats(url: string, opts: { gc?: boolean; reset?: boolean } = {}): Promise<Stats> {
  const res = await fetch(opts.gc ? `${url}?gc=1` : opts.reset ? `${url}?reset=1` : url);
  return (await res.json()) as Stats;
}

/** CPU ticks (1/100 s) of the PostgreSQL and Redis processes on this machine, for the note under Sprout's rows. */
function backingCpuTicks(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (name !== 'postgres' && name !== 'redis-server') continue;
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]); // utime, stime
      if (f[1] === '1') ticks += Number(f[13]) + Number(f[14]); // the postmaster: exited backends
    } catch {
      // gone meanwhile
    }
  }
  return ticks;
}

export class ClientProcesses {
  private readonly procs: ChildProcess[];
  private readonly waiting = new Map<ChildProcess, { type: string; resolve: (m: FromClients) => void }>();

  constructor(n: number, execArgv: string[] = []) {
    this.procs = Array.from({ length: n }, () => {
      const child = fork(resolve(ROOT, 'bench/collab-clients.ts'), [], {
        execArgv: [...execArgv, '--import', 'tsx'],
        cwd: ROOT,
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      child.on('message', (m: FromClients) => {
        if (m.type === 'error') {
          console.error(`client process: ${m.message}`);
          process.exit(1);
        }
        const w = this.waiting.get(child);
        if (w && w.type === m.type) {
          this.waiting.delete(child);
          w.resolve(m);
        }
      });
      return child;
    });
  }

  get size() {
    return this.procs.length;
  }

  ask<T extends FromClients['type']>(
    i: number,
    message: ToClients,
    answer: T,
  ): Promise<Extract<FromClients, { type: T }>> {
    const child = this.procs[i] as ChildProcess;
    return new Promise((res) => {
      this.waiting.set(child, { type: answer, resolve: res as (m: FromClients) => void });
      child.send(message);
    });
  }

  all<T extends FromClients['type']>(messages: (i: number) => ToClients, answer: T) {
    return Promise.all(this.procs.map((_, i) => this.ask(i, messages(i), answer)));
  }

  kill() {
    for (const p of this.procs) p.kill();
  }
}

interface Result {
  server: string;
  p50: number;
  p95: number;
  p99: number;
  samples: number;
  sent: number;
  /** Updates the clients should have sent (clients × rate × seconds): fewer means they fell behind. */
  planned: number;
  cpu: number;
  /** The client processes' CPU over the run (% of one core, summed): their own load shapes the latency. */
  clientCpu: number;
  /** Server CPU time per 1,000 updates delivered to peers (ms). */
  cpuPer1k: number;
  backingCpu: number | null;
  heapPerDoc: number;
  rssPerDoc: number;
  converged: boolean;
  /** How long after the load (and its 1 s tail) every client of every document had the same state. */
  settleMs: number;
  /** The server's event-loop delay p99 (worst round) and longest stall, and GC pauses per second (ms). */
  loopP99: number;
  loopMax: number;
  gcMsPerS: number;
  gcMaxMs: number;
  /** Each round's own p95 (ms), in the order run: how much the machine moved the figure. */
  roundP95: number[];
}

/** One round's raw figures (a scenario is several rounds, alternating the servers). */
interface Round {
  samples: number[];
  sent: number;
  planned: number;
  cpuMs: number;
  wallMs: number;
  clientCpu: number;
  backingTicks: number;
  heapPerDoc: number;
  rssPerDoc: number;
  converged: boolean;
  settleMs: number;
  loop: Stats['loop'];
}

const pct = (sorted: Float64Array, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** A server under test and the document names its clients open. */
export interface Contender {
  name: string;
  kind: Kind;
  server: { url: string; statsUrl: string };
  tokens: string[];
}

/** One round: connect the clients, measure memory, run the load, check convergence, disconnect. */
export async function runRound(
  pool: ClientProcesses,
  c: Contender,
  docs: Array<{ docName: string; clients: number }>,
  seconds: number,
  rate: number,
  label: string,
): Promise<Round> {
  const { kind, server } = c;
  // Each document's clients go to different processes (a peer is never in the sender's process when it can be avoided).
  const perProc: Assignment[][] = Array.from({ length: pool.size }, () => []);
  let n = 0;
  for (const d of docs)
    for (let j = 0; j < d.clients; j++, n++)
      perProc[j % pool.size]?.push({
        docName: d.docName,
        token: c.tokens[n % c.tokens.length] as string,
        key: `${label}-${kind}-${n}`,
      });
  const documents = docs.length;

  await sleep(500);
  const base = await stats(server.statsUrl, { gc: true });
  await pool.all((i) => ({ type: 'connect', kind, url: server.url, items: perProc[i] ?? [] }), 'ready');
  await sleep(1500);
  const idle = await stats(server.statsUrl, { gc: true });
  if (idle.documents !== documents)
    throw new Error(`${c.name}: ${idle.documents} documents loaded, expected ${documents}`);

  const t0 = await stats(server.statsUrl, { reset: true });
  const b0 = kind === 'sprout' ? backingCpuTicks() : 0;
  const done = pool.all(() => ({ type: 'run', seconds, rate }), 'done');
  await sleep(seconds * 1000);
  const t1 = await stats(server.statsUrl);
  const b1 = kind === 'sprout' ? backingCpuTicks() : 0;
  const results = await done;
  // Every client of a document must end with the same state (polled: a loaded server may lag).
  let converged = false;
  const settleStart = performance.now();
  while (!converged && performance.now() - settleStart < 60_000) {
    const states = new Map<string, Set<string>>();
    for (const r of await pool.all(() => ({ type: 'states' }), 'states'))
      for (const [doc, list] of Object.entries(r.states)) {
        const set = states.get(doc) ?? new Set<string>();
        for (const st of list) set.add(st);
        states.set(doc, set);
      }
    converged = [...states.values()].every((set) => set.size === 1);
    if (!converged) await sleep(250);
  }
  const settleMs = performance.now() - settleStart;
  await pool.all(() => ({ type: 'close' }), 'closed');
  // Sprout compacts a document's rows when its last client leaves: that work belongs to this
  // round, not to whichever server runs next.
  const quietBy = performance.now() + 120_000;
  while (kind === 'sprout' && !(await stats(server.statsUrl)).quiet && performance.now() < quietBy) await sleep(100);
  return {
    samples: results.flatMap((r) => r.samples),
    sent: results.reduce((sum, r) => sum + r.sent, 0),
    planned: n * rate * seconds,
    cpuMs: (t1.cpu.user - t0.cpu.user + t1.cpu.system - t0.cpu.system) / 1000,
    wallMs: t1.at - t0.at,
    clientCpu: results.reduce((sum, r) => sum + (r.cpuMs / r.wallMs) * 100, 0),
    backingTicks: b1 - b0,
    heapPerDoc: (idle.heapUsed + idle.external - base.heapUsed - base.external) / documents,
    rssPerDoc: (idle.rss - base.rss) / documents,
    converged,
    settleMs,
    loop: t1.loop,
  };
}

function combine(c: Contender, rounds: Round[]): Result {
  const all = Float64Array.from(rounds.flatMap((r) => r.samples)).sort();
  const cpuMs = rounds.reduce((sum, r) => sum + r.cpuMs, 0);
  const wallMs = rounds.reduce((sum, r) => sum + r.wallMs, 0);
  return {
    server: c.name,
    p50: pct(all, 0.5),
    p95: pct(all, 0.95),
    p99: pct(all, 0.99),
    samples: all.length,
    sent: rounds.reduce((sum, r) => sum + r.sent, 0),
    planned: rounds.reduce((sum, r) => sum + r.planned, 0),
    cpu: (cpuMs / wallMs) * 100,
    cpuPer1k: all.length ? (cpuMs / all.length) * 1000 : 0,
    clientCpu: rounds.reduce((sum, r) => sum + r.clientCpu * r.wallMs, 0) / wallMs,
    backingCpu: c.kind === 'sprout' ? (rounds.reduce((sum, r) => sum + r.backingTicks, 0) * 10 * 100) / wallMs : null,
    heapPerDoc: median(rounds.map((r) => r.heapPerDoc)),
    rssPerDoc: median(rounds.map((r) => r.rssPerDoc)),
    converged: rounds.every((r) => r.converged),
    settleMs: Math.max(...rounds.map((r) => r.settleMs)),
    loopP99: Math.max(...rounds.map((r) => r.loop.loopP99)),
    loopMax: Math.max(...rounds.map((r) => r.loop.loopMax)),
    gcMsPerS: (rounds.reduce((sum, r) => sum + r.loop.gcMs, 0) / wallMs) * 1000,
    gcMaxMs: Math.max(...rounds.map((r) => r.loop.gcMaxMs)),
    roundP95: rounds.map((r) => pct(Float64Array.from(r.samples).sort(), 0.95)),
  };
}

/**
 * A scenario: `rounds` rounds of `seconds / rounds` each per server, the servers alternating
 * (and the order flipping every round), so that load from elsewhere on the machine falls on
 * every server alike; the rounds' samples are pooled. Every round opens fresh documents on
 * every server (Hocuspocus forgets a document when its clients leave, Sprout keeps it: the
 * same documents again would hand Sprout's clients the previous rounds' history).
 */
async function scenario(
  pool: ClientProcesses,
  contenders: Array<{ c: Contender; docs: (round: number) => Array<{ docName: string; clients: number }> }>,
  opts: CollabBenchOptions,
  label: string,
): Promise<Result[]> {
  const rounds = contenders.map(() => [] as Round[]);
  const seconds = opts.seconds / opts.rounds;
  for (let r = 0; r < opts.rounds; r++) {
    const order = contenders.map((_, i) => i);
    if (r % 2 === 1) order.reverse();
    for (const i of order) {
      const x = contenders[i] as (typeof contenders)[number];
      rounds[i]?.push(await runRound(pool, x.c, x.docs(r), seconds, opts.rate, `${label}${r}`));
    }
  }
  return contenders.map((x, i) => combine(x.c, rounds[i] ?? []));
}

/**
 * Prints a scenario. Memory per document is compared where there are many documents; with
 * one document and many connections the figure is mostly connections (and GC noise).
 */
function report(title: string, rows: Result[], oneDoc: boolean) {
  console.log(`\n${title}`);
  table(
    rows.map((r) => ({
      server: r.server,
      'p50 ms': fmt(r.p50, 2),
      'p95 ms': fmt(r.p95, 2),
      'p99 ms': fmt(r.p99, 2),
      'updates sent': `${fmt(r.sent)}${r.sent < r.planned * 0.95 ? ' (of ' + fmt(r.planned) + ': clients fell behind)' : ''}`,
      'peer deliveries': fmt(r.samples),
      'server CPU %': fmt(r.cpu, 1),
      'CPU ms/1k deliveries': fmt(r.cpuPer1k, 1),
      'clients CPU %': fmt(r.clientCpu, 0),
      'loop delay p99/max ms': `${fmt(r.loopP99, 1)} / ${fmt(r.loopMax, 0)}`,
      'GC ms/s (longest)': `${fmt(r.gcMsPerS, 1)} (${fmt(r.gcMaxMs, 1)})`,
      [oneDoc ? 'heap+buffers KB (the doc + its connections)' : 'heap+buffers/doc KB']: fmt(r.heapPerDoc / 1024, 1),
      [oneDoc ? 'RSS KB' : 'RSS/doc KB']: fmt(r.rssPerDoc / 1024, 1),
      converged: r.converged ? `yes (+${fmt(r.settleMs / 1000, 1)} s)` : 'NO (60 s)',
    })),
  );
  const s = rows.find((r) => r.server === 'Sprout') as Result;
  const h = rows.find((r) => r.server === 'Hocuspocus') as Result;
  const a = rows.find((r) => r.server === 'Sprout, async commit');
  console.log(
    `p95 by round (ms): ${rows.map((r) => `${r.server} ${r.roundP95.map((x) => fmt(x, 1)).join(' / ')}`).join('; ')}`,
  );
  if (s.backingCpu !== null)
    console.log(`(Sprout's PostgreSQL + Redis processes used ${fmt(s.backingCpu, 1)} % CPU besides, during its run)`);
  const memory = oneDoc
    ? ''
    : `, memory per idle document ${(s.heapPerDoc / h.heapPerDoc).toFixed(2)} ` +
      `(RSS ${(s.rssPerDoc / h.rssPerDoc).toFixed(2)}) (target ≤ 1.00)`;
  console.log(
    `ratios Sprout/Hocuspocus: p50 ${(s.p50 / h.p50).toFixed(2)}, p95 ${(s.p95 / h.p95).toFixed(2)} (target ≤ 1.00), ` +
      `CPU per delivery ${(s.cpuPer1k / h.cpuPer1k).toFixed(2)}${memory}`,
  );
  if (a)
    console.log(
      `ratios Sprout with async commit/Hocuspocus: p50 ${(a.p50 / h.p50).toFixed(2)}, p95 ${(a.p95 / h.p95).toFixed(2)}`,
    );
}

/** Week records a Sprout server needs: a warm-up document, then fresh documents for every round. */
const docsNeeded = (opts: CollabBenchOptions) => 1 + opts.rounds + opts.rounds * opts.docs;

export async function benchCollab(opts: CollabBenchOptions) {
  const { info: sprout, child: sproutChild } = await startServer<SproutInfo>('bench/servers/collab-sprout.ts', {
    LOG_LEVEL: 'silent',
    COLLAB_DOCS: String(docsNeeded(opts)),
  });
  const { info: hocus, child: hocusChild } = await startServer<HocusInfo>('bench/servers/collab-hocuspocus.ts');
  const fast = opts.asyncCommit
    ? await startServer<SproutInfo>('bench/servers/collab-sprout.ts', {
        LOG_LEVEL: 'silent',
        COLLAB_DOCS: String(docsNeeded(opts)),
        COLLAB_SYNC_COMMIT: 'off',
      })
    : undefined;
  const pool = new ClientProcesses(opts.processes);
  try {
    console.log(
      `\n${opts.seconds} s per server and scenario (${opts.rounds} alternating rounds of ${fmt(opts.seconds / opts.rounds, 1)} s), ` +
        `${opts.rate} updates/s per client, clients in ${opts.processes} processes; ` +
        `Sprout on PostgreSQL + ${sprout.kv} key-value store, Hocuspocus 3 in memory (no extensions)`,
    );
    // Each contender with its own document names (Hocuspocus opens Sprout's names).
    const contenders: Array<{ c: Contender; names: string[] }> = [
      { c: { name: 'Sprout', kind: 'sprout', server: sprout, tokens: sprout.tokens }, names: sprout.docs },
      { c: { name: 'Hocuspocus', kind: 'hocuspocus', server: hocus, tokens: sprout.tokens }, names: sprout.docs },
    ];
    if (fast)
      contenders.push({
        c: { name: 'Sprout, async commit', kind: 'sprout', server: fast.info, tokens: fast.info.tokens },
        names: fast.info.docs,
      });
    // Warm-up (code compiled, pools and caches filled), so that memory figures hold documents and connections only.
    for (const x of contenders)
      await runRound(pool, x.c, [{ docName: x.names[0] as string, clients: 10 }], 2, opts.rate, 'warm');

    // Document names: [warm-up, one per round for scenario 1, `docs` per round for scenario 2].
    const oneRows = await scenario(
      pool,
      contenders.map((x) => ({
        c: x.c,
        docs: (r: number) => [{ docName: x.names[1 + r] as string, clients: opts.oneDocClients }],
      })),
      opts,
      'one',
    );
    report(`${opts.oneDocClients} clients on one document`, oneRows, true);

    const manyRows = await scenario(
      pool,
      contenders.map((x) => ({
        c: x.c,
        docs: (r: number) =>
          x.names
            .slice(1 + opts.rounds + r * opts.docs, 1 + opts.rounds + (r + 1) * opts.docs)
            .map((docName) => ({ docName, clients: opts.clientsPerDoc })),
      })),
      opts,
      'many',
    );
    report(`${opts.docs} documents × ${opts.clientsPerDoc} clients`, manyRows, false);
  } finally {
    pool.kill();
    sproutChild.kill('SIGTERM');
    hocusChild.kill('SIGTERM');
    fast?.child.kill('SIGTERM');
    await sleep(500);
  }
}
