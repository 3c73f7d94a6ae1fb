import { load, onOffRounds, startServer } from './lib';

/**
 * Issue 14: the authenticated user list through the full stack with the hardening on (security
 * headers and CORS, rate limits, the shared text rule) vs the same app built without it, same
 * database, same process, alternating rounds. Prints throughput, p99 and the server's CPU per
 * request of each, and the ratio on/off. Target: ≥ 0.95.
 */
export async function benchHardening(opts: { seconds: number; connections: number }) {
  const { info, child } = await startServer<{
    on: string;
    off: string;
    headers: Record<string, string>;
  }>('bench/servers/hardening-servers.ts', { LOG_LEVEL: 'silent' });
  try {
    for (const which of ['on', 'off'] as const) {
      const r = await fetch(info[which], { headers: info.headers });
      const body = (await r.json()) as { success: boolean; data: { records: unknown[] } };
      if (!body.success || body.data.records.length !== 10) throw new Error(`${which}: the list did not answer a page`);
      if (which === 'on' && !r.headers.get('content-security-policy')) throw new Error('on: no security headers');
      if (which === 'off' && r.headers.get('content-security-policy')) throw new Error('off: security headers present');
      await load({ url: info[which], headers: info.headers, connections: opts.connections, seconds: 2 });
    }
    return await onOffRounds({
      title: `user list page, ${opts.connections} connections`,
      names: { off: 'hardening off', on: 'hardening on (as served)' },
      pid: child.pid ?? 0,
      seconds: Math.max(2, Math.round(opts.seconds / 2)),
      run: async (which, seconds) => {
        const r = await load({ url: info[which], headers: info.headers, connections: opts.connections, seconds });
        if (r.non2xx || r.errors) throw new Error(`errors during load: ${JSON.stringify({ which, r })}`);
        return r;
      },
    });
  } finally {
    child.kill('SIGTERM');
  }
}
