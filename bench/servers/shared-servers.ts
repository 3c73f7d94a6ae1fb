// The Sprout app on PostgreSQL (+ Redis when reachable) over 200,000 lesson plans in 20
// kindergartens (beside a few weekly plans each, records-data.ts, for their schools), for
// issue 23's benchmark, as the demo's 中一班 teacher (`teacher3`: data scope her class) who
// reads what the whole kindergarten publishes:
//  - excellent: POST /api/week_plan/weekplan/ExcellentPlan?current=2&size=10 (the school's
//    excellent lesson plans, shared whatever the data scope);
//  - favourites: POST /api/week_plan/weekplan/collectionByUserId?current=2&size=10 (我的收藏:
//    300 excellent plans of other classes she collected);
//  - each one's bare peer: a plain Fastify route (own pg pool, same size) sending through pg
//    the very statements the full stack sent for that call (caught on a probe call), in the
//    same round trips, presenting and paging the rows the same way.
// The plans and favourites are written straight into the read models (record_list,
// record_favorite) in batches: nothing measured reads the log.
import Fastify from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '@sprout/api/app';
import { presentRow, type RecordRow, semesterOf } from '@sprout/api/modules/records/engine';
import { bladeAuth, tokenFor } from '@sprout/api/testing';
import { type Database, inSystem } from '@sprout/core/db';
import { ok } from '@sprout/core/http/envelope';
import { pageOf } from '@sprout/core/http/paging';
import { nextId } from '@sprout/core/ids';
import { rng } from '@sprout/core/permissions/demo';
import { MemoryQueue } from '@sprout/core/queue';
import { seed } from '@sprout/core/seed';
import { createTestDatabase } from '@sprout/core/testing/pg';
import { isoInZone, localDate } from '@sprout/core/time';
import { benchConfig } from './bench-config';
import { DEMO_TENANT, generateRecords } from './records-data';

const POOL = 16;
const T = DEMO_TENANT;
const TZ = 'Asia/Shanghai';
const TENANTS = Number(process.env.SHARED_TENANTS ?? 20);
const PER_TENANT = Number(process.env.SHARED_PER_TENANT ?? 10_000);
const FAVOURITES = Number(process.env.SHARED_FAVOURITES ?? 300);
const log = (msg: string) => process.stderr.write(`${msg}\n`);

const t = await createTestDatabase(POOL);
const closers: Array<() => Promise<unknown>> = [];
const stop = async (code: number) => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await t.drop();
  process.exit(code);
};
process.on('SIGTERM', () => stop(0));
process.on('SIGINT', () => stop(0));

interface ClassRow {
  id: string;
  deptId: string;
  team: string[];
}

const classesOf = (database: Database, tenantId: string): Promise<ClassRow[]> =>
  inSystem(database, async (trx) =>
    (
      await trx
        .selectFrom('clazz')
        .select(['id', 'dept_id', 'teacher_ids'])
        .where('tenant_id', '=', tenantId)
        .where('is_deleted', '=', 0)
        .execute()
    )
      .filter((c) => c.teacher_ids.length && c.dept_id !== null)
      .map((c) => ({ id: String(c.id), deptId: String(c.dept_id), team: c.teacher_ids.map(String) })),
  );

/** One tenant's lesson plans as record_list rows, in batches of 2,000; about 4 % approved and excellent. */
function* planRows(tenantId: string, classes: ClassRow[], n: number, seedNo: number) {
  const r = rng(seedNo);
  const now = Date.now();
  const span = 300 * 86_400_000;
  let batch: Array<Record<string, unknown>> = [];
  for (let i = 0; i < n; i++) {
    const slot = (i * 7 + Math.floor(i / 20)) % 20;
    const status = slot < 3 ? 'trial' : slot < 14 ? 'success' : slot < 16 ? 'returned' : 'draft';
    const cls = classes[Math.floor(r() * classes.length)] as ClassRow;
    const author = cls.team[0] as string;
    const created = now - r() * span;
    const date = localDate(new Date(created), TZ);
    const at = (ms: number) => isoInZone(new Date(Math.min(now, ms)), TZ);
    const excellent = status === 'success' && r() < 0.06;
    const title = `${date} 集体教学：有趣的影子`;
    batch.push({
      tenant_id: tenantId,
      id: nextId(),
      kind: 'week_plan',
      status,
      title,
      author_id: author,
      author_name: '王老师',
      co_author_ids: cls.team.slice(1),
      dept_id: cls.deptId,
      class_id: cls.id,
      parent_id: nextId(),
      semester: semesterOf(date),
      excellent,
      reviewer_id: null,
      reviewer_name: status === 'success' ? '张敏' : null,
      review_comment: null,
      review_time: status === 'success' ? at(created + 7_200_000) : null,
      submit_time: status === 'draft' ? null : at(created + 3_600_000),
      create_time: at(created),
      update_time: at(created + 7_200_000),
      collect_count: 0,
      content: { weekId: null, title, date, slot: 'groupTeaching', domain: 1 + (i % 5), activityType: 1 + (i % 4) },
      version: 3,
    });
    if (batch.length === 2000) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

async function generatePlans(database: Database, userId: string) {
  const started = performance.now();
  const tenantIds = Array.from({ length: TENANTS }, (_, i) => String(Number(T) + i));
  const gens: Array<Generator<Array<Record<string, unknown>>>> = [];
  for (const [i, tenantId] of tenantIds.entries())
    gens.push(planRows(tenantId, await classesOf(database, tenantId), PER_TENANT, 2301 + i));
  // Two writers (two cores): each takes the next batch, generating it meanwhile.
  const writer = async () => {
    for (;;) {
      const gen = gens[0];
      if (!gen) return;
      const next = gen.next();
      if (next.done) {
        if (gens[0] === gen) gens.shift();
        continue;
      }
      await inSystem(database, (trx) =>
        sql`insert into record_list
          select * from jsonb_populate_recordset(null::record_list, ${JSON.stringify(next.value)}::jsonb)`.execute(trx),
      );
    }
  };
  await Promise.all([writer(), writer()]);
  // Her favourites: excellent plans of the kindergarten's other classes (outside her data scope).
  await inSystem(database, (trx) =>
    sql`insert into record_favorite (tenant_id, user_id, record_id, kind, create_time)
      select r.tenant_id, ${userId}, r.id, r.kind, r.update_time from record_list r
      where r.tenant_id = ${T} and r.kind = 'week_plan' and r.excellent and r.status = 'success'
        and not r.class_id = any(select c.id from clazz c where c.tenant_id = ${T} and ${userId} = any(c.teacher_ids))
      order by r.id limit ${FAVOURITES}`.execute(trx),
  );
  await sql`vacuum analyze`.execute(database.db);
  const counts = await inSystem(database, async (trx) => {
    const { rows } = await sql<{ plans: string; excellent: string; favourites: string }>`select
      (select count(*) from record_list where kind = 'week_plan')::text as plans,
      (select count(*) from record_list where kind = 'week_plan' and excellent and tenant_id = ${T})::text as excellent,
      (select count(*) from record_favorite where tenant_id = ${T} and user_id = ${userId})::text as favourites`.execute(
      trx,
    );
    return rows[0] as { plans: string; excellent: string; favourites: string };
  });
  return { counts, seconds: (performance.now() - started) / 1000 };
}

async function start() {
  const started = performance.now();
  await seed(t.database, { demo: true });
  // The 20 schools (classes, teachers, roles) with a few weekly plans each.
  await generateRecords(t.database, { tenants: TENANTS, recordsPerTenant: 200, weeks: 20, log });
  const teacher = await inSystem(t.database, (trx) =>
    trx
      .selectFrom('app_user')
      .select('id')
      .where('tenant_id', '=', T)
      .where('account', '=', 'teacher3')
      .executeTakeFirstOrThrow(),
  );
  const userId = String(teacher.id);
  const plans = await generatePlans(t.database, userId);
  log(`lesson plans: ${plans.seconds.toFixed(1)} s`);
  const generationSeconds = (performance.now() - started) / 1000;

  const { config, redisUrl } = await benchConfig('bench');
  const tz = config.TIME_ZONE;
  const app = await buildApp(config, { database: t.database, queue: new MemoryQueue(), fastify: { logger: false } });
  closers.push(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const headers = bladeAuth(tokenFor(config, { tenant_id: T, user_id: userId }));
  const q = { current: 2, size: 10 };
  const paths = {
    excellent: `/api/week_plan/weekplan/ExcellentPlan?current=${q.current}&size=${q.size}`,
    favourites: `/api/week_plan/weekplan/collectionByUserId?current=${q.current}&size=${q.size}`,
  };

  // What the full stack sends for each call: its script, the tenant settings taken off.
  const head = `set local app.user_id = '${userId}'; `;
  const caught: Record<string, string[]> = {};
  const script = t.database.script;
  for (const [name, url] of Object.entries(paths)) {
    await app.inject({ method: 'POST', url, headers, payload: {} });
    const sent: string[] = [];
    t.database.script = ((text: string, prepared?: unknown) => {
      if (prepared) throw new Error(`${url}: a prepared script; the peer would not send the same text`);
      sent.push(text);
      return script(text);
    }) as typeof script;
    const probe = await app.inject({ method: 'POST', url, headers, payload: {} });
    t.database.script = script;
    if (probe.statusCode !== 200) throw new Error(`${url} answered ${probe.statusCode}: ${probe.body}`);
    caught[name] = sent.filter((s) => s.includes(head)).map((s) => s.slice(s.indexOf(head) + head.length));
    if (!caught[name]?.length) throw new Error(`${url}: no statement of its own: ${sent.join('\n')}`);
  }

  const pool = new pg.Pool({ connectionString: t.url, max: POOL, options: `-c app.tenant_id=${T}` });
  closers.push(() => pool.end());
  const bare = Fastify({ logger: false });
  closers.push(() => bare.close());
  for (const name of Object.keys(paths)) {
    const scripts = caught[name] as string[];
    // The same statements in the same round trips: no auth, no permission or scope lookup, no role or RLS.
    bare.post(`/bare/${name}`, async () => {
      let rows: Array<Record<string, unknown>> = [];
      for (const text of scripts) {
        const r = (await pool.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
        rows = Array.isArray(r) ? r.flatMap((x) => x.rows) : r.rows;
      }
      const total = Number(rows[0]?.__total ?? 0);
      return ok(
        pageOf(
          rows.map((row) => presentRow(row as unknown as RecordRow, tz)),
          total,
          q,
        ),
      );
    });
  }
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareBase = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;

  return {
    kv: redisUrl ? 'Redis' : 'memory',
    headers,
    targets: Object.fromEntries(
      Object.entries(paths).map(([name, url]) => [
        name,
        { method: 'POST', full: `${base}${url}`, bare: `${bareBase}/bare/${name}`, scripts: caught[name] },
      ]),
    ),
    data: {
      tenants: TENANTS,
      plans: Number(plans.counts.plans),
      excellent: Number(plans.counts.excellent),
      favourites: Number(plans.counts.favourites),
      generationSeconds,
    },
  };
}

try {
  console.log(JSON.stringify(await start()));
} catch (err) {
  // Never leave a 1 GB database behind.
  log(err instanceof Error ? (err.stack ?? err.message) : String(err));
  await stop(1);
}
