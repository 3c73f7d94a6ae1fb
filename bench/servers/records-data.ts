// Data of the issue-7 benchmark (bench/records.bench.ts): 20 kindergartens with classes and
// teachers, 10,000 weekly plans each in a realistic mix of states over the last 20 weeks,
// written in bulk as the lifecycle events appendToStream would have stored them, with the
// record_list and record_activity rows of each record (the lifecycle's own fold), then
// checked against the log, against what was generated, and against the projections' own
// replay of a sample of streams. RECORDS_REPLAY=1 builds the read models by replaying the
// whole log through the projections instead (rebuildProjection, AsyncProjector.catchUp):
// the same rows, several minutes slower.
import { type Kysely, sql } from 'kysely';
import type { WeekContent } from '@sprout/contracts';
import { semesterOf } from '@sprout/api/modules/records/engine';
import { type Database, type DB, inSystem } from '@sprout/core/db';
import {
  AsyncProjector,
  currentSchemaVersion,
  decodeEvents,
  EVENT_COLUMNS,
  type EventRow,
  projectionNamed,
  rebuildProjection,
} from '@sprout/core/events';
import { nextId } from '@sprout/core/ids';
import { seedPosts } from '@sprout/core/permissions/demo';
import { catalogueIndex, seedTenantRoles } from '@sprout/core/permissions/seed';
import {
  type Actor,
  evolveRecord,
  initialRecordState,
  parentOf,
  type RecordEvent,
  recordActivityProjection,
  recordListProjection,
  registerRecordProjections,
  titleOf,
} from '@sprout/core/records';
import { addDays, isoInZone, localDate, mondayOf } from '@sprout/core/time';

export const DEMO_TENANT = '100001';
const TZ = 'Asia/Shanghai';
const GRADES = [
  { grade: 1, dept: '托班组', short: '托' },
  { grade: 2, dept: '小班组', short: '小' },
  { grade: 3, dept: '中班组', short: '中' },
  { grade: 4, dept: '大班组', short: '大' },
] as const;
const CN = '一二三四五六七八九十'.split('');
const STATUSES = ['draft', 'trial', 'success', 'returned'] as const;
type Status = (typeof STATUSES)[number];
/** Activities the dashboard counts, by event type (as record_activity has them). */
const ACTIVITY: Record<string, string> = {
  RecordCreated: 'created',
  RecordSubmitted: 'submitted',
  RecordApproved: 'approved',
  RecordReturned: 'returned',
  RecordMarkedExcellent: 'excellent',
};

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

interface School {
  tenantId: string;
  classes: Array<{ id: string; deptId: string; team: Actor[] }>;
  reviewer: Actor;
}

/** A small deterministic generator, so every run builds the same school. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The grade groups of a tenant (created under a new campus when it has none), three more
 * classes per grade with a head and an assistant teacher each (seeded `teacher` role), and a
 * reviewer; the tenant's existing classes with a teaching team write plans too.
 */
async function school(trx: Kysely<DB>, tenantId: string, roleIds: Map<string, string>): Promise<School> {
  const depts = await trx
    .selectFrom('dept')
    .select(['id', 'dept_name', 'parent_id'])
    .where('tenant_id', '=', tenantId)
    .where('is_deleted', '=', 0)
    .execute();
  const gradeDept = new Map<number, string>();
  let campus = depts.find((d) => String(d.parent_id) === '0');
  if (!campus) {
    campus = { id: nextId(), dept_name: `萌芽第${tenantId.slice(-2)}幼儿园`, parent_id: '0' };
    await trx
      .insertInto('dept')
      .values({
        tenant_id: tenantId,
        id: campus.id,
        ancestors: [],
        dept_category: 1,
        dept_name: campus.dept_name,
        full_name: campus.dept_name,
        sort: 1,
      })
      .execute();
  }
  for (const g of GRADES) {
    const found = depts.find((d) => d.dept_name === g.dept);
    if (found) {
      gradeDept.set(g.grade, String(found.id));
      continue;
    }
    const id = nextId();
    gradeDept.set(g.grade, id);
    await trx
      .insertInto('dept')
      .values({
        tenant_id: tenantId,
        id,
        parent_id: campus.id,
        ancestors: [campus.id],
        dept_category: 2,
        dept_name: g.dept,
        full_name: `${campus.dept_name}${g.dept}`,
        sort: g.grade,
      })
      .execute();
  }
  const existing = await trx
    .selectFrom('clazz')
    .select(['id', 'name', 'dept_id', 'teacher_ids'])
    .where('tenant_id', '=', tenantId)
    .where('is_deleted', '=', 0)
    .execute();
  const names = await trx
    .selectFrom('app_user')
    .select(['id', 'real_name', 'account'])
    .where('tenant_id', '=', tenantId)
    .execute();
  const nameOf = new Map(names.map((u) => [String(u.id), u.real_name ?? u.account]));
  const classes: School['classes'] = existing
    .filter((c) => c.teacher_ids.length && c.dept_id !== null)
    .map((c) => ({
      id: String(c.id),
      deptId: String(c.dept_id),
      team: c.teacher_ids.map((id) => ({ id: String(id), name: nameOf.get(String(id)) ?? String(id) })),
    }));
  const taken = new Set(existing.map((c) => c.name));
  const users = [];
  const userRoles = [];
  const clazz = [];
  const teacherRole = roleIds.get('teacher') as string;
  for (const g of GRADES) {
    const deptId = gradeDept.get(g.grade) as string;
    for (let k = 0, made = 0; made < 3; k++) {
      const name = `${g.short}${CN[k]}班`;
      if (taken.has(name)) continue;
      made++;
      const team: Actor[] = [];
      for (const role of ['head', 'assistant']) {
        const id = nextId();
        const realName = `${g.short}${CN[k]}${role === 'head' ? '主班' : '配班'}老师`;
        team.push({ id, name: realName });
        users.push({
          tenant_id: tenantId,
          id,
          account: `t${g.grade}${k}${role[0]}`,
          password_hash: 'x',
          name: realName,
          real_name: realName,
          dept_id: deptId,
        });
        userRoles.push({ tenant_id: tenantId, user_id: id, role_id: teacherRole });
      }
      const id = nextId();
      clazz.push({
        tenant_id: tenantId,
        id,
        name,
        grade: g.grade,
        school_year: '2026-2027',
        dept_id: deptId,
        head_teacher_id: team[0]?.id,
        teacher_ids: team.map((a) => a.id),
        capacity: 30,
      });
      classes.push({ id, deptId, team });
    }
  }
  let reviewer = names.find((u) => u.account === 'reviewer');
  if (!reviewer) {
    reviewer = { id: nextId(), real_name: '业务园长', account: 'reviewer' };
    users.push({
      tenant_id: tenantId,
      id: reviewer.id,
      account: 'reviewer',
      password_hash: 'x',
      name: '业务园长',
      real_name: '业务园长',
      dept_id: campus.id,
    });
    userRoles.push({ tenant_id: tenantId, user_id: reviewer.id, role_id: roleIds.get('reviewer') as string });
  }
  await trx.insertInto('app_user').values(users).execute();
  await trx.insertInto('user_role').values(userRoles).execute();
  await trx.insertInto('clazz').values(clazz).execute();
  return {
    tenantId,
    classes,
    reviewer: { id: String(reviewer.id), name: reviewer.real_name ?? reviewer.account },
  };
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

/** Counts of week records by `tenant status`, from the log: the last state-changing event of each stream. */
async function statusFromLog(trx: Kysely<DB>) {
  const r = await sql<{ tenant_id: string; status: string; n: string }>`
    select tenant_id, status, count(*)::text as n from (
      select distinct on (tenant_id, stream_id) tenant_id,
        case type when 'RecordCreated' then 'draft' when 'RecordSubmitted' then 'trial'
          when 'RecordApproved' then 'success' when 'RecordReturned' then 'returned' else 'deleted' end as status
      from events
      where stream_type = 'week'
        and type in ('RecordCreated', 'RecordSubmitted', 'RecordApproved', 'RecordReturned', 'RecordDeleted')
      order by tenant_id, stream_id, stream_version desc) s
    group by 1, 2`.execute(trx);
  return new Map(r.rows.map((x) => [`${x.tenant_id} ${x.status}`, Number(x.n)]));
}

async function statusFromList(trx: Kysely<DB>) {
  const r = await sql<{ tenant_id: string; status: string; n: string }>`
    select tenant_id, status, count(*)::text as n from record_list where kind = 'week' group by 1, 2`.execute(trx);
  return new Map(r.rows.map((x) => [`${x.tenant_id} ${x.status}`, Number(x.n)]));
}

const TYPE_OF_STEP = Object.fromEntries(Object.entries(ACTIVITY).map(([type, step]) => [step, type]));

/** Counted steps by `tenant kind type week`, from the log (live records; no mark is removed in this data). */
async function activityFromLog(trx: Kysely<DB>) {
  const r = await sql<{ k: string; n: string }>`
    select concat_ws(' ', e.tenant_id, e.stream_type, e.type, date_trunc('week', left(e.data->>'at', 10)::date)::date)
      as k, count(*)::text as n
    from events e
    where e.type in ('RecordCreated', 'RecordSubmitted', 'RecordApproved', 'RecordReturned', 'RecordMarkedExcellent')
      and not exists (select 1 from events d where d.tenant_id = e.tenant_id and d.stream_id = e.stream_id
        and d.type in ('RecordDeleted', 'ExcellentMarkRemoved'))
    group by 1`.execute(trx);
  return new Map(r.rows.map((x) => [x.k, Number(x.n)]));
}

async function activityFromModel(trx: Kysely<DB>) {
  const r = await sql<{ tenant_id: string; kind: string; activity: string; week: string; n: string }>`
    select tenant_id, kind, activity, week_start::text as week, count(*)::text as n
    from record_activity group by 1, 2, 3, 4`.execute(trx);
  return new Map(
    r.rows.map((x) => [`${x.tenant_id} ${x.kind} ${TYPE_OF_STEP[x.activity] ?? x.activity} ${x.week}`, Number(x.n)]),
  );
}

/** Steps by their dashboard name, summed over tenants, kinds and weeks. */
function byStep(m: Map<string, number>) {
  const out = new Map<string, number>();
  for (const [k, n] of m) {
    const step = ACTIVITY[k.split(' ')[2] as string] as string;
    out.set(step, (out.get(step) ?? 0) + n);
  }
  return out;
}

function sameMaps(what: string, a: Map<string, number>, b: Map<string, number>) {
  for (const k of new Set([...a.keys(), ...b.keys()]))
    if ((a.get(k) ?? 0) !== (b.get(k) ?? 0)) throw new Error(`${what}: ${k}: ${a.get(k) ?? 0} ≠ ${b.get(k) ?? 0}`);
}

/**
 * The projections' own code on a random sample of week streams: their events replayed by
 * record_list's and record_activity's `handle` into scratch tables must give exactly the
 * rows the read models hold. Returns the number of streams compared.
 */
async function sampleAgainstProjections(database: Database, n: number) {
  return inSystem(database, async (trx) => {
    const sample = await sql<{ tenant_id: string; stream_id: string }>`
      select tenant_id, stream_id from streams where type = 'week' order by random() limit ${n}`.execute(trx);
    const tenants = sample.rows.map((x) => x.tenant_id);
    const streams = sample.rows.map((x) => x.stream_id);
    const rows = await sql<EventRow>`
      select ${EVENT_COLUMNS} from events e
      join unnest(${tenants}::text[], ${streams}::text[]) as u(t, s) on e.tenant_id = u.t and e.stream_id = u.s
      order by e.transaction_id, e.global_position`.execute(trx);
    const events = await decodeEvents(trx, rows.rows);
    for (const [def, key] of [
      [recordListProjection, 'id'],
      [recordActivityProjection, 'record_id'],
    ] as const) {
      const scratch = `bench_check_${def.name}`;
      await def.createTable(trx, scratch);
      const types = def.eventTypes;
      await def.handle(trx, types === '*' ? events : events.filter((e) => types.includes(e.type)), {
        table: scratch,
        rebuilding: true,
      });
      const live = sql`(select m.* from ${sql.table(def.name)} m
        join unnest(${tenants}::text[], ${streams}::bigint[]) as u(t, s) on m.tenant_id = u.t and m.${sql.ref(key)} = u.s)`;
      const diff = await sql<{ n: string }>`
        select count(*)::text as n from (
          (select * from ${sql.table(scratch)} except all ${live})
          union all
          (${live} except all select * from ${sql.table(scratch)})) d`.execute(trx);
      const rowsIn = await sql<{ n: string }>`select count(*)::text as n from ${sql.table(scratch)}`.execute(trx);
      if (Number(diff.rows[0]?.n) !== 0 || Number(rowsIn.rows[0]?.n) === 0)
        throw new Error(`${def.name}: ${diff.rows[0]?.n} rows differ from the projection's own replay of ${n} streams`);
      await sql`drop table ${sql.table(scratch)}`.execute(trx);
    }
    return sample.rows.length;
  });
}

/**
 * Seeds `tenants - 1` kindergartens beside the demo one (`seed` has run), writes the
 * records' events in bulk, builds the read models and verifies them. `replay`: the read
 * models come from a full rebuildProjection (record_list) and AsyncProjector.catchUp
 * (record_activity) over the log instead (slow: one statement per event); otherwise they are
 * written with the events, the activity projector's checkpoint moved past them, and a sample
 * of streams is replayed through both projections to show the rows are theirs.
 */
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
  // Two writers (the machine has two cores): each takes the next batch, generating it meanwhile.
  const writer = async () => {
    for (;;) {
      const gen = queue[0];
      if (!gen) return;
      const next = gen.next();
      if (next.done) {
        if (queue[0] === gen) queue.shift();
        continue;
      }
      await writeBatch(database, next.value, !opts.replay);
    }
  };
  await Promise.all([writer(), writer()]);
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
