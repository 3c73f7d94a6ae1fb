import fastJson from 'fast-json-stringify';
import { z } from 'zod';
import { okSchema, pageSchema, serializerSchema } from '@sprout/api/plugins/serialization';
import { UserSchema } from '@sprout/api/modules/system/user-list';
import { fmt, load, startServer, table } from './lib';

/**
 * The serialisation step alone, on the page this bench fetched: the route's schema writer
 * (what the app compiles) vs JSON.stringify, alternating, microseconds per answer.
 */
function serialiseAlone(answer: unknown) {
  const schema = z.toJSONSchema(okSchema(pageSchema(UserSchema)), { io: 'output', unrepresentable: 'any' });
  const write = fastJson(serializerSchema(schema) as Parameters<typeof fastJson>[0]);
  const time = (fn: () => string) => {
    const n = 20_000;
    const t0 = performance.now();
    let bytes = 0;
    for (let i = 0; i < n; i++) bytes += fn().length;
    if (!bytes) throw new Error('nothing written');
    return ((performance.now() - t0) * 1000) / n;
  };
  const us = { schema: [] as number[], json: [] as number[] };
  for (let round = 0; round < 6; round++) {
    us.schema.push(time(() => write(answer)));
    us.json.push(time(() => JSON.stringify(answer)));
  }
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] as number;
  return { schema: median(us.schema), json: median(us.json) };
}

/**
 * Issue 2: one paged list through the full stack vs a bare Fastify route running the same
 * SQL, same run, same concurrency. Target: ratio ≥ 0.8.
 */
export async function benchList(opts: { seconds: number; connections: number }) {
  const { info, child } = await startServer<{
    full: string;
    json: string;
    bare: string;
    headers: Record<string, string>;
    sql: string;
  }>('bench/servers/list-servers.ts', { LOG_LEVEL: 'silent' });
  try {
    // Sanity: both answer, the full stack with the envelope.
    const check = await fetch(info.full, { headers: info.headers });
    const body = (await check.json()) as { success: boolean; data: { records: unknown[] } };
    const alone = serialiseAlone(body);
    if (!body.success || body.data.records.length !== 10) throw new Error('full stack did not return a page');
    // Warm up both, then alternate rounds so drift hits both alike.
    await load({ url: info.bare, connections: opts.connections, seconds: 2 });
    await load({ url: info.full, headers: info.headers, connections: opts.connections, seconds: 2 });
    await load({ url: info.json, headers: info.headers, connections: opts.connections, seconds: 2 });
    const rounds = {
      bare: [] as number[],
      full: [] as number[],
      json: [] as number[],
      fullP99: [] as number[],
      bareP99: [] as number[],
      jsonP99: [] as number[],
    };
    // Four shorter rounds per side, each side's rounds mirrored: a busy spell on a shared
    // machine falls on every side alike instead of on one 10-second window.
    const seconds = Math.max(2, Math.round(opts.seconds / 2));
    // The third side, the same app writing with JSON.stringify, measures the schema serialiser.
    const half = ['bare', 'full', 'json', 'json', 'full', 'bare'] as const;
    const order = [...half, ...half];
    for (const which of order) {
      const r = await load({
        url: info[which],
        headers: which === 'bare' ? undefined : info.headers,
        connections: opts.connections,
        seconds,
      });
      if (r.non2xx || r.errors) throw new Error(`errors during load: ${JSON.stringify({ which, r })}`);
      rounds[which].push(r.rps);
      rounds[`${which}P99`].push(r.p99);
    }
    const avg = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
    const ratio = avg(rounds.full) / avg(rounds.bare);
    console.log(
      `\npaged list (one statement: ${info.sql.slice(0, 60)}…), ${opts.connections} connections, 4 × ${seconds}s each, alternating`,
    );
    table([
      { server: 'bare Fastify + pg', 'req/s': fmt(avg(rounds.bare)), 'p99 ms': fmt(avg(rounds.bareP99), 1) },
      { server: 'Sprout full stack', 'req/s': fmt(avg(rounds.full)), 'p99 ms': fmt(avg(rounds.fullP99), 1) },
      {
        server: 'Sprout, answers by JSON.stringify',
        'req/s': fmt(avg(rounds.json)),
        'p99 ms': fmt(avg(rounds.jsonP99), 1),
      },
    ]);
    console.log(
      `answers written from the response schema vs JSON.stringify: ${(avg(rounds.full) / avg(rounds.json)).toFixed(3)}`,
    );
    console.log(
      `serialising this page alone: schema writer ${fmt(alone.schema, 1)} µs, JSON.stringify ${fmt(alone.json, 1)} µs per answer (${(alone.json / alone.schema).toFixed(2)}× faster from the schema; about ${((100 * (alone.json - alone.schema)) / (1e6 / avg(rounds.full))).toFixed(1)} % of a request's time at this rate)`,
    );
    console.log(`ratio full/bare: ${ratio.toFixed(2)}  (target ≥ 0.80: ${ratio >= 0.8 ? 'met' : 'NOT met'})`);
    return { ratio };
  } finally {
    child.kill('SIGTERM');
  }
}
