import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ExportJobSchema,
  type ExportProgress,
  ExportProgressSchema,
  type ExportJob as ExportStarted,
} from '@sprout/contracts';
import type { Config } from '@sprout/core/config';
import { type Database, inTenant } from '@sprout/core/db';
import { AppError, badRequest, forbidden, notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import type { Lang } from '@sprout/core/i18n';
import { nextId } from '@sprout/core/ids';
import { zipFiles } from '@sprout/core/records';
import { localDate } from '@sprout/core/time';
import type { Processor } from '@sprout/worker';
import { attachment } from '../../http/attachment';
import { IdListSchema, IdSchema } from '../../http/params';
import { okSchema } from '../../plugins/serialization';
import { type Caller, callerOf } from './engine';

/**
 * A zip of many records' Word files as a job with progress, for any record family (the
 * weeks, the observation families): the start path checks the ids against the caller's
 * export scope and stores a `record_export` row; the worker renders each record in turn
 * (writing `done` after each), zips them and keeps the zip on the row for an hour; the
 * progress and download paths answer only the user who started it.
 */

/** The queue the exports run on (the records context's processor). */
export const EXPORT_QUEUE = 'records.export';
/** How long a finished export can be downloaded. */
export const EXPORT_TTL_MS = 60 * 60 * 1000;
/** Most records in one zip. */
export const EXPORT_MAX = 200;

export interface ZipExportJob {
  /** Which renderer makes each file (registerZipRenderer); the week's when absent (jobs queued before). */
  renderer?: string;
  tenantId: string;
  /** The user who started it. */
  userId?: string;
  exportId: string;
  ids: string[];
  lang: Lang;
  timeZone: string;
}

/** What a renderer reads with. */
export interface ZipExportDeps {
  database: Database;
  config: Config;
}

/** One record's file for the zip; undefined when the record is gone (it is left out). */
export type ZipRenderer = (
  deps: ZipExportDeps,
  job: ZipExportJob,
  id: string,
) => Promise<{ name: string; data: Buffer } | undefined>;

const renderers = new Map<string, ZipRenderer>();

/** Registers how the records of `key` (a family's kind, `week`) are rendered into a zip. */
export function registerZipRenderer(key: string, render: ZipRenderer) {
  renderers.set(key, render);
}

const setRow = (database: Database, job: ZipExportJob, values: Record<string, unknown>) =>
  inTenant(database, { tenantId: job.tenantId }, (trx) =>
    trx
      .updateTable('record_export')
      .set(values)
      .where('tenant_id', '=', job.tenantId)
      .where('id', '=', job.exportId)
      .execute(),
  );

/**
 * Runs an export: each record rendered in turn, progress (`done`) written after each, then
 * the zip stored on the export row for an hour. Idempotent: a finished export is left alone,
 * a retried one starts over.
 */
export async function runZipExport(deps: ZipExportDeps, job: ZipExportJob): Promise<void> {
  const { database } = deps;
  const state = await inTenant(database, { tenantId: job.tenantId }, (trx) =>
    trx
      .selectFrom('record_export')
      .select('status')
      .where('tenant_id', '=', job.tenantId)
      .where('id', '=', job.exportId)
      .executeTakeFirst(),
  );
  if (state?.status !== 'running') return;
  try {
    const render = renderers.get(job.renderer ?? 'week');
    if (!render) throw new Error(`no zip renderer for ${job.renderer ?? 'week'}`);
    const files: { name: string; data: Buffer }[] = [];
    for (const [i, id] of job.ids.entries()) {
      const file = await render(deps, job, id);
      if (file) files.push(file);
      await setRow(database, job, { done: i + 1 });
    }
    const zip = await zipFiles(files);
    await setRow(database, job, {
      status: 'done',
      done: job.ids.length,
      file: zip,
      expires_at: new Date(Date.now() + EXPORT_TTL_MS),
    });
  } catch (err) {
    await setRow(database, job, { status: 'failed', error: String((err as Error).message ?? err).slice(0, 500) });
    throw err;
  }
}

/** The worker's processor of every zip export. */
export const recordExportProcessor: Processor<ZipExportJob> = {
  queue: EXPORT_QUEUE,
  handler: (platform) => (job) => runZipExport(platform, job.data),
  options: { concurrency: 1 },
};

export interface ZipExportRoutes {
  base: string;
  tag: string;
  /** The renderer's key (registerZipRenderer). */
  renderer: string;
  /** The paths under `base`: start (`?ids=`), progress and download (`?jobId=`). */
  urls: { start: string; progress: string; download: string };
  summary: string;
  /** The ids among `ids` the caller may export (the export data scope), in the given order. */
  exportable: (caller: Caller, ids: string[]) => Promise<string[]>;
  /**
   * An id outside the caller's export scope refuses the whole export (403
   * `records.exportOutOfScope`); without it such ids are left out (the weeks).
   */
  refuseOutOfScope?: boolean;
  /** The zip's name, by language and today's date. */
  fileName: (lang: Lang, date: string) => string;
}

const JobIdSchema = z.object({ jobId: IdSchema });

/** Registers a family's start, progress and download paths of a zip export. */
export function zipExportRoutes(app: FastifyInstance, o: ZipExportRoutes) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = app.config.TIME_ZONE;
  const url = (p: string) => `${o.base}/${p}`;

  r.get(
    url(o.urls.start),
    {
      schema: {
        tags: [o.tag],
        summary: o.summary,
        querystring: z.object({ ids: z.preprocess((v) => (v === '' ? undefined : v), IdListSchema.optional()) }),
        response: { 200: okSchema(ExportJobSchema) },
      },
    },
    async (request) => {
      const ids = [...new Set(request.query.ids ?? [])];
      if (!ids.length) throw badRequest('records.selectOne');
      if (ids.length > EXPORT_MAX) throw badRequest('records.exportTooMany', { max: EXPORT_MAX });
      const caller = await callerOf(request);
      const allowed = await o.exportable(caller, ids);
      if (o.refuseOutOfScope && allowed.length < ids.length)
        throw forbidden('records.exportOutOfScope', { count: ids.length - allowed.length });
      if (!allowed.length) throw notFound('record.notFound');
      const exportId = nextId();
      await inTenant(app.database, caller.ctx, (trx) =>
        trx
          .insertInto('record_export')
          .values({
            tenant_id: caller.ctx.tenantId,
            id: exportId,
            user_id: caller.ctx.userId,
            total: allowed.length,
            file_name: o.fileName(request.lang, localDate(new Date(), tz)),
            file: null,
            error: null,
            expires_at: new Date(Date.now() + EXPORT_TTL_MS),
          })
          .execute(),
      );
      const job: ZipExportJob = {
        renderer: o.renderer,
        tenantId: caller.ctx.tenantId,
        userId: caller.ctx.userId,
        exportId,
        ids: allowed,
        lang: request.lang,
        timeZone: tz,
      };
      await app.queue.enqueue(EXPORT_QUEUE, job, { jobId: `export-${caller.ctx.tenantId}-${exportId}`, attempts: 2 });
      return ok({ jobId: exportId, total: allowed.length } satisfies ExportStarted, request.lang);
    },
  );

  /** The caller's own unexpired export (404 for anyone else's). */
  const exportRow = async (caller: Caller, jobId: string, withFile: boolean) => {
    const row = await inTenant(app.database, caller.ctx, (trx) => {
      let qb = trx
        .selectFrom('record_export')
        .select(['status', 'done', 'total', 'file_name', 'error', 'expires_at'])
        .where('tenant_id', '=', caller.ctx.tenantId)
        .where('id', '=', jobId)
        .where('user_id', '=', caller.ctx.userId)
        .where('expires_at', '>', new Date());
      if (withFile) qb = qb.select('file') as typeof qb;
      return qb.executeTakeFirst();
    });
    if (!row) throw notFound('records.exportNotFound');
    return row as typeof row & { file?: Buffer | null };
  };

  r.get(
    url(o.urls.progress),
    {
      schema: {
        tags: [o.tag],
        summary: 'Progress of a zip export: {status, done, total, fileName}',
        querystring: JobIdSchema,
        response: { 200: okSchema(ExportProgressSchema) },
      },
    },
    async (request) => {
      const caller = await callerOf(request);
      const row = await exportRow(caller, request.query.jobId, false);
      const progress: ExportProgress = {
        status: row.status as ExportProgress['status'],
        done: row.done,
        total: row.total,
        fileName: row.file_name,
        error: row.error ?? '',
      };
      return ok(progress, request.lang);
    },
  );

  r.get(
    url(o.urls.download),
    { schema: { tags: [o.tag], summary: 'The finished zip of an export', querystring: JobIdSchema } },
    async (request, reply) => {
      const caller = await callerOf(request);
      const row = await exportRow(caller, request.query.jobId, true);
      if (row.status !== 'done' || !row.file) throw new AppError('conflict', 'records.exportNotReady');
      attachment(reply, row.file_name, 'application/zip');
      return reply.send(row.file);
    },
  );
}
