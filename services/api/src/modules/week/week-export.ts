import { sql } from 'kysely';
import type { DayPlanContent, WeekContent, WeekPlanContent } from '@sprout/contracts';
import { inTenant, type Tx } from '@sprout/core/db';
import { formatDateTime } from '@sprout/core/time';
import { renderWeekDocx, safeFileName, type WeekExportInput } from '@sprout/core/records/export/index';
import { registerZipRenderer } from '../records';

/**
 * Everything the Word file of one week prints: the week, its plans and day plans, names of
 * the class, the authors and the reviewer. Read in the caller's tenant transaction; the
 * caller has already checked the week is in the user's export scope.
 */
export async function loadWeekExport(
  trx: Tx,
  tenantId: string,
  weekId: string,
  timeZone: string,
): Promise<{ input: WeekExportInput; fileName: string } | undefined> {
  const week = await trx
    .selectFrom('record_list as r')
    .select([
      'r.id',
      'r.status',
      'r.content',
      'r.author_name',
      'r.co_author_ids',
      'r.reviewer_name',
      'r.review_comment',
      'r.review_time',
      sql<string | null>`(select c.name from clazz c where c.tenant_id = r.tenant_id and c.id = r.class_id)`.as(
        'class_name',
      ),
      sql<string | null>`(select t.tenant_name from tenant t where t.tenant_id = r.tenant_id)`.as('tenant_name'),
      sql<string[] | null>`(select array_agg(coalesce(nullif(u.real_name, ''), u.account) order by u.id) from app_user u
        where u.tenant_id = r.tenant_id and u.id = any(r.co_author_ids))`.as('co_author_names'),
    ])
    .where('r.tenant_id', '=', tenantId)
    .where('r.id', '=', weekId)
    .where('r.kind', '=', 'week')
    .where('r.status', '<>', 'deleted')
    .executeTakeFirst();
  if (!week) return undefined;
  const children = await trx
    .selectFrom('record_list')
    .select(['kind', 'content'])
    .where('tenant_id', '=', tenantId)
    .where('parent_id', '=', weekId)
    .where('status', '<>', 'deleted')
    .orderBy('create_time')
    .orderBy('id')
    .execute();
  const content = week.content as WeekContent;
  const input: WeekExportInput = {
    tenantName: week.tenant_name ?? '',
    className: week.class_name ?? '',
    authorName: week.author_name,
    coAuthorNames: week.co_author_names ?? [],
    status: week.status as WeekExportInput['status'],
    reviewerName: week.reviewer_name ?? undefined,
    reviewComment: week.review_comment ?? undefined,
    reviewTime: formatDateTime(week.review_time as Date | null, timeZone) ?? undefined,
    week: content,
    plans: children.filter((c) => c.kind === 'week_plan').map((c) => c.content as WeekPlanContent),
    dayPlans: children.filter((c) => c.kind === 'day_plan').map((c) => c.content as DayPlanContent),
  };
  const fileName = safeFileName(`${input.className}-第${content.weekNo}周-${content.theme}`) || `week-${weekId}`;
  return { input, fileName: `${fileName}.docx` };
}

/** The week's files in a zip export (records' `zipExportRoutes`, renderer `week`). */
registerZipRenderer('week', async ({ database }, job, id) => {
  const loaded = await inTenant(database, { tenantId: job.tenantId }, (trx) =>
    loadWeekExport(trx, job.tenantId, id, job.timeZone),
  );
  return loaded && { name: loaded.fileName, data: await renderWeekDocx(loaded.input, job.lang) };
});
