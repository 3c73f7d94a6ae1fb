import { cpuPerRequest, startServer } from './lib';

/**
 * Issue 14: what the statement-outside-transaction guard costs the authenticated list. The
 * list bench's full-stack server twice, in two processes: the guard armed (its default
 * outside production) and not (NODE_ENV=production). The guard needs an AsyncLocalStorage,
 * which on Node 20 hooks every promise of the process once used, so the figure is the
 * server process's CPU time per list request (its own, not the load generator's), best of
 * alternating rounds, and the throughput ratio that follows for a CPU-bound server.
 */
export async function benchGuard(opts: { seconds: number; rounds?: number; connections?: number }) {
  type Info = { full: string; headers: Record<string, string> };
  const start = (nodeEnv: string) =>
    startServer<Info>('bench/servers/list-servers.ts', { LOG_LEVEL: 'silent', NODE_ENV: nodeEnv });
  const off = await start('production');
  const on = await start('development');
  const variants = [
    { name: 'guard off (NODE_ENV=production)', server: off },
    { name: 'guard on (development, test)', server: on },
  ];
  try {
    const { addedUs } = await cpuPerRequest(
      'statement-outside-transaction guard, per list request',
      variants.map((v) => ({
        name: v.name,
        url: v.server.info.full,
        headers: v.server.info.headers,
        pid: v.server.child.pid ?? 0,
      })),
      { seconds: opts.seconds, rounds: opts.rounds ?? 8, connections: opts.connections },
    );
    return { addedUs };
  } finally {
    off.child.kill('SIGTERM');
    on.child.kill('SIGTERM');
  }
}
