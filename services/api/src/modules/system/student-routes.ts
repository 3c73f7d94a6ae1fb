import { subject } from '@casl/ability';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { TenantContext } from '@sprout/core/db';
import { badRequest, notFound } from '@sprout/core/errors';
import { PageQuerySchema } from '@sprout/core/http/paging';
import { formatDateTime } from '@sprout/core/time';
import { permissionsOf } from '../../plugins/auth';
import { pageSchema } from '../../plugins/serialization';
import { int, orEmpty, text, time } from '../../http/answer';
import { refuseTaken } from '../../http/known';
import { DateSchema, IdSchema, intEnum, optionalText, PHONE } from '../../http/params';
import { writeRow } from '../../http/query';
import { creatorToUpdate, routesOf, type ScopedTable, scopedPage, scopedRows } from './shapes';
import {
  liveClass,
  STUDENT_COLUMNS,
  type StudentFilter,
  type StudentRow,
  studentQuery,
  StudentFilterSchema,
} from './student-repo';

/** A child as lists and details show it; field rules may drop guardianPhone (personal data). */
export const StudentSchema = z.object({
  id: text,
  tenantId: text,
  name: text,
  gender: int,
  birthDate: text,
  classId: text,
  className: text,
  deptId: text,
  studentNo: text,
  enrollDate: text,
  guardianName: text,
  guardianPhone: text,
  notes: text,
  status: int,
  createUser: text,
  createTime: time,
  updateTime: time,
});

export const presentStudent = (s: StudentRow, tz: string): z.output<typeof StudentSchema> => ({
  id: String(s.id),
  tenantId: s.tenant_id,
  name: s.name,
  gender: s.gender,
  birthDate: s.birth_date ?? '',
  classId: orEmpty(s.class_id),
  className: s.class_name ?? '',
  deptId: orEmpty(s.dept_id),
  studentNo: s.student_no ?? '',
  enrollDate: s.enroll_date ?? '',
  guardianName: s.guardian_name ?? '',
  guardianPhone: s.guardian_phone ?? '',
  notes: s.notes ?? '',
  status: s.status,
  createUser: orEmpty(s.create_user),
  createTime: formatDateTime(s.create_time, tz),
  updateTime: formatDateTime(s.update_time, tz),
});

const nullableDate = z
  .string()
  .nullish()
  .transform((v) => (v?.trim() ? v.trim() : null))
  .pipe(DateSchema.nullable());

/** A child (DOMAIN.md): name, gender, birthDate, classId, studentNo, enrollDate, guardian, notes, status. */
export const StudentSubmitSchema = z.object({
  id: IdSchema.optional(),
  name: z.string().trim().min(1, '$validation.required').max(64),
  gender: intEnum([1, 2] as const),
  birthDate: nullableDate,
  classId: IdSchema,
  studentNo: optionalText(32),
  enrollDate: nullableDate,
  guardianName: optionalText(64),
  guardianPhone: optionalText(11).refine((v) => !v || PHONE.test(v), '$validation.phone'),
  notes: optionalText(500),
  status: intEnum([1, 2] as const).default(1),
});

export const STUDENT: ScopedTable = { resource: 'student', columns: STUDENT_COLUMNS, table: 'student', alias: 's' };

/** Children of the caller's read scope (at most `limit`), or the one of `id`. */
export const childrenInScope = (request: FastifyRequest, f: StudentFilter, id?: string, limit = 2000) =>
  scopedRows(
    request,
    STUDENT,
    (db, tenantId) => (id ? studentQuery(db, tenantId, f).where('s.id', '=', id) : studentQuery(db, tenantId, f)),
    presentStudent,
    limit,
  );

/**
 * Children (spec §7 /student/student): listStudents, listStudentsAll, detail, saveStudent,
 * updateStudent, removeStudent — confined to the caller's `student` data scope, with field
 * rules (a caregiver does not see the guardian's phone).
 */
// Hand-written, not defineResource: its calls are not list/submit/remove (listStudents, saveStudent, …), each data-scoped, with field rules.
export async function studentRoutes(app: FastifyInstance) {
  const route = routesOf(app, 'children');

  route.get('/api/student/student/listStudents', {
    summary: 'Children in the caller’s data scope, paged (name, classId, gender, status, studentNo)',
    query: PageQuerySchema.merge(StudentFilterSchema),
    data: pageSchema(StudentSchema),
    handler: (request, q) =>
      scopedPage(request, STUDENT, (db, tenantId) => studentQuery(db, tenantId, q), q, presentStudent),
  });

  route.get('/api/student/student/listStudentsAll', {
    summary: 'Every child in the caller’s data scope (at most 2000; filters as listStudents)',
    query: StudentFilterSchema,
    data: z.array(StudentSchema),
    handler: (request, q) => childrenInScope(request, q),
  });

  route.detail('/api/student/student/detail', {
    summary: 'One child (404 outside the caller’s data scope)',
    data: StudentSchema,
    find: async (request, id) => (await childrenInScope(request, {}, id, 1))[0],
  });

  const save = async (request: FastifyRequest, b: z.output<typeof StudentSubmitSchema>, ctx: TenantContext) => {
    const { tenantId, userId: me = '' } = ctx;
    const perms = await permissionsOf(request);
    const id = await request.tx(async (trx) => {
      const missing = () => notFound();
      const createUser = b.id
        ? await creatorToUpdate(trx, perms.ability, STUDENT, { tenantId, id: b.id, missing })
        : me;
      const clazz = await liveClass(trx, tenantId, b.classId);
      if (!clazz) throw badRequest('system.classNotFound', { id: b.classId });
      const deptId = clazz.dept_id === null ? null : String(clazz.dept_id);
      // The child as it will be (in that class) must be in the caller's scope.
      const after = subject('student', { tenantId, id: b.id ?? '0', createUser, classId: b.classId, deptId });
      if (!perms.ability.can('update', after)) throw badRequest('system.outOfScope');
      if (b.studentNo) {
        const taken = { table: 'student', tenantId, values: { student_no: b.studentNo }, id: b.id } as const;
        await refuseTaken(trx, taken, 'system.studentNoExists', { no: b.studentNo });
      }
      const values = {
        name: b.name,
        gender: b.gender,
        birth_date: b.birthDate,
        class_id: b.classId,
        dept_id: deptId,
        student_no: b.studentNo,
        enroll_date: b.enrollDate,
        guardian_name: b.guardianName,
        guardian_phone: b.guardianPhone,
        notes: b.notes,
        status: b.status,
        update_user: me,
        update_time: new Date(),
      };
      // A field the caller may not see is not theirs to change either.
      const { guardian_phone: _, ...rest } = values;
      const mayPhone =
        !b.id ||
        perms.ability.can(
          'read',
          subject('student', { tenantId, id: b.id, createUser, classId: b.classId, deptId }),
          'guardianPhone',
        );
      return writeRow(trx, 'student', tenantId, b.id, mayPhone ? values : rest, { create_user: me });
    });
    return (await childrenInScope(request, {}, id, 1))[0] ?? { id };
  };

  const data = StudentSchema.partial();
  route.submit('/api/student/student/saveStudent', {
    summary: 'Adds a child to a class in the caller’s data scope',
    body: StudentSubmitSchema.omit({ id: true }),
    data,
    save,
  });
  route.update('/api/student/student/updateStudent', {
    summary: 'Updates a child (id required)',
    body: StudentSubmitSchema,
    data,
    save,
  });

  route.remove('/api/student/student/removeStudent', {
    summary: 'Deletes children (id or ids) in the caller’s data scope',
    idOrIds: true,
    table: 'student',
    alias: 's',
    scope: STUDENT,
    stamped: true,
  });
}
