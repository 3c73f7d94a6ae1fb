// The Sprout app on PostgreSQL (+ Redis when reachable) over 200,000 weekly plans in 20
// kindergartens (records-data.ts), for the issue-7 benchmark, as the demo grade leader
// (`leader`, seeded role leader: data scope "dept and below" from 小班组):
//  - trialFull: POST /api/week/week/alllistForTrial?current=10&size=10 through the whole stack;
//  - trialBare: a plain Fastify route (own pg pool, same size) running the statement the
//    full stack runs for this user, compiled once with the same functions, bound through pg,
//    presented and wrapped the same way;
//  - homeProjection: GET /api/week/week/home (record_activity + record_list);
//  - homeEvents: the same numbers computed from the `events` table on every call (same app,
//    same caller, same data scope, same envelope), no read model.
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '@sprout/api/app';
import {
  applyRecordFilter,
  recordFilterValues,
  type Caller,
  callerOf,
  presentRecord,
  RecordFilterSchema,
  type RecordRow,
  recordQuery,
  inRecordScope,
} from '@sprout/api/modules/records/engine';
import { bladeAuth, tokenFor } from '@sprout/api/testing';
import { inlineParameters } from '@sprout/core/db/inline';
import { ok } from '@sprout/core/http/envelope';
import { pageOf, pageQueryOf } from '@sprout/core/http/paging';
import { MemoryQueue } from '@sprout/core/queue';
import { seed } from '@sprout/core/seed';
import { DEMO_TENANT, generateRecords } from './records-data';
import { dashboardFromEvents } from './records-from-events';
import { benchConfig } from './bench-config';
import { benchDatabase, log, serve, userIdOf } from './probe';

const POOL = 16;
const T = DEMO_TENANT;

const { t, closers, stop } = await benchDatabase(POOL);

async function eventsDashboardRoute(app: FastifyInstance) {
  app.get('/api/bench/week/home-from-events', { config: { access: 'authenticated' } }, async (request) =>
    ok(await dashboardFromEvents(app.database, await callerOf(request)), request.lang),
  );
}

async function start() {
  const started = performance.now();
  await seed(t.database, { demo: true });
  const seedSeconds = (performance.now() - started) / 1000;
  const data = await generateRecords(t.database, {
    tenants: 20,
    recordsPerTenant: 10_000,
    weeks: 20,
    replay: process.env.RECORDS_REPLAY === '1',
    log,
  });
  const generationSeconds = (performance.now() - started) / 1000;

  const { config, redisUrl } = await benchConfig('bench');
  const tz = config.TIME_ZONE;
  const app = await buildApp(config, {
    database: t.database,
    queue: new MemoryQueue(),
    fastify: { logger: false },
    plugins: [eventsDashboardRoute],
  });
  closers.push(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

  const userId = await userIdOf(t.database, T, 'leader');
  const headers = bladeAuth(tokenFor(config, { tenant_id: T, user_id: userId }));

  // The statement alllistForTrial runs for this user: week-routes' `trial` list, recordPage's scope and order.
  const q = RecordFilterSchema.parse({ current: 10, size: 10 });
  const caller: Caller = { ctx: { tenantId: T, userId }, perms: await app.permissions.get(T, userId), tz };
  const mine = sql<boolean>`(r.author_id = ${userId} or ${userId} = any(r.co_author_ids))`;
  const statement = pageQueryOf(
    applyRecordFilter(recordQuery(app.database.db, caller.ctx, 'week'), recordFilterValues(q, tz))
      .where('r.status', '=', 'trial')
      .where(sql<boolean>`not ${mine}`)
      .where(inRecordScope(caller, 'read', 'week'))
      .orderBy('r.update_time', 'desc')
      .orderBy('r.id', 'desc'),
    q,
  );

  // Is it the very statement? Catch what the full stack sends for the page.
  const trialPath = `/api/week/week/alllistForTrial?current=${q.current}&size=${q.size}`;
  const sent: string[] = [];
  const script = t.database.script;
  t.database.script = (text) => {
    sent.push(text);
    return script(text);
  };
  const probe = await app.inject({ method: 'POST', url: trialPath, headers, payload: {} });
  t.database.script = script;
  if (probe.statusCode !== 200) throw new Error(`alllistForTrial answered ${probe.statusCode}: ${probe.body}`);
  const inlined = inlineParameters(statement);
  const sameSql = sent.some((s) => s.endsWith(`; ${inlined}`));
  if (!sameSql) throw new Error(`the full stack ran another statement:\n${sent.join('\n')}\n≠\n${inlined}`);

  const pool = new pg.Pool({ connectionString: t.url, max: POOL });
  closers.push(() => pool.end());
  const bare = Fastify({ logger: false });
  closers.push(() => bare.close());
  bare.post('/bare/week/trial', async () => {
    // Same statement, bound: no auth, no permission lookup, no transaction or RLS role.
    const r = await pool.query(statement.sql, [...statement.parameters]);
    const total = Number(r.rows[0]?.__total ?? 0);
    const records = r.rows.map((row) => {
      const { __total: _, ...rest } = row;
      return presentRecord(rest as RecordRow, tz);
    });
    return ok(pageOf(records, total, q));
  });
  await bare.listen({ port: 0, host: '127.0.0.1' });

  return {
    kv: redisUrl ? 'Redis' : 'memory',
    trialFull: `${base}${trialPath}`,
    trialBare: `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/bare/week/trial`,
    homeProjection: `${base}/api/week/week/home`,
    homeEvents: `${base}/api/bench/week/home-from-events`,
    headers,
    sql: statement.sql,
    sameSql,
    scope: caller.perms.grants.deptSubtree.length,
    data: { ...data, seedSeconds, generationSeconds },
  };
}

await serve(start, stop);
