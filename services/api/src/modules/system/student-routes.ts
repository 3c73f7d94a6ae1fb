import { subject } from '@casl/ability';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, notFound } from '@sprout/core/errors';
import { PageQuerySchema } from '@sprout/core/http/paging';
import { scopeWhere } from '@sprout/core/permissions/sql';
import { formatDateTime } from '@sprout/core/time';
import { permissionsOf } from '../../plugins/auth';
import { pageSchema } from '../../plugins/serialization';
import { tenantOf } from '../../plugins/context';
import { creatorInScope } from '../../http/known';
import { DateSchema, IdSchema, intEnum, optionalText, PHONE } from '../../http/params';
import { detailRoute, getRoute } from '../../http/routes';
import { removeRoute, type Scoped, scopedPage, scopedRows, submitRoute, updateRoute } from './shapes';
import {
  liveClass,
  STUDENT_COLUMNS,
  type StudentFilter,
  type StudentRow,
  studentQuery,
  studentWithNo,
  writeStudent,
} from './student-repo';

/** A child as lists and details show it; field rules may drop guardianPhone (personal data). */
export const StudentSchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  name: z.string(),
  gender: z.number().int(),
  birthDate: z.string(),
  classId: z.string(),
  className: z.string(),
  deptId: z.string(),
  studentNo: z.string(),
  enrollDate: z.string(),
  guardianName: z.string(),
  guardianPhone: z.string(),
  notes: z.string(),
  status: z.number().int(),
  createUser: z.string(),
  createTime: z.string().nullable(),
  updateTime: z.string().nullable(),
});

const str = (v: string | null | undefined) => (v === null || v === undefined ? '' : String(v));

export const presentStudent = (s: StudentRow, tz: string): z.output<typeof StudentSchema> => ({
  id: String(s.id),
  tenantId: s.tenant_id,
  name: s.name,
  gender: s.gender,
  birthDate: s.birth_date ?? '',
  classId: str(s.class_id),
  className: s.class_name ?? '',
  deptId: str(s.dept_id),
  studentNo: s.student_no ?? '',
  enrollDate: s.enroll_date ?? '',
  guardianName: s.guardian_name ?? '',
  guardianPhone: s.guardian_phone ?? '',
  notes: s.notes ?? '',
  status: s.status,
  createUser: str(s.create_user),
  createTime: formatDateTime(s.create_time, tz),
  updateTime: formatDateTime(s.update_time, tz),
});

const StudentFilterSchema = z.object({
  name: z.string().trim().max(64).optional(),
  classId: IdSchema.optional(),
  gender: z.coerce.number().int().optional(),
  status: z.coerce.number().int().optional(),
  studentNo: z.string().trim().max(32).optional(),
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

const STUDENT: Scoped = { resource: 'student', columns: STUDENT_COLUMNS };

/** Children of the caller's read scope (at most `limit`), or the one of `id`. */
const childrenInScope = (request: FastifyRequest, f: StudentFilter, id?: string, limit = 2000) =>
  scopedRows(
    request,
    STUDENT,
    (db, tenantId) => (id ? studentQuery(db, tenantId, f).where('s.id', '=', id) : studentQuery(db, tenantId, f)),
    presentStudent,
    limit,
  );

const tags = ['children'];

/**
 * Children (spec §7 /student/student): listStudents, listStudentsAll, detail, saveStudent,
 * updateStudent, removeStudent — confined to the caller's `student` data scope, with field
 * rules (a caregiver does not see the guardian's phone).
 */
export async function studentRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  getRoute(
    r,
    '/api/student/student/listStudents',
    {
      tags,
      summary: 'Children in the caller’s data scope, paged (name, classId, gender, status, studentNo)',
      query: PageQuerySchema.merge(StudentFilterSchema),
      data: pageSchema(StudentSchema),
    },
    (request, q) => scopedPage(request, STUDENT, (db, tenantId) => studentQuery(db, tenantId, q), q, presentStudent),
  );

  getRoute(
    r,
    '/api/student/student/listStudentsAll',
    {
      tags,
      summary: 'Every child in the caller’s data scope (at most 2000; filters as listStudents)',
      query: StudentFilterSchema,
      data: z.array(StudentSchema),
    },
    (request, q) => childrenInScope(request, q),
  );

  detailRoute(
    r,
    '/api/student/student/detail',
    { tags, summary: 'One child (404 outside the caller’s data scope)', data: StudentSchema },
    async (request, id) => (await childrenInScope(request, {}, id, 1))[0],
  );

  const save = async (request: FastifyRequest, b: z.output<typeof StudentSubmitSchema>) => {
    const ctx = tenantOf(request);
    const { tenantId, userId: me = '' } = ctx;
    const perms = await permissionsOf(request);
    const id = await request.tx(async (trx) => {
      let createUser: string | null = me;
      if (b.id) {
        const scope = scopeWhere(perms.ability, 'update', 'student', STUDENT_COLUMNS);
        const current = await creatorInScope(trx, { table: 'student', alias: 's', tenantId, id: b.id, scope });
        if (current === undefined) throw notFound();
        createUser = current;
      }
      const clazz = await liveClass(trx, tenantId, b.classId);
      if (!clazz) throw badRequest('system.classNotFound', { id: b.classId });
      const deptId = clazz.dept_id === null ? null : String(clazz.dept_id);
      // The child as it will be (in that class) must be in the caller's scope.
      const after = subject('student', { tenantId, id: b.id ?? '0', createUser, classId: b.classId, deptId });
      if (!perms.ability.can('update', after)) throw badRequest('system.outOfScope');
      if (b.studentNo) {
        const clash = await studentWithNo(trx, tenantId, b.studentNo);
        if (clash && String(clash.id) !== b.id) throw badRequest('system.studentNoExists', { no: b.studentNo });
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
      return writeStudent(trx, tenantId, b.id, mayPhone ? values : rest);
    });
    return (await childrenInScope(request, {}, id, 1))[0] ?? { id };
  };

  const data = StudentSchema.partial();
  submitRoute(
    r,
    '/api/student/student/saveStudent',
    {
      tags,
      summary: 'Adds a child to a class in the caller’s data scope',
      body: StudentSubmitSchema.omit({ id: true }),
      data,
    },
    save,
  );
  updateRoute(
    r,
    '/api/student/student/updateStudent',
    { tags, summary: 'Updates a child (id required)', body: StudentSubmitSchema, data },
    save,
  );

  removeRoute(r, '/api/student/student/removeStudent', {
    tags,
    summary: 'Deletes children (id or ids) in the caller’s data scope',
    idOrIds: true,
    table: 'student',
    alias: 's',
    scope: STUDENT,
    stamped: true,
  });
}
