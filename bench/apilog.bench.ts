import autocannon from 'autocannon';
import { onOffRounds, startServer } from './lib';

interface Info {
  on: string;
  off: string;
  list: string;
  write: string;
  writeBody: string;
  headers: Record<string, string>;
}

/**
 * Issue 17: the API log's cost. The authenticated user list (a read: the hooks run, nothing is
 * logged) and a write call (a parameter update: a row buffered per call, written in batches)
 * with the API log on vs the same app without the log context's hooks; same database, same
 * process, alternating rounds. Prints throughput, p99, the server's CPU per request and the
 * ratio on/off of each. Target: overhead ≤ 5 % (ratio ≥ 0.95).
 */
export async function benchApiLog(opts: { seconds: number; connections: number }) {
  const { info, child } = await startServer<Info>('bench/servers/apilog-servers.ts', { LOG_LEVEL: 'silent' });
  const run = async (which: 'on' | 'off', kind: 'list' | 'write', seconds: number) => {
    const r = await autocannon({
      url: `${info[which]}${info[kind]}`,
      method: kind === 'write' ? 'POST' : 'GET',
      headers: kind === 'write' ? { ...info.headers, 'content-type': 'application/json' } : info.headers,
      body: kind === 'write' ? info.writeBody : undefined,
      connections: kind === 'write' ? Math.min(8, opts.connections) : opts.connections,
      duration: seconds,
      pipelining: 1,
    });
    if (r.non2xx || r.errors || r.timeouts) throw new Error(`errors during load: ${which} ${kind} ${r.non2xx} non-2xx`);
    return { rps: r.requests.average, p99: r.latency.p99 };
  };
  try {
    for (const kind of ['list', 'write'] as const)
      for (const which of ['on', 'off'] as const) await run(which, kind, 2);
    const ratios: Record<string, number> = {};
    for (const kind of ['list', 'write'] as const) {
      const { ratio } = await onOffRounds({
        title: kind === 'list' ? 'user list page (GET)' : 'parameter update (POST, logged)',
        names: { off: 'API log off (no log hooks)', on: 'API log on (as served)' },
        pid: child.pid ?? 0,
        seconds: Math.max(2, Math.round(opts.seconds / 2)),
        run: (which, seconds) => run(which, kind, seconds),
      });
      ratios[kind] = ratio;
    }
    return ratios;
  } finally {
    child.kill('SIGTERM');
  }
}
