// Data of the issue-7 benchmark (bench/records.bench.ts): 20 kindergartens with classes and
// teachers, 10,000 weekly plans each in a realistic mix of states over the last 20 weeks,
// written in bulk as the lifecycle events appendToStream would have stored them, with the
// record_list and record_activity rows of each record (the lifecycle's own fold), then
// checked against the log, against what was generated, and against the projections' own
// replay of a sample of streams. RECORDS_REPLAY=1 builds the read models by replaying the
// whole log through the projections instead (rebuildProjection, AsyncProjector.catchUp):
// the same rows, several minutes slower.
import { sql } from 'kysely';
import type { WeekContent } from '@sprout/contracts';
import { semesterOf } from '@sprout/api/modules/records/engine';
import { type Database, inSystem } from '@sprout/core/db';
import { AsyncProjector, currentSchemaVersion, projectionNamed, rebuildProjection } from '@sprout/core/events';
import { nextId } from '@sprout/core/ids';
import { twoWriters } from './probe';
import { type School, school } from './records-school';
import {
  ACTIVITY,
  activityFromLog,
  activityFromModel,
  byStep,
  sameMaps,
  sampleAgainstProjections,
  statusFromList,
  statusFromLog,
} from './records-check';
import { rng, seedPosts } from '@sprout/core/permissions/demo';
import { catalogueIndex, seedTenantRoles } from '@sprout/core/permissions/seed';
import {
  type Actor,
  evolveRecord,
  initialRecordState,
  parentOf,
  type RecordEvent,
  registerRecordProjections,
  titleOf,
} from '@sprout/core/records';
import { addDays, isoInZone, localDate, mondayOf } from '@sprout/core/time';

export const DEMO_TENANT = '100001';
const TZ = 'Asia/Shanghai';
const STATUSES = ['draft', 'trial', 'success', 'returned'] as const;
type Status = (typeof STATUSES)[number];
/** Activities the dashboard counts, by event type (as record_activity has them). */

export interface DataOptions {
  tenants: number;
  recordsPerTenant: number;
  /** Weeks back over which the records are created. */
  weeks: number;
  /** Build the read models by replaying the log with the projections (slow) instead of in bulk. */
  replay?: boolean;
  log: (msg: string) => void;
}

export interface DataReport {
  tenants: number;
  records: number;
  events: number;
  seconds: Record<string, number>;
  counts: Record<Status, number>;
}

const THEMES = ['我的幼儿园', '秋天来了', '好吃的水果', '动物朋友', '有趣的影子', '冬天的秘密', '我爱我家', '神奇的水'];

/** A compact but complete week (5 days), as the editor would save it. */
function weekContent(classId: string, monday: string, theme: string): WeekContent {
  const y = Number(monday.slice(0, 4));
  const m = Number(monday.slice(5, 7));
  const termStart = m >= 8 ? `${y}-09-01` : m === 1 ? `${y - 1}-09-01` : `${y}-02-16`;
  const weekNo = Math.max(1, Math.min(30, Math.floor((Date.parse(monday) - Date.parse(termStart)) / 604_800_000) + 1));
  return {
    classId,
    weekNo,
    startDate: monday,
    endDate: addDays(monday, 4),
    theme,
    weeklyGoals: `围绕“${theme}”主题，愿意参与集体活动，大胆表达自己的发现。`,
    environment: `布置“${theme}”主题墙。`,
    homeCooperation: '',
    days: Array.from({ length: 5 }, (_, i) => ({
      date: addDays(monday, i),
      morning: '晨间自主游戏',
      groupTeaching: i === 1 ? `语言：${theme}` : '',
      regional: '美工区：树叶拓印',
      outdoor: '户外：滑滑梯',
      life: '洗手七步法',
      afternoon: '',
      notes: '',
    })),
    reflection: '',
  };
}

/** One transaction's worth of generated records: their events, streams and read-model rows. */
interface Batch {
  events: Array<{
    o: number;
    t: string;
    s: string;
    v: number;
    ty: string;
    sv: number;
    d: unknown;
    m: unknown;
    at: string;
  }>;
  streams: Array<{ t: string; s: string; v: number; c: string; u: string }>;
  list: Array<Record<string, unknown>>;
  activity: Array<Record<string, unknown>>;
}
const newBatch = (): Batch => ({ events: [], streams: [], list: [], activity: [] });

/**
 * One transaction of many week streams, stored as sprout_append_events stores an append
 * (migration 0002): the events with consecutive versions in stream order (one transaction
 * id, increasing global positions) and the stream rows at their last version. The events'
 * recorded_at is their command time, as if each had been appended when it happened. With
 * `models`, the records' record_list and record_activity rows go in the same transaction.
 */
async function writeBatch(database: Database, b: Batch, models: boolean) {
  await inSystem(database, async (trx) => {
    await sql`
      insert into events (tenant_id, stream_type, stream_id, stream_version, type, schema_version, data, metadata,
        recorded_at)
      select x.t, 'week', x.s, x.v, x.ty, x.sv, x.d, x.m, x.at
      from jsonb_to_recordset(${JSON.stringify(b.events)}::jsonb)
        as x(o int, t text, s text, v int, ty text, sv int, d jsonb, m jsonb, at timestamptz)
      order by x.o`.execute(trx);
    await sql`
      insert into streams (tenant_id, stream_id, type, version, last_transaction_id, created_at, updated_at)
      select x.t, x.s, 'week', x.v, pg_current_xact_id(), x.c, x.u
      from jsonb_to_recordset(${JSON.stringify(b.streams)}::jsonb)
        as x(t text, s text, v int, c timestamptz, u timestamptz)`.execute(trx);
    if (!models) return;
    await sql`insert into record_list
      select * from jsonb_populate_recordset(null::record_list, ${JSON.stringify(b.list)}::jsonb)`.execute(trx);
    await sql`insert into record_activity
      select * from jsonb_populate_recordset(null::record_activity, ${JSON.stringify(b.activity)}::jsonb)`.execute(trx);
  });
}

interface Tally {
  events: number;
  /** `${tenant} ${status}` → records. */
  status: Map<string, number>;
  /** step (created, submitted, …) → rows. */
  activities: Map<string, number>;
}

/**
 * The events of one tenant's weeks, `size` records per batch, and each record's
 * record_list row (the lifecycle's own fold, evolveRecord, with the projection's title and
 * parent) and record_activity rows (one per counted step, in the Monday week of its local
 * date, with the record's author, dept and class).
 */
function* tenantBatches(sch: School, n: number, weeks: number, now: number, seed: number, size: number, tally: Tally) {
  const r = rng(seed);
  const span = weeks * 7 * 86_400_000;
  let b = newBatch();
  for (let i = 0; i < n; i++) {
    // Exactly 15% trial, 55% approved, 10% returned, 20% draft, in a shuffled order.
    const slot = (i * 7 + Math.floor(i / 20)) % 20;
    const status: Status = slot < 3 ? 'trial' : slot < 14 ? 'success' : slot < 16 ? 'returned' : 'draft';
    const cls = sch.classes[Math.floor(r() * sch.classes.length)] as School['classes'][number];
    const lead = cls.team.length > 1 && r() < 0.3 ? 1 : 0;
    const author = cls.team[lead] as Actor;
    const coAuthorIds = cls.team.filter((_, k) => k !== lead).map((a) => a.id);
    let t = now - r() * span;
    const monday = addDays(mondayOf(localDate(new Date(t), TZ)), 7); // plans are written the week before
    const content = weekContent(cls.id, monday, THEMES[Math.floor(r() * THEMES.length)] as string);
    const by = (actor: Actor) => ({ actorId: actor.id, actorName: actor.name, at: isoInZone(new Date(t), TZ) });
    // Each later step some hours after the one before, never in the future.
    const later = (minH: number, maxH: number) => {
      t += Math.min((minH + r() * (maxH - minH)) * 3_600_000, (now - t) * 0.5);
    };
    const events: Array<RecordEvent<WeekContent>> = [
      {
        type: 'RecordCreated',
        data: {
          ...by(author),
          kind: 'week',
          deptId: cls.deptId,
          classId: cls.id,
          semester: semesterOf(monday),
          content,
          coAuthorIds,
        },
      },
    ];
    const submit = () => {
      later(1, 48);
      events.push({ type: 'RecordSubmitted', data: by(author) });
    };
    const returnAndFix = () => {
      later(2, 72);
      events.push({ type: 'RecordReturned', data: { ...by(sch.reviewer), comment: '请补充本周家园共育的内容。' } });
      later(1, 24);
      const fixed = { ...content, homeCooperation: '周末亲子任务：完成一张主题小报。' };
      events.push({ type: 'DraftUpdated', data: { ...by(author), content: fixed, coAuthorIds } });
      submit();
    };
    if (status !== 'draft') submit();
    if (status === 'trial' && r() < 0.2) returnAndFix();
    if (status === 'returned') {
      later(2, 72);
      events.push({
        type: 'RecordReturned',
        data: { ...by(sch.reviewer), comment: '区域活动的材料投放请再具体一些。' },
      });
    }
    if (status === 'success') {
      if (r() < 0.1) returnAndFix();
      later(2, 72);
      events.push({ type: 'RecordApproved', data: { ...by(sch.reviewer), comment: r() < 0.5 ? '同意' : null } });
      if (r() < 0.06) {
        later(1, 48);
        events.push({ type: 'RecordMarkedExcellent', data: by(sch.reviewer) });
      }
    }

    const id = nextId();
    let state = initialRecordState<WeekContent>();
    for (const [k, e] of events.entries()) {
      state = evolveRecord(state, e);
      const m = { actorId: e.data.actorId, actorName: e.data.actorName, tenantId: sch.tenantId };
      b.events.push({
        o: b.events.length,
        t: sch.tenantId,
        s: id,
        v: k + 1,
        ty: e.type,
        sv: currentSchemaVersion(e.type),
        d: e.data,
        m,
        at: e.data.at,
      });
      const step = ACTIVITY[e.type];
      if (step) {
        tally.activities.set(step, (tally.activities.get(step) ?? 0) + 1);
        b.activity.push({
          tenant_id: sch.tenantId,
          record_id: id,
          version: k + 1,
          kind: 'week',
          activity: step,
          week_start: mondayOf(e.data.at.slice(0, 10)),
          author_id: state.authorId,
          dept_id: state.deptId,
          class_id: state.classId,
        });
      }
    }
    if (state.status !== status) throw new Error(`generated ${state.status}, meant ${status}`);
    b.list.push({
      tenant_id: sch.tenantId,
      id,
      kind: 'week',
      status: state.status,
      title: titleOf('week', state.content),
      author_id: state.authorId,
      author_name: state.authorName,
      co_author_ids: state.coAuthorIds,
      dept_id: state.deptId,
      class_id: state.classId,
      parent_id: parentOf('week', state.content),
      semester: state.semester,
      excellent: state.excellent,
      reviewer_id: state.reviewerId,
      reviewer_name: state.reviewerName,
      review_comment: state.reviewComment,
      review_time: state.reviewTime,
      submit_time: state.submitTime,
      create_time: state.createTime,
      update_time: state.updateTime,
      collect_count: state.collectedBy.length,
      content: state.content,
      version: events.length,
    });
    b.streams.push({
      t: sch.tenantId,
      s: id,
      v: events.length,
      c: state.createTime as string,
      u: events[events.length - 1]?.data.at as string,
    });
    tally.events += events.length;
    const key = `${sch.tenantId} ${status}`;
    tally.status.set(key, (tally.status.get(key) ?? 0) + 1);
    if (b.streams.length === size) {
      yield b;
      b = newBatch();
    }
  }
  if (b.streams.length) yield b;
}

export async function generateRecords(database: Database, opts: DataOptions): Promise<DataReport> {
  const seconds: Record<string, number> = {};
  let mark = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    seconds[name] = (now - mark) / 1000;
    mark = now;
    opts.log(`records data: ${name} ${seconds[name]?.toFixed(1)} s`);
  };
  registerRecordProjections();
  const activityDef = projectionNamed('record_activity');
  if (!activityDef) throw new Error('record_activity is not registered');
  const projector = new AsyncProjector(database, activityDef, { batchSize: 5000 });
  const catchUp = async () => {
    // Settled events only: wait out any transaction of the cluster older than the writes.
    for (let i = 0; ; i++) {
      await projector.catchUp();
      if ((await projector.measureLag()).behind === 0) return;
      if (i > 600) throw new Error('record_activity did not catch up');
      await new Promise((res) => setTimeout(res, 100));
    }
  };
  const tenantIds = Array.from({ length: opts.tenants }, (_, i) => String(Number(DEMO_TENANT) + i));
  const schools = await inSystem(database, async (trx) => {
    const index = await catalogueIndex(trx);
    const out: School[] = [];
    for (const tenantId of tenantIds) {
      if (tenantId !== DEMO_TENANT)
        await trx
          .insertInto('tenant')
          .values({ tenant_id: tenantId, tenant_name: `萌芽第${tenantId.slice(-2)}幼儿园`, account_number: -1 })
          .execute();
      const { roleIds } = await seedTenantRoles(trx, tenantId, index);
      await seedPosts(trx, tenantId);
      out.push(await school(trx, tenantId, roleIds));
    }
    return out;
  });
  // The demo weeks seeding wrote (part of the log and of the read models).
  if (!opts.replay) await catchUp();
  const before = await inSystem(database, async (trx) => ({
    status: await statusFromList(trx),
    steps: byStep(await activityFromLog(trx)),
    events: Number((await sql<{ n: string }>`select count(*)::text as n from events`.execute(trx)).rows[0]?.n),
  }));
  lap('tenants, classes and teachers');

  const tally: Tally = { events: 0, status: new Map(), activities: new Map() };
  const now = Date.now();
  const queue = schools.map((s, i) => tenantBatches(s, opts.recordsPerTenant, opts.weeks, now, 7001 + i, 2000, tally));
  await twoWriters(queue, (batch) => writeBatch(database, batch, !opts.replay));
  lap(opts.replay ? 'events and streams' : 'events, streams, record_list and record_activity');

  if (opts.replay) {
    await Promise.all([
      rebuildProjection(database, 'record_list', { batchSize: 5000 }).then(() => lap('record_list rebuilt')),
      catchUp().then(() => lap('record_activity caught up')),
    ]);
  } else {
    // As the projector would leave it: the checkpoint at the last event of the log, in its read order.
    await inSystem(database, (trx) =>
      sql`update projections p set transaction_id = l.transaction_id, global_position = l.global_position,
            events_processed = p.events_processed + ${tally.events}, updated_at = now()
          from (select transaction_id, global_position from events
                order by transaction_id desc, global_position desc limit 1) l
          where p.name = 'record_activity'`.execute(trx),
    );
    await catchUp();
  }

  // Verify: read models = log = what was generated.
  await inSystem(database, async (trx) => {
    const list = await statusFromList(trx);
    sameMaps('record_list vs log (week records by tenant and status)', list, await statusFromLog(trx));
    const expected = new Map(before.status);
    for (const [k, n] of tally.status) expected.set(k, (expected.get(k) ?? 0) + n);
    sameMaps('record_list vs generated + demo', list, expected);
    const events = Number((await sql<{ n: string }>`select count(*)::text as n from events`.execute(trx)).rows[0]?.n);
    if (events !== before.events + tally.events)
      throw new Error(`events: ${events} ≠ ${before.events} + ${tally.events}`);
    const model = await activityFromModel(trx);
    sameMaps('record_activity vs log (steps by tenant, kind, type and week)', model, await activityFromLog(trx));
    const expectedSteps = new Map(before.steps);
    for (const [k, n] of tally.activities) expectedSteps.set(k, (expectedSteps.get(k) ?? 0) + n);
    sameMaps('record_activity vs generated + demo (steps)', byStep(model), expectedSteps);
  });
  const sampled = await sampleAgainstProjections(database, 500);
  lap(`verified (log, generated counts, ${sampled} streams replayed by the projections)`);

  await sql`vacuum analyze`.execute(database.db);
  lap('vacuum analyze');

  const counts = { draft: 0, trial: 0, success: 0, returned: 0 } as Record<Status, number>;
  for (const [k, n] of tally.status) counts[k.split(' ')[1] as Status] += n;
  return {
    tenants: schools.length,
    records: opts.tenants * opts.recordsPerTenant,
    events: tally.events,
    seconds,
    counts,
  };
}
