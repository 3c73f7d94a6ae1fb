// The week dashboard computed from the `events` table alone (no read model), for the
// issue-7 benchmark: the baseline `dashboard()` (record_activity + record_list) is set against.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { type Caller, can } from '@sprout/api/modules/records/engine';
import { WEEK_FAMILY } from '@sprout/api/modules/week/dashboard-routes';
import { type Database, scriptInTenant } from '@sprout/core/db';
import { scopeWhere } from '@sprout/core/permissions/sql';
import { addDays, formatDateTime, localDate, mondayOf } from '@sprout/core/time';

const WEEKS = 9;
const STEPS = ['created', 'submitted', 'approved', 'returned', 'excellent'] as const;
type Step = (typeof STEPS)[number];
type Counts = Record<Step, number>;
const zero = (): Counts => ({ created: 0, submitted: 0, approved: 0, returned: 0, excellent: 0 });
/** Data-scope fields → the columns of the records folded from the log (`s`). */
const FOLD_COLUMNS = {
  tenantId: 's.tenant_id',
  id: 's.id',
  createUser: 's.author_id',
  deptId: 's.dept_id',
  classId: 's.class_id',
} as const;

/**
 * What `dashboard()` answers, from the events table alone: one statement folds every
 * record of the week family of the tenant from its events (current dept and class, status,
 * authors, excellent mark, as record_list has them), then counts the steps of the last nine
 * weeks (as record_activity has them: a deleted record's steps and a removed mark drop
 * out), the totals by status and the pending reviews, each within the caller's data scope.
 * The events' own index on (tenant_id, recorded_at) narrows the steps; recorded_at is the
 * append time, never more than a day before the command's local date.
 */
export function dashboardStatement(database: Database, caller: Caller, from: string) {
  const me = caller.ctx.userId;
  const tenantId = caller.ctx.tenantId;
  const reviewer = can(caller, 'week_review');
  const family = [...WEEK_FAMILY];
  const scope = (action: 'read' | 'update') =>
    scopeWhere(caller.perms.ability, action, 'week', FOLD_COLUMNS) as RawBuilder<SqlBool>;
  const mine = sql<SqlBool>`(s.author_id = ${me} or s.co_author_ids @> jsonb_build_array(${me}::text))`;
  const latest = (value: RawBuilder<unknown>, where: RawBuilder<SqlBool>) =>
    sql`(array_agg(${value} order by e.stream_version desc) filter (where ${where}))[1]`;
  const setsHeader = (field: string) =>
    sql<SqlBool>`(e.type = 'RecordCreated' or (e.type = 'DraftUpdated' and e.data -> 'header' ? ${field}))`;
  const headerValue = (field: string) =>
    sql`case when e.type = 'RecordCreated' then e.data ->> ${field} else e.data -> 'header' ->> ${field} end`;
  return sql<{
    activity: Array<{ week: string; kind: string; activity: Step; n: number }>;
    totals: Record<string, number>;
    pending: number;
  }>`
    with s as materialized (
      select e.tenant_id, e.stream_id, e.stream_id::bigint as id, min(e.stream_type) as kind,
        (min(e.data ->> 'actorId') filter (where e.type = 'RecordCreated'))::bigint as author_id,
        (${latest(headerValue('deptId'), setsHeader('deptId'))})::bigint as dept_id,
        (${latest(headerValue('classId'), setsHeader('classId'))})::bigint as class_id,
        ${latest(sql`e.data -> 'coAuthorIds'`, sql`e.type in ('RecordCreated', 'DraftUpdated')`)} as co_author_ids,
        ${latest(
          sql`case e.type when 'RecordCreated' then 'draft' when 'RecordSubmitted' then 'trial'
            when 'RecordApproved' then 'success' when 'RecordReturned' then 'returned' else 'deleted' end`,
          sql`e.type in ('RecordCreated', 'RecordSubmitted', 'RecordApproved', 'RecordReturned', 'RecordDeleted')`,
        )} as status,
        coalesce(${latest(
          sql`e.type = 'RecordMarkedExcellent'`,
          sql`e.type in ('RecordMarkedExcellent', 'ExcellentMarkRemoved')`,
        )}, false) as excellent,
        max(e.stream_version) filter (where e.type = 'RecordMarkedExcellent') as excellent_version
      from events e
      where e.tenant_id = ${tenantId} and e.stream_type in (${sql.join(family)})
      group by e.tenant_id, e.stream_id
    ),
    steps as (
      select e.stream_id, e.stream_version, e.type,
        date_trunc('week', left(e.data ->> 'at', 10)::date)::date as week_start
      from events e
      where e.tenant_id = ${tenantId} and e.stream_type in (${sql.join(family)})
        and e.recorded_at >= ${from}::date - 1
        and e.type in ('RecordCreated', 'RecordSubmitted', 'RecordApproved', 'RecordReturned', 'RecordMarkedExcellent')
    )
    select
      (select coalesce(json_agg(a), '[]') from (
        select to_char(st.week_start, 'YYYY-MM-DD') as week, s.kind,
          case st.type when 'RecordCreated' then 'created' when 'RecordSubmitted' then 'submitted'
            when 'RecordApproved' then 'approved' when 'RecordReturned' then 'returned' else 'excellent' end as activity,
          count(*) as n
        from steps st join s on s.stream_id = st.stream_id
        where st.week_start >= ${from}::date and s.status <> 'deleted'
          and (st.type <> 'RecordMarkedExcellent' or (s.excellent and st.stream_version = s.excellent_version))
          and ${scope('read')}
        group by st.week_start, s.kind, st.type) a) as activity,
      (select json_build_object(
          'draft', count(*) filter (where s.status = 'draft'),
          'trial', count(*) filter (where s.status = 'trial'),
          'success', count(*) filter (where s.status = 'success'),
          'returned', count(*) filter (where s.status = 'returned'),
          'excellent', count(*) filter (where s.excellent),
          'my_drafts', count(*) filter (where s.status = 'draft' and ${mine}),
          'my_returned', count(*) filter (where s.status = 'returned' and ${mine}))
        from s where s.kind = 'week' and ${scope('read')}) as totals,
      (select count(*) from s where s.kind = 'week' and s.status = 'trial' and not ${mine}
        and ${reviewer ? scope('update') : sql<SqlBool>`false`})::int as pending`.compile(database.db);
}

export async function dashboardFromEvents(database: Database, caller: Caller) {
  const today = localDate(new Date(), caller.tz);
  const thisWeek = mondayOf(today);
  const from = addDays(thisWeek, -7 * (WEEKS - 1));
  const reviewer = can(caller, 'week_review');
  const statement = dashboardStatement(database, caller, from);
  const [rows] = (await scriptInTenant(database, caller.ctx, [statement], { readOnly: true })) as [
    Array<{
      activity: Array<{ week: string; kind: string; activity: Step; n: number }>;
      totals: Record<string, number>;
      pending: number;
    }>,
  ];
  const row = rows?.[0];
  if (!row) throw new Error('no dashboard row');
  // The same shaping as dashboard().
  const weeks = Array.from({ length: WEEKS }, (_, i) => ({ weekStart: addDays(from, 7 * i), ...zero() }));
  const byWeek = new Map(weeks.map((w) => [w.weekStart, w]));
  const byFamily = new Map<string, Counts>(WEEK_FAMILY.map((k) => [k, zero()]));
  for (const a of row.activity) {
    const n = Number(a.n);
    const w = byWeek.get(a.week);
    if (w && a.kind === 'week') w[a.activity] += n;
    if (a.week === thisWeek) {
      const f = byFamily.get(a.kind);
      if (f) f[a.activity] += n;
    }
  }
  const num = (k: string) => Number(row.totals[k] ?? 0);
  const pendingReviews = Number(row.pending);
  const drafts = num('my_drafts');
  const returned = num('my_returned');
  return {
    weeks,
    byFamily: [...byFamily].map(([kind, counts]) => ({ kind, ...counts })),
    totals: {
      draft: num('draft'),
      trial: num('trial'),
      success: num('success'),
      returned: num('returned'),
      excellent: num('excellent'),
    },
    pendingReviews,
    myTodos: { drafts, returned, reviews: pendingReviews, total: drafts + returned + pendingReviews },
    reviewer,
    asOf: formatDateTime(new Date(), caller.tz),
  };
}
