import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { type HomeStats, HomeStatsSchema } from '@sprout/contracts';
import { type Database, scriptInTenant } from '@sprout/core/db';
import { ok } from '@sprout/core/http/envelope';
import { scopeWhere } from '@sprout/core/permissions/sql';
import { addDays, formatDateTime, localDate, mondayOf } from '@sprout/core/time';
import { type Caller, callerOf, can, inRecordScope } from '../records';
import { okSchema } from '../../plugins/serialization';
import { RESOURCE } from './weeks';

/** Data-scope fields → `record_activity` columns. */
const ACTIVITY_COLUMNS = {
  tenantId: 'a.tenant_id',
  id: 'a.record_id',
  createUser: 'a.author_id',
  deptId: 'a.dept_id',
  classId: 'a.class_id',
} as const;

export const WEEK_FAMILY = ['week', 'week_plan', 'day_plan'] as const;
const ACTIVITIES = ['created', 'submitted', 'approved', 'returned', 'excellent'] as const;
type Activity = (typeof ACTIVITIES)[number];
const WEEKS = 9;

type Counts = Record<Activity, number>;
const zero = (): Counts => ({ created: 0, submitted: 0, approved: 0, returned: 0, excellent: 0 });

/**
 * The dashboard: weekly counts from the `record_activity` read model (the current week and
 * the eight before), the records in scope by status, and the caller's to-dos — one round
 * trip, every statement confined to the caller's data scope.
 */
export async function dashboard(database: Database, caller: Caller): Promise<HomeStats> {
  const today = localDate(new Date(), caller.tz);
  const thisWeek = mondayOf(today);
  const from = addDays(thisWeek, -7 * (WEEKS - 1));
  const me = caller.ctx.userId;
  const db = database.db;
  const tenantId = caller.ctx.tenantId;
  const reviewer = can(caller, 'week_review');
  const activity = db
    .selectFrom('record_activity as a')
    .select([
      sql<string>`to_char(a.week_start, 'YYYY-MM-DD')`.as('week'),
      'a.kind',
      'a.activity',
      sql<string>`count(*)`.as('n'),
    ])
    .where('a.tenant_id', '=', tenantId)
    .where('a.week_start', '>=', from as never)
    .where('a.kind', 'in', [...WEEK_FAMILY])
    .where(scopeWhere(caller.perms.ability, 'read', RESOURCE, ACTIVITY_COLUMNS))
    .groupBy(['a.week_start', 'a.kind', 'a.activity'])
    .compile();
  const mine = sql<boolean>`(r.author_id = ${me} or ${me} = any(r.co_author_ids))`;
  const totals = db
    .selectFrom('record_list as r')
    .select([
      sql<number>`count(*) filter (where r.status = 'draft')`.as('draft'),
      sql<number>`count(*) filter (where r.status = 'trial')`.as('trial'),
      sql<number>`count(*) filter (where r.status = 'success')`.as('success'),
      sql<number>`count(*) filter (where r.status = 'returned')`.as('returned'),
      sql<number>`count(*) filter (where r.excellent)`.as('excellent'),
      sql<number>`count(*) filter (where r.status = 'draft' and ${mine})`.as('my_drafts'),
      sql<number>`count(*) filter (where r.status = 'returned' and ${mine})`.as('my_returned'),
    ])
    .where('r.tenant_id', '=', tenantId)
    .where('r.kind', '=', 'week')
    .where(inRecordScope(caller, 'read', RESOURCE))
    .compile();
  const pending = db
    .selectFrom('record_list as r')
    .select(sql<number>`count(*)`.as('n'))
    .where('r.tenant_id', '=', tenantId)
    .where('r.kind', '=', 'week')
    .where('r.status', '=', 'trial')
    .where(sql<boolean>`not ${mine}`)
    .where(reviewer ? inRecordScope(caller, 'update', RESOURCE) : sql<boolean>`false`)
    .compile();
  const [activityRows, totalRows, pendingRows] = (await scriptInTenant(
    database,
    caller.ctx,
    [activity, totals, pending],
    {
      readOnly: true,
    },
  )) as [
    Array<{ week: string; kind: string; activity: Activity; n: string }>,
    Array<Record<string, string>>,
    Array<{ n: string }>,
  ];

  const weeks = Array.from({ length: WEEKS }, (_, i) => ({ weekStart: addDays(from, 7 * i), ...zero() }));
  const byWeek = new Map(weeks.map((w) => [w.weekStart, w]));
  const byFamily = new Map<string, Counts>(WEEK_FAMILY.map((k) => [k, zero()]));
  for (const row of activityRows ?? []) {
    const n = Number(row.n);
    const w = byWeek.get(row.week);
    // Weeks count the weekly plans themselves; the families split this week by kind.
    if (w && row.kind === 'week') w[row.activity] += n;
    if (row.week === thisWeek) {
      const f = byFamily.get(row.kind);
      if (f) f[row.activity] += n;
    }
  }
  const t = totalRows?.[0] ?? {};
  const num = (k: string) => Number(t[k] ?? 0);
  const pendingReviews = Number(pendingRows?.[0]?.n ?? 0);
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

export async function dashboardRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/week/week/home',
    {
      schema: {
        tags: ['weeks'],
        summary: 'The dashboard: weekly counts, totals, pending reviews, my to-dos',
        response: { 200: okSchema(HomeStatsSchema) },
      },
    },
    async (request) => ok(await dashboard(app.database, await callerOf(request)), request.lang),
  );
}
