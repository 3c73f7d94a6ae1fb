import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound } from '@sprout/core/errors';
import { nextId } from '@sprout/core/ids';
import { localDate } from '@sprout/core/time';
import { attachment } from '../../http/attachment';
import { backgroundWork, JobBoard, type JobOwner } from '../../http/jobs';
import { IdSchema } from '../../http/params';
import { readSheet, runSheetImport, uploadedSheet, writeSheet, XLSX_TYPE } from '../../http/sheet';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { ImportProgressSchema } from './user-io-routes';
import { routesOf } from './shapes';
import { childrenInScope } from './student-routes';
import { StudentFilterSchema } from './student-repo';
import { checkChildRows, childSheetRow, insertChildren, STUDENT_COLUMNS_SHEET } from './student-sheet';

const BASE = '/api/student/student';
export const CHILD_IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const CHILD_IMPORT_MAX_ROWS = 20_000;
const EXPORT_MAX = 20_000;
const TITLE = { zh: '幼儿', en: 'Children' };

/**
 * The children screen's Excel calls: the template, the export (the list's filters, the caller's
 * data scope and field rules; with a classId it is the class's roster) and the import (a job:
 * every bad row named, nothing written unless all are good) with its progress.
 */
export async function studentIoRoutes(app: FastifyInstance) {
  await app.register(multipart);
  const route = routesOf(app, 'children');
  const board = new JobBoard(app.auth.kv, 'student-import');
  const inBackground = backgroundWork(app);

  app.get(
    `${BASE}/export-template`,
    {
      config: { buttons: ['student_import'] },
      schema: { tags: ['children'], summary: 'The children import template (.xlsx)' },
    },
    async (request, reply) => {
      attachment(reply, request.lang === 'en' ? 'children-template.xlsx' : '幼儿导入模板.xlsx', XLSX_TYPE);
      return reply.send(await writeSheet(request.lang, TITLE, STUDENT_COLUMNS_SHEET, []));
    },
  );

  app.get(
    `${BASE}/export`,
    {
      config: { buttons: ['student_export'] },
      schema: {
        tags: ['children'],
        summary:
          'Children of the list’s filters in the caller’s data scope as .xlsx, with guardians (a classId: the roster)',
        querystring: StudentFilterSchema,
      },
    },
    async (request, reply) => {
      const q = request.query as z.output<typeof StudentFilterSchema>;
      const children = await childrenInScope(request, q, undefined, EXPORT_MAX);
      const rows = children.map((s) => childSheetRow(s, request.lang));
      const file = await writeSheet(request.lang, TITLE, STUDENT_COLUMNS_SHEET, rows);
      const day = localDate(new Date(), app.config.TIME_ZONE);
      attachment(reply, request.lang === 'en' ? `children-${day}.xlsx` : `幼儿-${day}.xlsx`, XLSX_TYPE);
      return reply.send(file);
    },
  );

  route.post(`${BASE}/import`, {
    summary: 'Starts an import of children with guardians from an .xlsx (multipart `file`) → {jobId, total}',
    description: 'Every row is checked first (row, column, reason); any bad row → nothing written.',
    config: { buttons: ['student_import'] },
    data: z.object({ jobId: z.string(), total: z.number().int() }),
    handler: async (request) => {
      const { tenantId, userId = '' } = tenantOf(request);
      const { ability } = await permissionsOf(request);
      const file = await uploadedSheet(request, CHILD_IMPORT_MAX_BYTES);
      const rows = await readSheet(file, request.lang, STUDENT_COLUMNS_SHEET, CHILD_IMPORT_MAX_ROWS);
      const owner: JobOwner = { tenantId, userId, jobId: nextId() };
      await board.put(owner, { state: 'validating', total: rows.length, done: 0, errors: [] });
      const lang = request.lang;
      inBackground(async () => {
        await runSheetImport({
          database: app.database,
          board,
          owner,
          tenantId,
          userId,
          lang,
          total: rows.length,
          batch: 1000,
          check: (trx) => checkChildRows(trx, { tenantId, userId, lang, ability, rows }),
          write: (trx, batch) => insertChildren(trx, tenantId, userId, batch),
        });
      });
      return { jobId: owner.jobId, total: rows.length };
    },
  });

  route.get(`${BASE}/import-progress`, {
    summary:
      'Progress of the caller’s children import: {state, total, done, errors: [{row, column, message}], message}',
    config: { buttons: ['student_import'] },
    query: z.object({ jobId: IdSchema }),
    data: ImportProgressSchema,
    handler: async (request, q) => {
      const { tenantId, userId = '' } = tenantOf(request);
      const progress = await board.read({ tenantId, userId, jobId: q.jobId });
      if (!progress) throw notFound('sheet.jobNotFound');
      return progress;
    },
  });
}
