import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { type Database, type DB, readInTenant, scriptInTenant } from '@sprout/core/db';
import { forbidden, notFound } from '@sprout/core/errors';
import { scopeWhere } from '@sprout/core/permissions/sql';
import { addDays, localDate, mondayOf } from '@sprout/core/time';
import { scopeColumns } from '../../http/query';
import { type Caller, inRecordScope, semesterOf } from '../records';
import { GOAL_CODES, GUIDE_DICT } from './guidelines';

/** The families whose records tag 《指南》 goals and name children. */
export const GUIDE_KINDS = ['observation', 'observation_regional', 'hearken'] as const;
export type GuideKind = (typeof GUIDE_KINDS)[number];

/** The `guide` dictionary's live rows, parents before children. */
export interface GuideDictRow {
  id: string;
  parent_id: string;
  dict_key: string;
  dict_value: string;
  remark: string | null;
  sort: number;
}
export const guideRows = (db: Kysely<DB>, tenantId: string) =>
  sql<GuideDictRow>`select id::text, parent_id::text, dict_key, dict_value, remark, sort from dict_biz
    where tenant_id = ${tenantId} and code = ${GUIDE_DICT} and is_deleted = 0
    order by sort, id`.compile(db);

const GOAL_KEY = /^[a-z]+-\d+-\d+$/;

/**
 * The codes among `codes` that are no goal of the tenant's 《指南》 tree (the business
 * dictionary `guide`), each once, in the order given. What a record's `goals` are checked by.
 */
export async function unknownGoals(trx: Kysely<DB>, tenantId: string, codes: readonly string[]): Promise<string[]> {
  const asked = [...new Set(codes.map(String))];
  const candidates = asked.filter((c) => GOAL_KEY.test(c));
  const known = new Set<string>();
  if (candidates.length) {
    const { rows } = await sql<{ dict_key: string }>`select dict_key from dict_biz
      where tenant_id = ${tenantId} and code = ${GUIDE_DICT} and is_deleted = 0 and parent_id <> 0
        and dict_key = any(${candidates}::text[])`.execute(trx);
    for (const r of rows) known.add(r.dict_key);
  }
  return asked.filter((c) => !known.has(c));
}

/** The dates a semester (`2026-2027-1`: Aug–Jan; `…-2`: Feb–Jul, semesterOf) covers. */
export function semesterRange(semester: string): { from: string; to: string } {
  const [a, b, n] = semester.split('-').map(Number) as [number, number, number];
  if (n === 1) return { from: `${a}-08-01`, to: `${b}-01-31` };
  return { from: `${b}-02-01`, to: `${b}-07-31` };
}

/** Today's semester and week (Monday–Sunday) in the caller's time zone. */
export function currentTerm(tz: string) {
  const today = localDate(new Date(), tz);
  const weekStart = mondayOf(today);
  return { today, semester: semesterOf(today), weekStart, weekEnd: addDays(weekStart, 6) };
}

/** A child's row as the per-child page shows it: never the guardian's fields. */
export interface ChildRow {
  id: string;
  name: string;
  class_id: string | null;
  class_name: string | null;
  student_no: string | null;
  in_scope: boolean;
}

const STUDENT_COLUMNS = scopeColumns('s', { deptId: 'dept_id', classId: 'class_id' });

/**
 * The live child `studentId` of the caller's tenant, if the caller's `student` data scope (the
 * one translation of data scopes, as the children screen reads them) covers it: 404 when the
 * tenant has no such child, 403 when it is outside the scope.
 */
export async function childInScope(database: Database, caller: Caller, studentId: string): Promise<ChildRow> {
  const db = database.db;
  const q = db
    .selectFrom('student as s')
    .select([
      sql<string>`s.id::text`.as('id'),
      's.name',
      sql<string | null>`s.class_id::text`.as('class_id'),
      's.student_no',
      sql<string | null>`(select c.name from clazz c where c.tenant_id = s.tenant_id and c.id = s.class_id)`.as(
        'class_name',
      ),
      sql<boolean>`${scopeWhere(caller.perms.ability, 'read', 'student', STUDENT_COLUMNS)}`.as('in_scope'),
    ])
    .where('s.tenant_id', '=', caller.ctx.tenantId)
    .where('s.id', '=', studentId)
    .where('s.is_deleted', '=', 0)
    .compile();
  const row = (await readInTenant<ChildRow>(database, caller.ctx, q))[0];
  if (!row) throw notFound('guide.childNotFound');
  if (!row.in_scope) throw forbidden('guide.childOutOfScope');
  return row;
}

/** The records that name the child: its observations and area observations (`studentIds`), its listening records (`studentId`). */
export const namesChild = (studentId: string): RawBuilder<SqlBool> =>
  // The ids first, from the child indexes (migration 0150: under RLS a jsonb `@>` never uses an index).
  // Once per statement (an init plan), then read by key: the same plan with or without RLS.
  sql<SqlBool>`(r.id = any(array(select guide_records_naming_child(${studentId})))
    and ((r.kind in ('observation', 'observation_regional')
      and r.content -> 'studentIds' @> ${JSON.stringify([studentId])}::jsonb)
    or (r.kind = 'hearken' and r.content ->> 'studentId' = ${studentId})))`;

/** Live records the caller may see on the page: others' drafts stay theirs. */
const shown = (me: string) =>
  sql<SqlBool>`(r.status <> 'deleted' and (r.status <> 'draft' or r.author_id = ${me} or ${me} = any(r.co_author_ids)))`;

export interface ChildRecordRow {
  id: string;
  kind: GuideKind;
  status: string;
  title: string;
  author_name: string;
  class_name: string | null;
  date: string | null;
  goals: unknown;
  photos: unknown;
  create_time: Date;
}

/** The records naming the child, newest first (the record's date, then when it was written). */
export function childRecordsQuery(db: Kysely<DB>, caller: Caller, studentId: string) {
  return db
    .selectFrom('record_list as r')
    .select([
      sql<string>`r.id::text`.as('id'),
      'r.kind',
      'r.status',
      sql<string>`coalesce(nullif(r.title, ''), r.content ->> 'title', '')`.as('title'),
      'r.author_name',
      sql<string | null>`(select c.name from clazz c where c.tenant_id = r.tenant_id and c.id = r.class_id)`.as(
        'class_name',
      ),
      sql<string | null>`r.content ->> 'date'`.as('date'),
      sql<unknown>`coalesce(r.content -> 'goals', '[]'::jsonb)`.as('goals'),
      sql<unknown>`coalesce(case when r.kind = 'hearken' then r.content -> 'childWork' else r.content -> 'photos' end,
        '[]'::jsonb)`.as('photos'),
      'r.create_time',
    ])
    .where('r.tenant_id', '=', caller.ctx.tenantId)
    .where('r.kind', 'in', [...GUIDE_KINDS])
    .where(namesChild(studentId))
    .where(shown(caller.ctx.userId))
    .orderBy(sql`r.content ->> 'date'`, (ob) => ob.desc().nullsLast())
    .orderBy('r.create_time', 'desc')
    .orderBy('r.id', 'desc');
}

/** The goals a child's records of a semester tag: one row per record and goal. */
export async function childGoals(
  database: Database,
  caller: Caller,
  studentId: string,
  range: { from: string; to: string },
): Promise<{ records: number; tags: Array<{ id: string; goal: string }> }> {
  const db = database.db;
  const inTerm = sql<SqlBool>`(r.content ->> 'date') between ${range.from} and ${range.to}`;
  const base = db
    .selectFrom('record_list as r')
    .where('r.tenant_id', '=', caller.ctx.tenantId)
    .where('r.kind', 'in', [...GUIDE_KINDS])
    .where(namesChild(studentId))
    .where(shown(caller.ctx.userId))
    .where(inTerm);
  const total = base.select(sql<string>`count(*)`.as('n')).compile();
  const tags = base
    .innerJoin(
      sql<{ value: string }>`jsonb_array_elements_text(coalesce(r.content -> 'goals', '[]'::jsonb))`.as('g'),
      (j) => j.onTrue(),
    )
    .select([sql<string>`r.id::text`.as('id'), sql<string>`g.value`.as('goal')])
    .compile();
  const [totalRows, tagRows] = (await scriptInTenant(database, caller.ctx, [total, tags], { readOnly: true })) as [
    Array<{ n: string }>,
    Array<{ id: string; goal: string }>,
  ];
  return { records: Number(totalRows?.[0]?.n ?? 0), tags: tagRows ?? [] };
}

/** The dashboard's scope: a record of each family in the caller's read scope of that family. */
const inGuideScope = (caller: Caller) =>
  sql<SqlBool>`(${sql.join(
    GUIDE_KINDS.map((k) => sql`(r.kind = ${k} and ${inRecordScope(caller, 'read', k)})`),
    sql` or `,
  )})`;

export interface DashboardRows {
  classes: Array<{ class_id: string | null; class_name: string | null; week: string; semester: string }>;
  teachers: Array<{ author_id: string; author_name: string; week: string; semester: string }>;
  coverage: Array<{ class_id: string | null; domain: string; records: string; goals: string }>;
}

/**
 * Observation figures in the caller's scope: records per class and per author this week and
 * this semester (by the record's date), and per class and domain the records of the semester
 * tagging a goal of that domain and how many of its goals they reach. One round trip.
 */
export async function dashboardRows(
  database: Database,
  caller: Caller,
  term: { weekStart: string; weekEnd: string; from: string; to: string },
): Promise<DashboardRows> {
  const db = database.db;
  const date = sql`(r.content ->> 'date')`;
  const inWeek = sql<SqlBool>`${date} between ${term.weekStart} and ${term.weekEnd}`;
  const inTerm = sql<SqlBool>`${date} between ${term.from} and ${term.to}`;
  const base = db
    .selectFrom('record_list as r')
    .where('r.tenant_id', '=', caller.ctx.tenantId)
    .where('r.kind', 'in', [...GUIDE_KINDS])
    .where('r.status', '<>', 'deleted')
    .where(inGuideScope(caller));
  const counts = [
    sql<string>`count(*) filter (where ${inWeek})`.as('week'),
    sql<string>`count(*) filter (where ${inTerm})`.as('semester'),
  ];
  const classes = base
    .where(sql<SqlBool>`(${inWeek} or ${inTerm})`)
    .select([
      sql<string | null>`r.class_id::text`.as('class_id'),
      sql<string | null>`(select c.name from clazz c where c.tenant_id = r.tenant_id and c.id = r.class_id)`.as(
        'class_name',
      ),
      ...counts,
    ])
    .groupBy(['r.tenant_id', 'r.class_id'])
    .compile();
  const teachers = base
    .where(sql<SqlBool>`(${inWeek} or ${inTerm})`)
    .select([
      sql<string>`r.author_id::text`.as('author_id'),
      sql<string>`max(r.author_name)`.as('author_name'),
      ...counts,
    ])
    .groupBy('r.author_id')
    .compile();
  const coverage = base
    .where(inTerm)
    .innerJoin(
      sql<{ value: string }>`jsonb_array_elements_text(coalesce(r.content -> 'goals', '[]'::jsonb))`.as('g'),
      (j) => j.onTrue(),
    )
    .where(sql<SqlBool>`g.value = any(${[...GOAL_CODES]}::text[])`)
    .select([
      sql<string | null>`r.class_id::text`.as('class_id'),
      sql<string>`split_part(g.value, '-', 1)`.as('domain'),
      sql<string>`count(distinct r.id)`.as('records'),
      sql<string>`count(distinct g.value)`.as('goals'),
    ])
    .groupBy([sql`r.class_id`, sql`split_part(g.value, '-', 1)`])
    .compile();
  const [c, t, v] = (await scriptInTenant(database, caller.ctx, [classes, teachers, coverage], {
    readOnly: true,
  })) as [DashboardRows['classes'], DashboardRows['teachers'], DashboardRows['coverage']];
  return { classes: c ?? [], teachers: t ?? [], coverage: v ?? [] };
}
