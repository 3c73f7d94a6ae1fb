import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { AppAbility } from '@sprout/core/permissions/ability';
import { scopeWhere } from '@sprout/core/permissions/sql';

/**
 * The reporting views (docs/API.md "Reports"): the only relations a report's query may name.
 * Each is a SELECT over the tenant's read models, built for one caller: it carries her data
 * scope (each record kind under its family's `read` scope) and is placed in front of her
 * query as a common table expression of the view's name. So a report reads only rows her
 * lists would show her, and row-level security (the statement runs as the tenant's role)
 * confines it to her tenant underneath.
 *
 * They are not database views: `record_list` is a blue/green read model whose view the
 * projector replaces at start (a dependent view would block that), so the definitions live
 * here, in one place, and cost nothing until a report names them.
 */

/** Data-scope fields of a record → `record_list as r` columns (as the records engine's). */
const RECORD_COLUMNS = {
  tenantId: 'r.tenant_id',
  id: 'r.id',
  createUser: 'r.author_id',
  deptId: 'r.dept_id',
  classId: 'r.class_id',
} as const;

/** A record kind's data-scope resource: its family's (a week's plans are the week's). */
const RESOURCE_OF: Record<string, string> = {
  week: 'week',
  week_plan: 'week',
  day_plan: 'week',
  half_flow: 'half_follow',
  half_flow_item: 'half_follow',
};
const resourceOf = (kind: string) => RESOURCE_OF[kind] ?? kind;

export const OBSERVATION_KINDS = ['observation', 'observation_regional', 'hearken', 'creview'] as const;
export const LESSON_PLAN_KINDS = ['week_plan', 'day_plan'] as const;
/** Every teaching-record kind a report may count. */
export const RECORD_KINDS = [
  'week',
  ...LESSON_PLAN_KINDS,
  ...OBSERVATION_KINDS,
  'teacher_plan',
  'research',
  'project',
  'class_work',
  'class_summary',
  'half_flow',
  'growth',
] as const;

export interface ReportView {
  name: string;
  /** What one row is (docs/API.md and the designer's help). */
  about: { zh: string; en: string };
  /** Its columns and their types, in order. */
  columns: readonly (readonly [string, string])[];
  /** The view's SELECT for a caller. */
  build(scope: (kinds: readonly string[]) => RawBuilder<SqlBool>, tz: string): RawBuilder<unknown>;
}

const RECORD_COLUMNS_DOC = [
  ['id', 'bigint'],
  ['kind', 'text'],
  ['status', 'text'],
  ['title', 'text'],
  ['teacher_id', 'bigint'],
  ['teacher_name', 'text'],
  ['dept_id', 'bigint'],
  ['dept_name', 'text'],
  ['class_id', 'bigint'],
  ['class_name', 'text'],
  ['semester', 'text'],
  ['record_date', 'date'],
  ['month', 'text'],
  ['excellent', 'boolean'],
  ['submit_time', 'timestamptz'],
  ['review_time', 'timestamptz'],
  ['reviewer_name', 'text'],
  ['create_time', 'timestamptz'],
] as const;

/** The record's own date (its content's `date`), else the day it was created, in the tenant's time zone. */
const recordDate = (tz: string) =>
  sql`coalesce(case when r.content ->> 'date' ~ '^\\d{4}-\\d{2}-\\d{2}$' then (r.content ->> 'date')::date end,
    (r.create_time at time zone ${sql.lit(tz)})::date)`;

/** The columns every record view starts with, over `record_list r`, `clazz c`, `dept d`. */
const recordSelect = (tz: string) => sql`r.id, r.kind::text as kind, r.status::text as status, r.title::text as title,
    r.author_id as teacher_id, r.author_name::text as teacher_name, r.dept_id, d.dept_name::text as dept_name,
    r.class_id, c.name::text as class_name, r.semester::text as semester, ${recordDate(tz)} as record_date,
    to_char(${recordDate(tz)}, 'YYYY-MM') as month, r.excellent, r.submit_time, r.review_time,
    r.reviewer_name::text as reviewer_name, r.create_time`;

const recordFrom = sql`record_list r
    left join clazz c on c.tenant_id = r.tenant_id and c.id = r.class_id
    left join dept d on d.tenant_id = r.tenant_id and d.id = r.dept_id`;

/** Live records of `kinds` in the caller's scope. */
const recordWhere = (kinds: readonly string[], scope: (kinds: readonly string[]) => RawBuilder<SqlBool>) =>
  sql`r.tenant_id = (select current_setting('app.tenant_id')) and r.status <> 'deleted'
    and r.kind in (${sql.join(kinds.map((k) => sql.lit(k)))}) and ${scope(kinds)}`;

export const REPORT_VIEWS: readonly ReportView[] = [
  {
    name: 'records',
    about: { zh: '每条教学记录（各类记录，不含已删除）', en: 'Every live teaching record of every family' },
    columns: RECORD_COLUMNS_DOC,
    build: (scope, tz) => sql`select ${recordSelect(tz)} from ${recordFrom} where ${recordWhere(RECORD_KINDS, scope)}`,
  },
  {
    name: 'observations',
    about: {
      zh: '观察类记录（观察记录、区域观察、主题审议、倾听记录），observation_type 为观察类型',
      en: 'Observation records (observations, area observations, theme reviews, listening records); observation_type is the type',
    },
    columns: [...RECORD_COLUMNS_DOC, ['observation_type', 'text']],
    build: (scope, tz) =>
      sql`select ${recordSelect(tz)}, (r.content ->> 'type')::text as observation_type
        from ${recordFrom} where ${recordWhere(OBSERVATION_KINDS, scope)}`,
  },
  {
    name: 'lesson_plans',
    about: { zh: '教案与半日/一日计划', en: 'Lesson plans and half-day / full-day plans' },
    columns: RECORD_COLUMNS_DOC,
    build: (scope, tz) =>
      sql`select ${recordSelect(tz)} from ${recordFrom} where ${recordWhere(LESSON_PLAN_KINDS, scope)}`,
  },
  {
    name: 'reviews',
    about: {
      zh: '已提交的记录及其审核：review_hours 为提交到审核的小时数（未审核为空）',
      en: 'Submitted records and their review: review_hours from submission to review (null while waiting)',
    },
    columns: [...RECORD_COLUMNS_DOC, ['review_hours', 'numeric'], ['reviewed', 'boolean']],
    build: (scope, tz) =>
      sql`select ${recordSelect(tz)},
          round((extract(epoch from (r.review_time - r.submit_time)) / 3600)::numeric, 1) as review_hours,
          (r.review_time is not null and r.review_time >= r.submit_time) as reviewed
        from ${recordFrom} where ${recordWhere(RECORD_KINDS, scope)} and r.submit_time is not null`,
  },
  {
    name: 'goal_tags',
    about: {
      zh: '观察类记录标注的《指南》目标，每个目标一行：goal 为目标编码，domain 为领域（health、language、social、science、art）',
      en: 'The 《指南》 goals observation records tag, one row per goal: goal is its code, domain its area (health, language, social, science, art)',
    },
    columns: [...RECORD_COLUMNS_DOC, ['goal', 'text'], ['domain', 'text']],
    build: (scope, tz) =>
      sql`select ${recordSelect(tz)}, g.goal::text as goal, split_part(g.goal, '-', 1) as domain
        from ${recordFrom}
        cross join lateral jsonb_array_elements_text(
          case when jsonb_typeof(r.content -> 'goals') = 'array' then r.content -> 'goals' else '[]'::jsonb end) as g(goal)
        where ${recordWhere(OBSERVATION_KINDS, scope)}`,
  },
  {
    name: 'leave_days',
    about: {
      zh: '请假天数（请假流程上线前为空）：每次请假一行',
      en: 'Leave days (empty until the leave workflow lands): one row per leave',
    },
    columns: [
      ['teacher_id', 'bigint'],
      ['teacher_name', 'text'],
      ['dept_id', 'bigint'],
      ['dept_name', 'text'],
      ['start_date', 'date'],
      ['end_date', 'date'],
      ['month', 'text'],
      ['days', 'numeric'],
    ],
    build: () =>
      sql`select null::bigint as teacher_id, null::text as teacher_name, null::bigint as dept_id,
        null::text as dept_name, null::date as start_date, null::date as end_date, null::text as month,
        null::numeric as days where false`,
  },
];

export const VIEW_NAMES = new Set(REPORT_VIEWS.map((v) => v.name));

/** The caller's read scope over the records of `kinds`: each kind under its family's resource. */
export function recordScope(ability: AppAbility) {
  return (kinds: readonly string[]) =>
    sql<SqlBool>`(${sql.join(
      kinds.map((k) => sql`(r.kind = ${sql.lit(k)} and ${scopeWhere(ability, 'read', resourceOf(k), RECORD_COLUMNS)})`),
      sql` or `,
    )})`;
}
