// The Sprout app on PostgreSQL (+ Redis when reachable) over 200,000 observations in 20
// kindergartens beside their weekly plans (records-data.ts), for issue 18's benchmark:
//  - trialFull: POST /api/t_observation/observation/alllistForTrial?current=10&size=10 (the
//    review queue) as the demo reviewer (data scope: the kindergarten);
//  - recordsFull: GET /api/guide/child/records?studentId=&current=2&size=30 for a child named
//    by 300 records, as the same reviewer;
//  - coverageFull: GET /api/guide/child/coverage?studentId= for that child;
//  - each one's bare peer: a plain Fastify route (own pg pool, same size) sending through pg
//    the very statements the full stack sent for that call (caught on a probe call, values
//    inlined as the stack inlines them; without the tenant role and settings), in the same
//    round trips, answering the rows in an envelope.
// The observations are written straight into record_list in batches (the read model the
// three calls read; no events: nothing measured reads the log).
import Fastify from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '@sprout/api/app';
import { GOAL_CODES } from '@sprout/api/modules/guide/index';
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
import {
  benchDatabase,
  explainCaught,
  catchScripts,
  log,
  sendScripts,
  serve,
  listenLocal,
  probeTargets,
  writeRecordBatches,
} from './probe';

const POOL = 16;
const T = DEMO_TENANT;
const TZ = 'Asia/Shanghai';
const TENANTS = Number(process.env.OBS_TENANTS ?? 20);
const PER_TENANT = Number(process.env.OBS_PER_TENANT ?? 10_000);
const WEEKS_PER_TENANT = Number(process.env.OBS_WEEKS_PER_TENANT ?? 2_000);
const CHILD_RECORDS = Number(process.env.OBS_CHILD_RECORDS ?? 300);

const { t, closers, stop } = await benchDatabase(POOL);

interface ClassRow {
  id: string;
  deptId: string;
  team: Array<{ id: string; name: string }>;
  students: string[];
}

/** The tenant's classes with a team, their children (made-up ids where the tenant has none). */
async function classesOf(database: Database, tenantId: string): Promise<ClassRow[]> {
  return inSystem(database, async (trx) => {
    const users = await trx
      .selectFrom('app_user')
      .select(['id', 'real_name', 'account'])
      .where('tenant_id', '=', tenantId)
      .execute();
    const nameOf = new Map(users.map((u) => [String(u.id), u.real_name ?? u.account]));
    const students = await trx
      .selectFrom('student')
      .select(['id', 'class_id'])
      .where('tenant_id', '=', tenantId)
      .where('is_deleted', '=', 0)
      .execute();
    const classes = await trx
      .selectFrom('clazz')
      .select(['id', 'dept_id', 'teacher_ids'])
      .where('tenant_id', '=', tenantId)
      .where('is_deleted', '=', 0)
      .execute();
    return classes
      .filter((c) => c.teacher_ids.length && c.dept_id !== null)
      .map((c) => {
        const own = students.filter((s) => String(s.class_id) === String(c.id)).map((s) => String(s.id));
        return {
          id: String(c.id),
          deptId: String(c.dept_id),
          team: c.teacher_ids.map((id) => ({ id: String(id), name: nameOf.get(String(id)) ?? String(id) })),
          students: own.length ? own : Array.from({ length: 25 }, () => nextId()),
        };
      });
  });
}

const TEXT = '<p>幼儿在建构区用积木搭建了一座“桥”，反复调整桥墩的位置，尝试让小车顺利通过。</p>';

/** One tenant's observations as record_list rows, in batches; `child` is named by exactly `childRecords` of them. */
function* observationRows(
  tenantId: string,
  classes: ClassRow[],
  reviewer: { id: string; name: string },
  n: number,
  seedNo: number,
  child: { id: string; classId: string; records: number } | null,
) {
  const r = rng(seedNo);
  const now = Date.now();
  const span = 300 * 86_400_000;
  let batch: Array<Record<string, unknown>> = [];
  let childLeft = child?.records ?? 0;
  for (let i = 0; i < n; i++) {
    const slot = (i * 7 + Math.floor(i / 20)) % 20;
    const status = slot < 3 ? 'trial' : slot < 14 ? 'success' : slot < 16 ? 'returned' : 'draft';
    const kind = r() < 0.8 ? 'observation' : 'observation_regional';
    const cls = classes[Math.floor(r() * classes.length)] as ClassRow;
    const author = cls.team[r() < 0.7 ? 0 : cls.team.length - 1] as { id: string; name: string };
    const created = now - r() * span;
    const date = localDate(new Date(created), TZ);
    const pool = cls.students.filter((s) => s !== child?.id);
    const named = new Set<string>();
    for (let k = 1 + Math.floor(r() * 3); k > 0; k--) named.add(pool[Math.floor(r() * pool.length)] as string);
    // The child of the per-child page: in its class's records, live and readable, until it has its count.
    if (child && childLeft > 0 && cls.id === child.classId && status !== 'draft') {
      named.add(child.id);
      childLeft--;
    }
    const goals = [...new Set([0, 1].map(() => GOAL_CODES[Math.floor(r() * GOAL_CODES.length)] as string))];
    const title = `${date} ${kind === 'observation' ? '观察记录' : '区域观察'}`;
    const content =
      kind === 'observation'
        ? {
            type: r() < 0.6 ? 'general' : 'play',
            title,
            date,
            location: '建构区',
            classId: cls.id,
            studentIds: [...named],
            purpose: TEXT,
            record: TEXT,
            photos: [],
            analysis: TEXT,
            goals,
            strategies: TEXT,
            reflection: '',
          }
        : {
            title,
            date,
            classId: cls.id,
            area: 'construction',
            studentIds: [...named],
            materials: '积木、纸盒',
            record: TEXT,
            photos: [],
            analysis: TEXT,
            adjustment: '',
            goals,
          };
    const at = (ms: number) => isoInZone(new Date(Math.min(now, ms)), TZ);
    const submitted = status === 'draft' ? null : at(created + 3_600_000);
    const reviewed = status === 'success' || status === 'returned' ? at(created + 7_200_000) : null;
    batch.push({
      tenant_id: tenantId,
      id: nextId(),
      kind,
      status,
      title,
      author_id: author.id,
      author_name: author.name,
      co_author_ids: cls.team.filter((a) => a.id !== author.id).map((a) => a.id),
      dept_id: cls.deptId,
      class_id: cls.id,
      parent_id: null,
      semester: semesterOf(date),
      excellent: status === 'success' && r() < 0.06,
      reviewer_id: reviewed ? reviewer.id : null,
      reviewer_name: reviewed ? reviewer.name : null,
      review_comment: status === 'returned' ? '请补充幼儿的语言表现。' : null,
      review_time: reviewed,
      submit_time: submitted,
      create_time: at(created),
      update_time: reviewed ?? submitted ?? at(created),
      collect_count: 0,
      content,
      version: status === 'draft' ? 1 : reviewed ? 3 : 2,
    });
    if (batch.length === 2000) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
  if (childLeft > 0) throw new Error(`the child's class had too few records: ${childLeft} short`);
}

async function generateObservations(database: Database) {
  const started = performance.now();
  const tenantIds = Array.from({ length: TENANTS }, (_, i) => String(Number(T) + i));
  const reviewerRow = await inSystem(database, (trx) =>
    trx
      .selectFrom('app_user')
      .select(['id', 'real_name'])
      .where('tenant_id', '=', T)
      .where('account', '=', 'reviewer')
      .executeTakeFirstOrThrow(),
  );
  const reviewer = { id: String(reviewerRow.id), name: reviewerRow.real_name ?? 'reviewer' };
  const demoClasses = await classesOf(database, T);
  // The child: the first real child of the demo kindergarten's first class with children.
  const childClass = demoClasses.find((c) => c.students.length > 3) as ClassRow;
  const childId = childClass.students[0] as string;
  const already = await inSystem(database, (trx) =>
    sql<{ n: string }>`select count(*)::text as n from record_list where tenant_id = ${T}
      and (content -> 'studentIds' @> ${JSON.stringify([childId])}::jsonb or content ->> 'studentId' = ${childId})`.execute(
      trx,
    ),
  );
  const child = { id: childId, classId: childClass.id, records: CHILD_RECORDS - Number(already.rows[0]?.n ?? 0) };
  const gens: Array<Generator<Array<Record<string, unknown>>>> = [];
  for (const [i, tenantId] of tenantIds.entries()) {
    const classes = tenantId === T ? demoClasses : await classesOf(database, tenantId);
    const rev = tenantId === T ? reviewer : { id: classes[0]?.team[0]?.id ?? reviewer.id, name: '业务园长' };
    gens.push(observationRows(tenantId, classes, rev, PER_TENANT, 9001 + i, tenantId === T ? child : null));
  }
  await writeRecordBatches(database, gens);
  // record_list is a view over its current generation's table: analyze the tables (fresh planner statistics).
  await sql`vacuum analyze`.execute(database.db);
  const counts = await inSystem(database, async (trx) => {
    const { rows } = await sql<{
      kind: string;
      n: string;
    }>`select kind, count(*)::text as n from record_list group by kind order by kind`.execute(trx);
    const named = await sql<{ n: string }>`select count(*)::text as n from record_list
      where tenant_id = ${T} and (content -> 'studentIds' @> ${JSON.stringify([child.id])}::jsonb
        or content ->> 'studentId' = ${child.id})`.execute(trx);
    return {
      byKind: Object.fromEntries(rows.map((x) => [x.kind, Number(x.n)])),
      childRecords: Number(named.rows[0]?.n),
    };
  });
  return { child, reviewer, counts, seconds: (performance.now() - started) / 1000 };
}

async function start() {
  const started = performance.now();
  await seed(t.database, { demo: true });
  const weeks = await generateRecords(t.database, {
    tenants: TENANTS,
    recordsPerTenant: WEEKS_PER_TENANT,
    weeks: 20,
    log,
  });
  const obs = await generateObservations(t.database);
  log(`observations data: ${obs.seconds.toFixed(1)} s`);
  const generationSeconds = (performance.now() - started) / 1000;

  const { config, redisUrl } = await benchConfig('bench');
  const tz = config.TIME_ZONE;
  const app = await buildApp(config, {
    database: t.database,
    queue: new MemoryQueue(),
    fastify: { logger: false },
  });
  closers.push(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const headers = bladeAuth(tokenFor(config, { tenant_id: T, user_id: obs.reviewer.id }));

  const paths = {
    trial: { method: 'POST' as const, url: '/api/t_observation/observation/alllistForTrial?current=10&size=10' },
    records: { method: 'GET' as const, url: `/api/guide/child/records?studentId=${obs.child.id}&current=2&size=30` },
    coverage: { method: 'GET' as const, url: `/api/guide/child/coverage?studentId=${obs.child.id}` },
  };

  // What the full stack sends for each call: its scripts, the tenant settings taken off.
  const head = `set local app.user_id = '${obs.reviewer.id}'; `;
  const caught = await catchScripts(app, t, paths, headers, head);

  // The tenant setting on each connection (the child's ids are read for the tenant it names); no role, no RLS.
  const pool = new pg.Pool({ connectionString: t.url, max: POOL, options: `-c app.tenant_id=${T}` });
  closers.push(() => pool.end());
  // OBS_EXPLAIN=1: each caught statement's plan, run as the stack runs it (tenant role, RLS), on stderr.
  if (process.env.OBS_EXPLAIN === '1') await explainCaught(pool, caught, T, head);
  const bare = Fastify({ logger: false });
  closers.push(() => bare.close());
  for (const [name, p] of Object.entries(paths)) {
    const scripts = caught[name] as string[];
    // The same statements in the same round trips: no auth, no permission or scope lookup, no role or RLS.
    bare.route({
      method: p.method,
      url: `/bare/${name}`,
      handler: async () => {
        const rows = await sendScripts(pool, scripts);
        // The review queue's rows presented and paged as the stack does; the child's rows as read.
        const total = Number(rows[0]?.__total ?? rows.length);
        if (name === 'trial')
          return ok(
            pageOf(
              rows.map((row) => presentRow(row as unknown as RecordRow, tz)),
              total,
              { current: 10, size: 10 },
            ),
          );
        return ok({ records: rows, total });
      },
    });
  }
  return {
    kv: redisUrl ? 'Redis' : 'memory',
    headers,
    targets: probeTargets(base, await listenLocal(bare), paths, caught),
    data: {
      tenants: TENANTS,
      observations: TENANTS * PER_TENANT,
      byKind: obs.counts.byKind,
      childRecords: obs.counts.childRecords,
      weeks: weeks.records,
      generationSeconds,
      observationSeconds: obs.seconds,
    },
  };
}

await serve(start, stop);
