import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { type HomeStats, HomeStatsSchema } from '@sprout/contracts';
import { type Database, scriptInTenant } from '@sprout/core/db';
import { ok } from '@sprout/core/http/envelope';
import { scopeWhere } from '@sprout/core/permissions/sql';
import { addDays, formatDateTime, localDate, mondayOf } from '@sprout/core/time';
import type { RecordStatus } from '@sprout/core/records';
import {
  type Caller,
  callerOf,
  can,
  inRecordScope,
  inSharedReadScope,
  isShared,
  listQuery,
  type RecordFamily,
  type RecordFilter,
  type RecordList,
  type RecordQB,
} from '../records';
import { PLANS } from './plan-routes';
import { WEEKS as WEEK_LISTS } from './week-routes';
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

type Figure = 'draft' | 'trial' | 'success' | 'returned' | 'excellent' | 'myDrafts' | 'myReturned' | 'pending';
/**
 * The dashboard's figures, each the total of the list it links to (issue 23): the weeks in
 * scope by status (`/api/week/week/list?status=`), the excellent lesson plans shared with the
 * whole kindergarten (优秀教案, `ExcellentPlan`), my drafts and returned weeks (我的备课,
 * `alllistForUser?status=`) and the review queue (`alllistForTrial`).
 */
export const FIGURES: ReadonlyArray<readonly [Figure, RecordFamily<RecordFilter>, RecordList, RecordStatus?]> = [
  ['draft', WEEK_LISTS, 'all', 'draft'],
  ['trial', WEEK_LISTS, 'all', 'trial'],
  ['success', WEEK_LISTS, 'all', 'success'],
  ['returned', WEEK_LISTS, 'all', 'returned'],
  ['excellent', PLANS as RecordFamily<RecordFilter>, 'excellent'],
  ['myDrafts', WEEK_LISTS, 'mine', 'draft'],
  ['myReturned', WEEK_LISTS, 'mine', 'returned'],
  ['pending', WEEK_LISTS, 'trial'],
];
const zero = (): Counts => ({ created: 0, submitted: 0, approved: 0, returned: 0, excellent: 0 });

/**
 * The dashboard: weekly counts from the `record_activity` read model (the current week and
 * the eight before), and its figures (`FIGURES`) — one round trip, every statement the
 * count of a list's own query in that list's scope.
 */
export async function dashboard(database: Database, caller: Caller): Promise<HomeStats> {
  const today = localDate(new Date(), caller.tz);
  const thisWeek = mondayOf(today);
  const from = addDays(thisWeek, -7 * (WEEKS - 1));
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
  // Every figure is the total of the list it links to, counted by that list's own query.
  const figures = FIGURES.map(([name, family, list, status]) => {
    if (name === 'pending' && !reviewer) return db.selectNoFrom(sql<string>`0`.as('n')).compile();
    const filter = (status ? { status } : {}) as RecordFilter;
    const qb = listQuery(db, family as RecordFamily, { url: name, summary: name, list }, filter, caller);
    const scope = isShared({ list }) ? inSharedReadScope(caller, RESOURCE) : inRecordScope(caller, 'read', RESOURCE);
    return (qb as RecordQB).clearSelect().select(sql<string>`count(*)`.as('n')).where(scope).compile();
  });
  const [activityRows, ...figureRows] = (await scriptInTenant(database, caller.ctx, [activity, ...figures], {
    readOnly: true,
  })) as [Array<{ week: string; kind: string; activity: Activity; n: string }>, ...Array<Array<{ n: string }>>];
  const figure = (name: Figure) => Number(figureRows[FIGURES.findIndex(([n]) => n === name)]?.[0]?.n ?? 0);

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
  const pendingReviews = figure('pending');
  const drafts = figure('myDrafts');
  const returned = figure('myReturned');
  return {
    weeks,
    byFamily: [...byFamily].map(([kind, counts]) => ({ kind, ...counts })),
    totals: {
      draft: figure('draft'),
      trial: figure('trial'),
      success: figure('success'),
      returned: figure('returned'),
      excellent: figure('excellent'),
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
