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
import { isoInZone, localDate } from '@sprout/core/time';
import { benchConfig } from './bench-config';
import { DEMO_TENANT, generateRecords } from './records-data';
import * as probe from './probe';

const T = DEMO_TENANT;
const TZ = 'Asia/Shanghai';
/** The size of the data (environment overrides for a quicker run) and of the pools. */
const SIZE = {
  pool: 16,
  tenants: Number(process.env.SHARED_TENANTS ?? 20),
  plansPerTenant: Number(process.env.SHARED_PER_TENANT ?? 10_000),
  favourites: Number(process.env.SHARED_FAVOURITES ?? 300),
};
const { t, closers, stop } = await probe.benchDatabase(SIZE.pool);

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
  const tenantIds = Array.from({ length: SIZE.tenants }, (_, i) => String(Number(T) + i));
  const gens: Array<Generator<Array<Record<string, unknown>>>> = [];
  for (const [i, tenantId] of tenantIds.entries())
    gens.push(planRows(tenantId, await classesOf(database, tenantId), SIZE.plansPerTenant, 2301 + i));
  await probe.writeRecordBatches(database, gens);
  // Her favourites: excellent plans of the kindergarten's other classes (outside her data scope).
  await inSystem(database, (trx) =>
    sql`insert into record_favorite (tenant_id, user_id, record_id, kind, create_time)
      select r.tenant_id, ${userId}, r.id, r.kind, r.update_time from record_list r
      where r.tenant_id = ${T} and r.kind = 'week_plan' and r.excellent and r.status = 'success'
        and not r.class_id = any(select c.id from clazz c where c.tenant_id = ${T} and ${userId} = any(c.teacher_ids))
        and not exists (select 1 from record_favorite f where f.tenant_id = r.tenant_id and f.user_id = ${userId}
          and f.record_id = r.id)
      order by r.id limit ${SIZE.favourites}`.execute(trx),
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
  await generateRecords(t.database, { tenants: SIZE.tenants, recordsPerTenant: 200, weeks: 20, log: probe.log });
  const userId = await probe.userIdOf(t.database, T, 'teacher3');
  const plans = await generatePlans(t.database, userId);
  probe.log(`lesson plans: ${plans.seconds.toFixed(1)} s`);
  const generationSeconds = (performance.now() - started) / 1000;

  const { config, redisUrl } = await benchConfig('bench');
  const tz = config.TIME_ZONE;
  const app = await buildApp(config, { database: t.database, queue: new MemoryQueue(), fastify: { logger: false } });
  closers.push(() => app.close());
  const base = await probe.listenLocal(app);
  const headers = bladeAuth(tokenFor(config, { tenant_id: T, user_id: userId }));
  const q = { current: 2, size: 10 };
  const paths = {
    excellent: `/api/week_plan/weekplan/ExcellentPlan?current=${q.current}&size=${q.size}`,
    favourites: `/api/week_plan/weekplan/collectionByUserId?current=${q.current}&size=${q.size}`,
  };

  // What the full stack sends for each call: its script, the tenant settings taken off.
  const calls = Object.fromEntries(
    Object.entries(paths).map(([name, url]) => [name, { method: 'POST' as const, url }]),
  );
  const head = `set local app.user_id = '${userId}'; `;
  const caught = await probe.catchScripts(app, t, calls, headers, head);

  const pool = new pg.Pool({ connectionString: t.url, max: SIZE.pool, options: `-c app.tenant_id=${T}` });
  closers.push(() => pool.end());
  // SHARED_EXPLAIN=1: each caught statement's plan, as the stack runs it and as the peer sends it, on stderr.
  if (process.env.SHARED_EXPLAIN === '1') await probe.explainCaught(pool, caught, T, head);
  const bare = Fastify({ logger: false });
  closers.push(() => bare.close());
  for (const name of Object.keys(paths)) {
    const scripts = caught[name] as string[];
    // The same statements in the same round trips: no auth, no permission or scope lookup, no role or RLS.
    bare.post(`/bare/${name}`, async () => {
      const rows = await probe.sendScripts(pool, scripts);
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
  return {
    kv: redisUrl ? 'Redis' : 'memory',
    headers,
    targets: probe.probeTargets(base, await probe.listenLocal(bare), calls, caught),
    data: {
      tenants: SIZE.tenants,
      plans: Number(plans.counts.plans),
      excellent: Number(plans.counts.excellent),
      favourites: Number(plans.counts.favourites),
      generationSeconds,
    },
  };
}

await probe.serve(start, stop);
