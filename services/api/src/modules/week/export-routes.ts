import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';
import {
  ExportJobSchema,
  type ExportProgress,
  ExportProgressSchema,
  type ExportJob as ExportStarted,
} from '@sprout/contracts';
import { inTenant, readInTenant } from '@sprout/core/db';
import { AppError, badRequest, notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { nextId } from '@sprout/core/ids';
import { renderWeekDocx } from '@sprout/core/records';
import { EXPORT_MAX, EXPORT_QUEUE, EXPORT_TTL_MS, type ExportJob, loadWeekExport } from './week-export';
import { localDate } from '@sprout/core/time';
import { callerOf, IdParamSchema, inRecordScope } from '../records';
import { okSchema } from '../../plugins/serialization';
import { attachment } from '../../http/attachment';
import { IdListSchema, IdSchema } from '../../http/params';
import { RESOURCE } from './weeks';

const JobIdSchema = z.object({ jobId: IdSchema });

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export async function exportRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/week/week';
  const tz = app.config.TIME_ZONE;

  /** A download's options: no response schema, the answer is a file (its refusals are envelopes). */
  const file = <Q extends ZodType>(summary: string, querystring: Q) => ({
    schema: { tags: ['weeks'], summary, querystring },
  });

  /** The weeks among `ids` the caller may export (data scope `export`), in the given order. */
  const exportable = async (caller: Awaited<ReturnType<typeof callerOf>>, ids: string[]) => {
    const rows = await readInTenant<{ id: string }>(
      app.database,
      caller.ctx,
      app.database.db
        .selectFrom('record_list as r')
        .select('r.id')
        .where('r.tenant_id', '=', caller.ctx.tenantId)
        .where('r.kind', '=', 'week')
        .where('r.status', '<>', 'deleted')
        .where('r.id', 'in', ids)
        .where(inRecordScope(caller, 'export', RESOURCE))
        .compile(),
    );
    const found = new Set(rows.map((x) => String(x.id)));
    return ids.filter((id) => found.has(id));
  };

  r.get(
    `${base}/exportForId`,
    file('The week with its plans as a Word file', IdParamSchema),
    async (request, reply) => {
      const caller = await callerOf(request);
      const [id] = await exportable(caller, [request.query.id]);
      if (!id) throw notFound('record.notFound');
      const loaded = await inTenant(app.database, caller.ctx, (trx) =>
        loadWeekExport(trx, caller.ctx.tenantId, id, tz),
      );
      if (!loaded) throw notFound('record.notFound');
      const file = await renderWeekDocx(loaded.input, request.lang);
      attachment(reply, loaded.fileName, DOCX);
      return reply.send(file);
    },
  );

  r.get(
    `${base}/exportAllForId`,
    {
      schema: {
        tags: ['weeks'],
        summary: 'Starts a zip of Word files of the given weeks → {jobId, total}; poll exportProgress',
        querystring: z.object({ ids: IdListSchema }),
        response: { 200: okSchema(ExportJobSchema) },
      },
    },
    async (request) => {
      const ids = request.query.ids;
      if (!ids.length) throw badRequest('records.selectOne');
      if (ids.length > EXPORT_MAX) throw badRequest('records.exportTooMany', { max: EXPORT_MAX });
      const caller = await callerOf(request);
      const allowed = await exportable(caller, ids);
      if (!allowed.length) throw notFound('record.notFound');
      const exportId = nextId();
      const fileName = `备课导出-${localDate(new Date(), tz)}.zip`;
      await inTenant(app.database, caller.ctx, (trx) =>
        trx
          .insertInto('record_export')
          .values({
            tenant_id: caller.ctx.tenantId,
            id: exportId,
            user_id: caller.ctx.userId,
            total: allowed.length,
            file_name: request.lang === 'en' ? `lesson-plans-${localDate(new Date(), tz)}.zip` : fileName,
            file: null,
            error: null,
            expires_at: new Date(Date.now() + EXPORT_TTL_MS),
          })
          .execute(),
      );
      const job: ExportJob = {
        tenantId: caller.ctx.tenantId,
        exportId,
        ids: allowed,
        lang: request.lang,
        timeZone: tz,
      };
      await app.queue.enqueue(EXPORT_QUEUE, job, { jobId: `export-${caller.ctx.tenantId}-${exportId}`, attempts: 2 });
      return ok({ jobId: exportId, total: allowed.length } satisfies ExportStarted, request.lang);
    },
  );

  const exportRow = async (caller: Awaited<ReturnType<typeof callerOf>>, jobId: string, withFile: boolean) => {
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
    `${base}/exportProgress`,
    {
      schema: {
        tags: ['weeks'],
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

  r.get(`${base}/exportDownload`, file('The finished zip of an export', JobIdSchema), async (request, reply) => {
    const caller = await callerOf(request);
    const row = await exportRow(caller, request.query.jobId, true);
    if (row.status !== 'done' || !row.file) throw new AppError('conflict', 'records.exportNotReady');
    attachment(reply, row.file_name, 'application/zip');
    return reply.send(row.file);
  });
}
