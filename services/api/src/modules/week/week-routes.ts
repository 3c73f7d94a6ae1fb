import { HistoryEntrySchema } from '@sprout/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inTenant } from '@sprout/core/db';
import { notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import {
  callerOf,
  IdParamSchema,
  inSharedReadScope,
  RecordFilterSchema,
  inDeptTree,
  type RecordFamily,
  type FamilyPath,
  recordListRoutes,
  recordTableRoutes,
} from '../records';
import { recordTimeline } from '../records';
import { okSchema } from '../../plugins/serialization';
import { IdSchema } from '../../http/params';
import { CHILD_KINDS, RESOURCE, WEEK_ANSWER, weekDetail } from './weeks';

/** A class's weeks belong to its teaching team: "mine" lists them too (docs/API.md "Who sees what"). */
export const WEEKS: RecordFamily = {
  base: '/api/week/week',
  tag: 'weeks',
  resource: RESOURCE,
  kind: 'week',
  team: true,
};

const ClassFilterSchema = RecordFilterSchema.extend({ classId: IdSchema });
const DeptFilterSchema = RecordFilterSchema.extend({ deptId: IdSchema.optional() });

/** The lists of weeks (docs/API.md): one filter each on top of the scope. */
const LISTS: FamilyPath[] = [
  { method: 'GET', url: 'list', op: 'list', list: 'all', summary: 'Weeks in the caller’s read scope, any status' },
  {
    method: 'POST',
    url: 'alllistForUser',
    op: 'list',
    list: 'mine',
    summary: 'Mine: weeks I wrote or co-wrote and the weeks of the classes I teach',
  },
  {
    method: 'GET',
    url: 'alllistForUserNo',
    op: 'list',
    list: 'mineOpen',
    summary: 'Mine, not yet submitted (draft, returned)',
  },
  {
    method: 'POST',
    url: 'alllistForTrial',
    op: 'trial',
    summary: 'The review queue: trial weeks in scope that I did not write',
  },
  { method: 'POST', url: 'alllistForTrial2', op: 'list', list: 'returned', summary: 'Returned weeks in scope' },
  { method: 'POST', url: 'alllistForTrialSuccess', op: 'list', list: 'mineApproved', summary: 'My approved weeks' },
  { method: 'POST', url: 'alllistForTrial2Success', op: 'list', list: 'approved', summary: 'Approved weeks in scope' },
  {
    method: 'POST',
    url: 'alllistForTrial3Success',
    op: 'list',
    list: 'excellent',
    summary: 'Excellent weeks of the whole kindergarten (shared whatever the data scope)',
  },
  { method: 'POST', url: 'alllistForOld', op: 'list', list: 'mineEnded', summary: 'My weeks that have ended' },
  { method: 'POST', url: 'alllistForDeptOld', op: 'list', list: 'ended', summary: 'Ended weeks in scope' },
  {
    method: 'POST',
    url: 'selectForFile',
    op: 'list',
    list: 'approved',
    summary: 'Approved weeks in scope to pick for the archive',
  },
  {
    method: 'GET',
    url: 'fileList',
    op: 'list',
    list: 'mineApprovedThisTerm',
    summary: 'My approved weeks of this semester',
  },
  {
    method: 'GET',
    url: 'fileOldList',
    op: 'list',
    list: 'mineApprovedEarlier',
    summary: 'My approved weeks of earlier semesters',
  },
  {
    method: 'GET',
    url: 'oldFileList',
    op: 'list',
    list: 'approvedEarlier',
    summary: 'Approved weeks in scope of earlier semesters',
  },
  {
    method: 'GET',
    url: 'trialfileList',
    op: 'list',
    list: 'trialThisTerm',
    summary: 'Trial weeks in scope of this semester',
  },
  {
    method: 'GET',
    url: 'bossfileList',
    op: 'list',
    list: 'approvedThisTerm',
    summary: 'Approved weeks in scope of this semester',
  },
  { method: 'GET', url: 'tenantList', op: 'list', list: 'all', summary: 'Weeks in scope across the tenant' },
];

/** The week's reads: its lists (tables over the records kit), one week in full, a record's timeline. */
export async function weekRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/week/week';

  recordTableRoutes(app, { ...WEEKS, reviewButton: 'week_review' }, LISTS);
  recordListRoutes(app, WEEKS, [
    {
      url: 'alllistForClass',
      summary: 'Weeks of one class in scope (classId required)',
      filter: ClassFilterSchema,
    },
    {
      method: 'GET',
      url: 'deptList',
      summary: 'Weeks in scope of one dept and below (default: the caller’s dept)',
      filter: DeptFilterSchema,
      values: (f, caller) => ({ deptId: (f.deptId as string | undefined) ?? caller.perms.grants.deptId }),
      where: (qb, v) => (v.deptId ? qb.where(inDeptTree(v.tenantId, v.deptId)) : null),
    },
  ]);

  r.get(
    `${base}/alllistForId`,
    {
      schema: {
        tags: ['weeks'],
        summary: 'One week in full: the record, its plans and day plans, and what the caller may do',
        querystring: IdParamSchema,
        response: WEEK_ANSWER,
      },
    },
    async (request) => ok(await weekDetail(request, request.query.id), request.lang),
  );

  r.get(
    `${base}/history`,
    {
      schema: {
        tags: ['weeks'],
        summary: 'The timeline of any teaching record in scope: who did what when, with the fields changed',
        querystring: IdParamSchema,
        response: { 200: okSchema(z.array(HistoryEntrySchema)) },
      },
    },
    async (request) => {
      const caller = await callerOf(request);
      const id = request.query.id;
      const timeline = await inTenant(app.database, caller.ctx, async (trx) => {
        const row = await trx
          .selectFrom('record_list as r')
          .select('r.id')
          .where('r.tenant_id', '=', caller.ctx.tenantId)
          .where('r.id', '=', id)
          .where('r.kind', 'in', ['week', ...CHILD_KINDS])
          .where(inSharedReadScope(caller, RESOURCE))
          .executeTakeFirst();
        if (!row) throw notFound('record.notFound');
        return recordTimeline(trx, caller.ctx.tenantId, id, caller.tz, { children: true });
      });
      return ok(timeline, request.lang);
    },
  );
}
