import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { inTenant, readInTenant } from '@sprout/core/db';
import { notFound } from '@sprout/core/errors';
import { renderWeekDocx } from '@sprout/core/records';
import { loadWeekExport } from './week-export';
import { callerOf, IdParamSchema, inRecordScope, zipExportRoutes } from '../records';
import { attachment } from '../../http/attachment';
import { RESOURCE } from './weeks';

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

  zipExportRoutes(app, {
    base,
    tag: 'weeks',
    renderer: 'week',
    urls: { start: 'exportAllForId', progress: 'exportProgress', download: 'exportDownload' },
    summary: 'Starts a zip of Word files of the given weeks → {jobId, total}; poll exportProgress',
    exportable,
    fileName: (lang, date) => (lang === 'en' ? `lesson-plans-${date}.zip` : `备课导出-${date}.zip`),
  });
}
