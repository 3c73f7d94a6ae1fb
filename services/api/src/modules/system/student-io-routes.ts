import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { localDate } from '@sprout/core/time';
import { attachment } from '../../http/attachment';
import { writeSheet, XLSX_TYPE } from '../../http/sheet';
import { sheetImportRoutes } from '../../http/sheet-routes';
import type { AppAbility } from '@sprout/core/permissions/ability';
import { permissionsOf } from '../../plugins/auth';
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

  sheetImportRoutes(app, route, {
    base: BASE,
    button: 'student_import',
    tag: 'children',
    kind: 'student-import',
    columns: STUDENT_COLUMNS_SHEET,
    title: TITLE,
    template: { zh: '幼儿导入模板.xlsx', en: 'children-template.xlsx' },
    maxBytes: CHILD_IMPORT_MAX_BYTES,
    maxRows: CHILD_IMPORT_MAX_ROWS,
    batch: 1000,
    // The caller's ability: which classes she may add children to.
    prepare: async (request) => (await permissionsOf(request)).ability,
    check: (trx, q) => checkChildRows(trx, { ...q, ability: q.prepared as AppAbility }),
    write: (trx, q, batch) => insertChildren(trx, q.tenantId, q.userId, batch),
  });
}
