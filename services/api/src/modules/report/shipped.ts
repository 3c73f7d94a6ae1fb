import { type Kysely, sql } from 'kysely';
import type { DB } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import type { ParamDef } from './run';

/** The date range every shipped report takes: $1 from, $2 to (either may be left blank). */
const RANGE: ParamDef[] = [
  { name: 'from', label: '开始日期', type: 'date', required: false },
  { name: 'to', label: '结束日期', type: 'date', required: false },
];
const IN_RANGE = `($1::date is null or record_date >= $1) and ($2::date is null or record_date <= $2)`;

/** Reports every tenant starts with (issue 21), each by its code: seeded once, a removed one stays removed. */
export const SHIPPED_REPORTS = [
  {
    code: 'teacher_month',
    name: '教案与观察记录（按教师、月份）',
    params: RANGE,
    query: `select teacher_name, month,
  count(*) filter (where source = 'plan') as lesson_plans,
  count(*) filter (where source = 'observation') as observations
from (
  select teacher_name, month, record_date, 'plan' as source from lesson_plans
  union all
  select teacher_name, month, record_date, 'observation' as source from observations
) as r
where ${IN_RANGE}
group by teacher_name, month
order by month, teacher_name`,
    columns: [
      { key: 'teacher_name', label: '教师' },
      { key: 'month', label: '月份' },
      { key: 'lesson_plans', label: '教案' },
      { key: 'observations', label: '观察记录' },
    ],
    chart: { type: 'bar', x: 'teacher_name', y: ['lesson_plans', 'observations'] },
  },
  {
    code: 'review_turnaround',
    name: '审核时效（按月份）',
    params: RANGE,
    query: `select month,
  count(*) as submitted,
  count(*) filter (where reviewed) as reviewed,
  round(avg(review_hours), 1) as avg_hours,
  max(review_hours) as max_hours
from reviews
where ${IN_RANGE}
group by month
order by month`,
    columns: [
      { key: 'month', label: '月份' },
      { key: 'submitted', label: '提交数' },
      { key: 'reviewed', label: '已审核' },
      { key: 'avg_hours', label: '平均审核用时（小时）' },
      { key: 'max_hours', label: '最长审核用时（小时）' },
    ],
    chart: { type: 'line', x: 'month', y: ['avg_hours'] },
  },
  {
    code: 'domain_coverage',
    name: '五大领域覆盖（按班级）',
    params: RANGE,
    query: `select class_name,
  count(*) filter (where domain = 'health') as health,
  count(*) filter (where domain = 'language') as language,
  count(*) filter (where domain = 'social') as social,
  count(*) filter (where domain = 'science') as science,
  count(*) filter (where domain = 'art') as art,
  count(distinct goal) as goals
from goal_tags
where class_name is not null and ${IN_RANGE}
group by class_name
order by class_name`,
    columns: [
      { key: 'class_name', label: '班级' },
      { key: 'health', label: '健康' },
      { key: 'language', label: '语言' },
      { key: 'social', label: '社会' },
      { key: 'science', label: '科学' },
      { key: 'art', label: '艺术' },
      { key: 'goals', label: '覆盖目标数' },
    ],
    chart: { type: 'bar', x: 'class_name', y: ['health', 'language', 'social', 'science', 'art'] },
  },
  {
    code: 'leave_days',
    name: '请假天数（按部门）',
    params: [
      { name: 'from', label: '开始日期', type: 'date', required: false },
      { name: 'to', label: '结束日期', type: 'date', required: false },
    ],
    query: `select coalesce(dept_name, '未分配') as dept_name, count(*) as leaves, sum(days) as days
from leave_days
where ($1::date is null or start_date >= $1) and ($2::date is null or start_date <= $2)
group by dept_name
order by days desc`,
    columns: [
      { key: 'dept_name', label: '部门' },
      { key: 'leaves', label: '请假次数' },
      { key: 'days', label: '请假天数' },
    ],
    chart: { type: 'pie', x: 'dept_name', y: ['days'] },
  },
] as const satisfies readonly {
  code: string;
  name: string;
  params: ParamDef[];
  query: string;
  columns: { key: string; label: string }[];
  chart: { type: string; x: string; y: string[] };
}[];

/** Gives the tenant every shipped report it has never had. */
export async function seedShippedReports(trx: Kysely<DB>, tenantId: string): Promise<void> {
  for (const r of SHIPPED_REPORTS) {
    await sql`insert into report (tenant_id, id, code, name, params, query, columns, chart)
      values (${tenantId}, ${nextId()}, ${r.code}, ${r.name},
        ${JSON.stringify(r.params)}::jsonb, ${r.query}, ${JSON.stringify(r.columns)}::jsonb, ${JSON.stringify(r.chart)}::jsonb)
      on conflict (tenant_id, code) where code is not null do nothing`.execute(trx);
  }
}
