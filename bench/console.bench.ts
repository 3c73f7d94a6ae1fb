import { fmt, load, startServer, table } from './lib';

/**
 * Issue 16: a builder-made list — the user page (role, dept and post names), page 3, as a
 * kindergarten administrator whose data scope (dept and below) narrows it — vs a bare Fastify
 * route running the same SQL with the same values and writing the same JSON. Same run, same
 * concurrency, rounds alternating. Target: ratio ≥ 0.85.
 */
export async function benchConsole(opts: { seconds: number; connections: number }) {
  const { info, child } = await startServer<{
    builder: string;
    bare: string;
    prepared: string;
    headers: Record<string, string>;
    sql: string;
    users: number;
  }>('bench/servers/console-servers.ts', { LOG_LEVEL: 'silent' });
  try {
    // Sanity: both answer the same page (the scope leaves out the second campus's users).
    type Page = { success: boolean; data: { records: { id: string; roleName: string }[]; total: number } };
    const builder = (await (await fetch(info.builder, { headers: info.headers })).json()) as Page;
    const bare = (await (await fetch(info.bare)).json()) as Page;
    const prepared = (await (await fetch(info.prepared)).json()) as Page;
    if (!builder.success || builder.data.records.length !== 10) throw new Error('the builder did not answer a page');
    for (const other of [bare, prepared])
      if (JSON.stringify(builder.data) !== JSON.stringify(other.data)) throw new Error('the answers differ');
    if (builder.data.total >= info.users) throw new Error('the data scope did not narrow the list');
    if (!builder.data.records.every((r) => r.roleName)) throw new Error('role names missing');
    await load({ url: info.bare, connections: opts.connections, seconds: 2 });
    await load({ url: info.prepared, connections: opts.connections, seconds: 2 });
    await load({ url: info.builder, headers: info.headers, connections: opts.connections, seconds: 2 });
    const rounds: Record<string, number[]> = {};
    // Mirrored halves: a busy spell on a shared machine falls on both sides alike.
    const seconds = Math.max(2, Math.round(opts.seconds / 2));
    const half = ['bare', 'builder', 'prepared', 'prepared', 'builder', 'bare'] as const;
    for (const which of [...half, ...half]) {
      const r = await load({
        url: info[which],
        headers: which === 'builder' ? info.headers : undefined,
        connections: opts.connections,
        seconds,
      });
      if (r.non2xx || r.errors) throw new Error(`errors during load: ${JSON.stringify({ which, r })}`);
      rounds[which] = [...(rounds[which] ?? []), r.rps];
      rounds[`${which}P99`] = [...(rounds[`${which}P99`] ?? []), r.p99];
    }
    const avg = (a: number[] = []) => a.reduce((x, y) => x + y, 0) / a.length;
    const ratio = avg(rounds.builder) / avg(rounds.bare);
    const ratioPrepared = avg(rounds.builder) / avg(rounds.prepared);
    console.log(
      `\nuser page 3 of ${builder.data.total} in scope (${info.users} users, data scope: dept and below), ${opts.connections} connections, 4 × ${seconds}s per side, alternating`,
    );
    table([
      { server: 'bare Fastify + pg, same SQL', 'req/s': fmt(avg(rounds.bare)), 'p99 ms': fmt(avg(rounds.bareP99), 1) },
      {
        server: 'bare, the SQL prepared (named)',
        'req/s': fmt(avg(rounds.prepared)),
        'p99 ms': fmt(avg(rounds.preparedP99), 1),
      },
      {
        server: 'Sprout, builder-made route',
        'req/s': fmt(avg(rounds.builder)),
        'p99 ms': fmt(avg(rounds.builderP99), 1),
      },
    ]);
    console.log(`ratio builder/bare: ${ratio.toFixed(3)}  (target ≥ 0.85: ${ratio >= 0.85 ? 'met' : 'NOT met'})`);
    // The builder's page runs prepared (PagedList): against a bare route preparing it too, the stack's own cost.
    console.log(`ratio builder/bare prepared: ${ratioPrepared.toFixed(3)}`);
    return { ratio, ratioPrepared };
  } finally {
    child.kill('SIGTERM');
  }
}
