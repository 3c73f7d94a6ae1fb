import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { containsPattern } from '@sprout/core/db';
import { localDate } from '@sprout/core/time';
import { text } from '../../http/answer';
import { attachment } from '../../http/attachment';
import { requireKnownIds, softDelete } from '../../http/known';
import { ById, IdSchema } from '../../http/params';
import { live, readIn } from '../../http/query';
import { Routes } from '../../http/routes';
import { writeSheet, XLSX_TYPE } from '../../http/sheet';
import { sheetImportRoutes } from '../../http/sheet-routes';
import { tenantOf } from '../../plugins/context';
import { TEACHER_COLUMNS } from './fields';
import { TABLE, teachers } from './teacher';
import { checkTeacherRows, insertTeachers, namesById, teacherSheetRow } from './teacher-sheet';

export const PATH = '/api/teacher/master';
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 10_000;
const TITLE = { zh: '教师档案', en: 'Teachers' };

const TeacherOption = z.object({ id: text, teacherNo: text, name: text, userId: text, deptId: text });

/**
 * The teacher calls beside the builder's: `teacherList` (every live record, for selects),
 * remove by GET `id` (Saber's), and the Excel calls — template, export, import (a job: every
 * bad row named, nothing written unless all are good) and its progress.
 */
export async function teacherRoutes(app: FastifyInstance) {
  await app.register(multipart);
  const route = new Routes(app, ['teacher master']);
  const tz = () => app.config.TIME_ZONE;

  route.get(`${PATH}/teacherList`, {
    summary: 'Every live teacher record of the tenant (id, teacherNo, name, userId, deptId), by number',
    query: z.object({ name: z.string().trim().max(64).optional(), deptId: IdSchema.optional() }),
    data: z.array(TeacherOption),
    handler: async (request, q) => {
      const name = q.name ? containsPattern(q.name) : null;
      const rows = await readIn(request, (db, ctx) =>
        sql<Record<string, string | null>>`select id::text, teacher_no, name, user_id::text, dept_id::text
          from teacher_master where tenant_id = ${ctx.tenantId} and is_deleted = 0
            ${name ? sql`and name like ${name}` : sql``} ${q.deptId ? sql`and dept_id = ${q.deptId}` : sql``}
          order by teacher_no limit 5000`.compile(db),
      );
      return rows.map((r) => ({
        id: String(r.id),
        teacherNo: r.teacher_no ?? '',
        name: r.name ?? '',
        userId: r.user_id ? String(r.user_id) : '',
        deptId: r.dept_id ? String(r.dept_id) : '',
      }));
    },
  });

  route.get(`${PATH}/remove`, {
    summary: 'Deletes one teacher record (GET id, Saber’s form; POST remove takes ids)',
    config: { buttons: ['teacher_master_delete'] },
    query: ById,
    data: z.null(),
    done: 'http.removed',
    handler: async (request, { id }) => {
      const { tenantId, userId = null } = tenantOf(request);
      await request.tx(async (trx) => {
        const ids = await requireKnownIds(trx, { table: TABLE, alias: 't', tenantId, ids: [id] });
        await softDelete(trx, { table: TABLE, tenantId, ids, by: userId });
      });
      return null;
    },
  });

  app.get(
    `${PATH}/export`,
    {
      config: { buttons: ['teacher_master_export'] },
      schema: { tags: ['teacher master'], summary: 'Every live teacher record as .xlsx (the import’s columns)' },
    },
    async (request, reply) => {
      const { tenantId } = tenantOf(request);
      const { list, names } = await request.tx(async (trx) => ({
        list: await trx
          .selectFrom(TABLE)
          .selectAll()
          .where('tenant_id', '=', tenantId)
          .where(live())
          .orderBy('teacher_no' as never)
          .execute(),
        names: await namesById(trx, tenantId),
      }));
      const presented = list.map((r) => teachers.present(r as Record<string, unknown>, tz()));
      const file = await writeSheet(
        request.lang,
        TITLE,
        TEACHER_COLUMNS,
        presented.map((p) => teacherSheetRow(p, request.lang, names)),
      );
      const day = localDate(new Date(), tz());
      attachment(reply, request.lang === 'en' ? `teachers-${day}.xlsx` : `教师档案-${day}.xlsx`, XLSX_TYPE);
      return reply.send(file);
    },
  );

  sheetImportRoutes(app, route, {
    base: PATH,
    button: 'teacher_master_import',
    tag: 'teacher master',
    kind: 'teacher-import',
    columns: TEACHER_COLUMNS,
    title: TITLE,
    template: { zh: '教师导入模板.xlsx', en: 'teacher-template.xlsx' },
    maxBytes: IMPORT_MAX_BYTES,
    maxRows: IMPORT_MAX_ROWS,
    check: (trx, q) => checkTeacherRows(trx, q.tenantId, q.lang, q.rows),
    write: (trx, q, batch) => insertTeachers(trx, q.tenantId, q.userId || null, batch),
  });
}
