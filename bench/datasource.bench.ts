import autocannon from 'autocannon';
import { onOffRounds, startServer } from './lib';

interface Info {
  url: string;
  lists: string[];
  main: Record<string, string>;
  bound: Record<string, string>;
}

/**
 * Issue 21: routing a tenant to its own database must cost nothing noticeable. The standard
 * lists (the user page, roles, the dept tree) of a kindergarten bound to its own data source
 * vs the same lists of an identical kindergarten on the main database: one server process,
 * both databases on the same PostgreSQL server, alternating rounds. Prints throughput, p99,
 * the server's CPU per request and the ratio bound/main (target ≥ 0.95).
 */
export async function benchDataSource(opts: { seconds: number; connections: number }) {
  const { info, child } = await startServer<Info>('bench/servers/datasource-servers.ts', { LOG_LEVEL: 'silent' });
  const run = async (which: 'on' | 'off', seconds: number) => {
    const headers = which === 'on' ? info.bound : info.main;
    const r = await autocannon({
      url: info.url,
      requests: info.lists.map((path) => ({ method: 'GET' as const, path, headers })),
      connections: opts.connections,
      duration: seconds,
      pipelining: 1,
    });
    if (r.non2xx || r.errors || r.timeouts) throw new Error(`errors during load: ${which} ${r.non2xx} non-2xx`);
    return { rps: r.requests.average, p99: r.latency.p99 };
  };
  try {
    await run('off', 2);
    await run('on', 2);
    const { ratio } = await onOffRounds({
      title: 'standard lists (user page, roles, dept tree) of a tenant',
      names: { off: 'tenant on the main database', on: 'tenant on its own data source' },
      pid: child.pid ?? 0,
      seconds: Math.max(2, Math.round(opts.seconds / 2)),
      run,
    });
    return { ratio };
  } finally {
    child.kill('SIGTERM');
  }
}
