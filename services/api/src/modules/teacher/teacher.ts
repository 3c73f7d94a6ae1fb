import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DB, TenantContext } from '@sprout/core/db';
import { AppError } from '@sprout/core/errors';
import { t } from '@sprout/core/i18n';
import { liveIds, refuseTaken } from '../../http/known';
import { NullableIdSchema } from '../../http/params';
import { type SavedTable, saveRow } from '../../http/query';
import { defineResource } from '../../http/resource';
import { ownSave } from '../../http/resource-own';
import { TeacherFields, type TeacherValues } from './fields';

/** The table's name as the shared helpers are told it (they name the tables they were written for). */
export const TABLE = 'teacher_master' as SavedTable & 'post';

/** A 400 naming `field` (so a form shows it beside the field) with `key`. */
const fieldError = (request: FastifyRequest, field: string, key: string, params: Record<string, string> = {}) =>
  new AppError('bad_request', key, params, [{ field, message: t(request.lang, key, params) }]);

/**
 * The account, dept and post a record names must be live rows of the tenant; the teacher
 * number and the account are each taken by one live record only (a 400 naming the field).
 */
export async function refuseBadLinks(
  request: FastifyRequest,
  trx: Kysely<DB>,
  tenantId: string,
  b: TeacherValues,
  id: string | undefined,
) {
  const links = [
    ['userId', 'app_user', 'teacher.unknownUser'],
    ['deptId', 'dept', 'teacher.unknownDept'],
    ['postId', 'post', 'teacher.unknownPost'],
  ] as const;
  for (const [field, table, key] of links) {
    const v = b[field];
    if (v && !(await liveIds(trx, table, [v], tenantId)).length) throw fieldError(request, field, key, { id: v });
  }
  const taken = async (values: Record<string, string>, field: string, key: string, params: Record<string, string>) =>
    refuseTaken(trx, { table: TABLE, tenantId, values, id }, key, params).catch((e: unknown) => {
      throw e instanceof AppError ? fieldError(request, field, key, params) : e;
    });
  await taken({ teacher_no: b.teacherNo }, 'teacherNo', 'teacher.noTaken', { teacherNo: b.teacherNo });
  if (b.userId) await taken({ user_id: b.userId }, 'userId', 'teacher.userTaken', {});
}

/** A record's values as its columns. */
export const teacherColumns = (b: TeacherValues) => ({
  teacher_no: b.teacherNo,
  name: b.name,
  user_id: b.userId,
  gender: b.gender,
  birth_date: b.birthDate,
  ethnicity: b.ethnicity,
  staffing: b.staffing,
  political_status: b.politicalStatus,
  education: b.education,
  major: b.major,
  graduate_school: b.graduateSchool,
  teacher_certificate: b.teacherCertificate,
  social_work_qualification: b.socialWorkQualification,
  mandarin_level: b.mandarinLevel,
  professional_title: b.professionalTitle,
  hire_date: b.hireDate,
  phone: b.phone,
  dept_id: b.deptId,
  post_id: b.postId,
  remark: b.remark,
});

const Submit = TeacherFields.extend({ id: NullableIdSchema.optional() });

async function save(
  request: FastifyRequest,
  b: z.output<typeof Submit>,
  ctx: TenantContext,
): Promise<Record<string, unknown>> {
  const { tenantId, userId = null } = ctx;
  const id = b.id ?? undefined;
  const row = await request.tx(async (trx) => {
    await refuseBadLinks(request, trx, tenantId, b, id);
    const values = { ...teacherColumns(b), update_user: userId, update_time: new Date() };
    return saveRow(trx, TABLE, tenantId, id, values as never, { create_user: userId });
  });
  return teachers.present(row as Record<string, unknown>, request.server.config.TIME_ZONE) as Record<string, unknown>;
}

/**
 * Teacher master data (spec §7 /teacher/master, DOMAIN.md 教师档案): list, detail, submit,
 * update (an id required), remove (POST ids) on the resource builder; teacherList, remove by
 * GET id and the Excel calls in teacher-routes.ts.
 */
export const teachers = defineResource({
  code: 'teacher_master',
  table: 'teacher_master',
  path: '/api/teacher/master',
  tag: 'teacher master',
  label: { zh: '教师档案', en: 'teacher record' },
  fields: TeacherFields,
  filters: { teacherNo: 'like', name: 'like', deptId: 'id', staffing: 'eq', education: 'eq' },
  order: ['teacherNo'],
  save: ownSave({
    summary: 'Adds (no id) or updates a teacher record',
    update: 'Updates a teacher record (id required)',
    body: Submit,
    data: z.record(z.string(), z.unknown()),
    save,
  }),
});
