import { sql } from 'kysely';
import type { DayPlanContent, WeekContent, WeekPlanContent } from '@sprout/contracts';
import { type Database, inTenant, type Tx } from '@sprout/core/db';
import type { Lang } from '@sprout/core/i18n';
import { formatDateTime } from '@sprout/core/time';
import { renderWeekDocx, safeFileName, type WeekExportInput, zipFiles } from '@sprout/core/records/export/index';

/** The queue a multi-week export runs on (the worker's processor). */
export const EXPORT_QUEUE = 'records.export';
/** How long a finished export can be downloaded. */
export const EXPORT_TTL_MS = 60 * 60 * 1000;
/** Most weeks in one zip. */
export const EXPORT_MAX = 200;

export interface ExportJob {
  tenantId: string;
  exportId: string;
  ids: string[];
  lang: Lang;
  timeZone: string;
}

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

/**
 * Runs a multi-week export: each week rendered in turn, progress (`done`) written after
 * each, then the zip stored on the export row for an hour. Idempotent: a finished export is
 * left alone, a retried one starts over.
 */
export async function runWeekExport(database: Database, job: ExportJob): Promise<void> {
  const ctx = { tenantId: job.tenantId };
  const state = await inTenant(database, ctx, (trx) =>
    trx
      .selectFrom('record_export')
      .select('status')
      .where('tenant_id', '=', job.tenantId)
      .where('id', '=', job.exportId)
      .executeTakeFirst(),
  );
  if (state?.status !== 'running') return;
  try {
    const files: { name: string; data: Buffer }[] = [];
    for (const [i, id] of job.ids.entries()) {
      const loaded = await inTenant(database, ctx, (trx) => loadWeekExport(trx, job.tenantId, id, job.timeZone));
      if (loaded) files.push({ name: loaded.fileName, data: await renderWeekDocx(loaded.input, job.lang) });
      await inTenant(database, ctx, (trx) =>
        trx
          .updateTable('record_export')
          .set({ done: i + 1 })
          .where('tenant_id', '=', job.tenantId)
          .where('id', '=', job.exportId)
          .execute(),
      );
    }
    const zip = await zipFiles(files);
    await inTenant(database, ctx, (trx) =>
      trx
        .updateTable('record_export')
        .set({ status: 'done', done: job.ids.length, file: zip, expires_at: new Date(Date.now() + EXPORT_TTL_MS) })
        .where('tenant_id', '=', job.tenantId)
        .where('id', '=', job.exportId)
        .execute(),
    );
  } catch (err) {
    await inTenant(database, ctx, (trx) =>
      trx
        .updateTable('record_export')
        .set({ status: 'failed', error: String((err as Error).message ?? err).slice(0, 500) })
        .where('tenant_id', '=', job.tenantId)
        .where('id', '=', job.exportId)
        .execute(),
    );
    throw err;
  }
}
