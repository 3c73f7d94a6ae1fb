import { subject } from '@casl/ability';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { containsPattern, type DB, readInTenant } from '@sprout/core/db';
import { badRequest, notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { PageQuerySchema } from '@sprout/core/http/paging';
import { nextId } from '@sprout/core/ids';
import { fieldFilter } from '@sprout/core/permissions/fields';
import { findScopedPage } from '@sprout/core/permissions/scoped';
import { scopeWhere } from '@sprout/core/permissions/sql';
import { formatDateTime } from '@sprout/core/time';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { requireKnownIds } from '../../http/known';
import { DateSchema, IdOrIdsSchema, IdSchema, input, intEnum, optionalText, PHONE } from '../../http/params';

/** Data-scope fields of a child's row → columns. */
export const STUDENT_COLUMNS = {
  tenantId: 's.tenant_id',
  id: 's.id',
  createUser: 's.create_user',
  deptId: 's.dept_id',
  classId: 's.class_id',
} as const;

interface StudentRow {
  id: string;
  tenant_id: string;
  name: string;
  gender: number;
  birth_date: string | null;
  class_id: string | null;
  class_name: string | null;
  dept_id: string | null;
  student_no: string | null;
  enroll_date: string | null;
  guardian_name: string | null;
  guardian_phone: string | null;
  notes: string | null;
  status: number;
  create_user: string | null;
  create_time: Date;
  update_time: Date;
}

const str = (v: string | null | undefined) => (v === null || v === undefined ? '' : String(v));

/** A child as lists and details show it; field rules may drop guardianPhone (personal data). */
export const presentStudent = (s: StudentRow, tz: string) => ({
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
type StudentFilter = z.output<typeof StudentFilterSchema>;

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

/** A children query with the class name; the caller adds the scope. */
export function studentQuery(db: Kysely<DB>, tenantId: string, f: StudentFilter) {
  let qb = db.selectFrom('student as s').where('s.tenant_id', '=', tenantId).where('s.is_deleted', '=', 0);
  if (f.name) qb = qb.where('s.name', 'like', containsPattern(f.name));
  if (f.classId) qb = qb.where('s.class_id', '=', f.classId);
  if (f.gender) qb = qb.where('s.gender', '=', f.gender);
  if (f.status) qb = qb.where('s.status', '=', f.status);
  if (f.studentNo) qb = qb.where('s.student_no', '=', f.studentNo);
  return qb
    .select([
      's.id',
      's.tenant_id',
      's.name',
      's.gender',
      sql<string | null>`s.birth_date::text`.as('birth_date'),
      's.class_id',
      's.dept_id',
      's.student_no',
      sql<string | null>`s.enroll_date::text`.as('enroll_date'),
      's.guardian_name',
      's.guardian_phone',
      's.notes',
      's.status',
      's.create_user',
      's.create_time',
      's.update_time',
      sql<string | null>`(select c.name from clazz c where c.tenant_id = s.tenant_id and c.id = s.class_id)`.as(
        'class_name',
      ),
    ])
    .orderBy('s.class_id')
    .orderBy('s.student_no')
    .orderBy('s.id');
}

/**
 * Children (spec §7 /student/student): listStudents, listStudentsAll, detail, saveStudent,
 * updateStudent, removeStudent — confined to the caller's `student` data scope, with field
 * rules (a caregiver does not see the guardian's phone).
 */
export async function studentRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = app.config.TIME_ZONE;

  const findInScope = async (request: FastifyRequest, f: StudentFilter, id?: string, limit = 2000) => {
    const ctx = tenantOf(request);
    const perms = await permissionsOf(request);
    let qb = studentQuery(app.database.db, ctx.tenantId, f).where(
      scopeWhere(perms.ability, 'read', 'student', STUDENT_COLUMNS),
    );
    if (id) qb = qb.where('s.id', '=', id);
    const rows = await readInTenant<StudentRow>(app.database, ctx, qb.limit(limit).compile());
    const visible = fieldFilter(perms.ability, 'read', 'student');
    return rows.map((s) => visible(presentStudent(s, tz)));
  };

  r.get(
    '/api/student/student/listStudents',
    {
      schema: {
        tags: ['children'],
        summary: 'Children in the caller’s data scope, paged (name, classId, gender, status, studentNo)',
        querystring: PageQuerySchema.merge(StudentFilterSchema),
      },
    },
    async (request) => {
      const ctx = tenantOf(request);
      const perms = await permissionsOf(request);
      const page = await findScopedPage(
        app.database,
        ctx,
        perms.ability,
        'student',
        STUDENT_COLUMNS,
        studentQuery(app.database.db, ctx.tenantId, request.query),
        request.query,
        (s) => presentStudent(s, tz),
      );
      return ok(page, request.lang);
    },
  );

  r.get(
    '/api/student/student/listStudentsAll',
    {
      schema: {
        tags: ['children'],
        summary: 'Every child in the caller’s data scope (at most 2000; filters as listStudents)',
        querystring: StudentFilterSchema,
      },
    },
    async (request) => ok(await findInScope(request, request.query), request.lang),
  );

  r.get(
    '/api/student/student/detail',
    {
      schema: {
        tags: ['children'],
        summary: 'One child (404 outside the caller’s data scope)',
        querystring: z.object({ id: IdSchema }),
      },
    },
    async (request) => {
      const [s] = await findInScope(request, {}, request.query.id, 1);
      if (!s) throw notFound();
      return ok(s, request.lang);
    },
  );

  const save = async (request: FastifyRequest, b: z.output<typeof StudentSubmitSchema>) => {
    const ctx = tenantOf(request);
    const { tenantId, userId: me = '' } = ctx;
    const perms = await permissionsOf(request);
    const id = await request.tx(async (trx) => {
      let createUser: string | null = me;
      if (b.id) {
        const current = await trx
          .selectFrom('student as s')
          .select('s.create_user')
          .where('s.tenant_id', '=', tenantId)
          .where('s.id', '=', b.id)
          .where('s.is_deleted', '=', 0)
          .where(scopeWhere(perms.ability, 'update', 'student', STUDENT_COLUMNS))
          .executeTakeFirst();
        if (!current) throw notFound();
        createUser = current.create_user === null ? null : String(current.create_user);
      }
      const clazz = await trx
        .selectFrom('clazz')
        .select(['id', 'dept_id'])
        .where('tenant_id', '=', tenantId)
        .where('id', '=', b.classId)
        .where('is_deleted', '=', 0)
        .executeTakeFirst();
      if (!clazz) throw badRequest('system.classNotFound', { id: b.classId });
      const deptId = clazz.dept_id === null ? null : String(clazz.dept_id);
      // The child as it will be (in that class) must be in the caller's scope.
      if (
        !perms.ability.can(
          'update',
          subject('student', { tenantId, id: b.id ?? '0', createUser, classId: b.classId, deptId }),
        )
      )
        throw badRequest('system.outOfScope');
      if (b.studentNo) {
        const clash = await trx
          .selectFrom('student')
          .select('id')
          .where('tenant_id', '=', tenantId)
          .where('is_deleted', '=', 0)
          .where('student_no', '=', b.studentNo)
          .executeTakeFirst();
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
      if (b.id) {
        // A field the caller may not see is not theirs to change either.
        const canPhone = perms.ability.can(
          'read',
          subject('student', { tenantId, id: b.id, createUser, classId: b.classId, deptId }),
          'guardianPhone',
        );
        const { guardian_phone: _, ...rest } = values;
        await trx
          .updateTable('student')
          .set(canPhone ? values : rest)
          .where('tenant_id', '=', tenantId)
          .where('id', '=', b.id)
          .execute();
        return b.id;
      }
      const newId = nextId();
      await trx
        .insertInto('student')
        .values({ ...values, tenant_id: tenantId, id: newId, create_user: me })
        .execute();
      return newId;
    });
    const [s] = await findInScope(request, {}, id, 1);
    return s ?? { id };
  };

  r.post(
    '/api/student/student/saveStudent',
    {
      schema: {
        tags: ['children'],
        summary: 'Adds a child to a class in the caller’s data scope',
        body: StudentSubmitSchema.omit({ id: true }),
      },
    },
    async (request) => ok(await save(request, request.body), request.lang, 'system.added'),
  );

  r.post(
    '/api/student/student/updateStudent',
    { schema: { tags: ['children'], summary: 'Updates a child (id required)', body: StudentSubmitSchema } },
    async (request) => {
      if (!request.body.id) throw notFound();
      return ok(await save(request, request.body), request.lang, 'system.updated');
    },
  );

  r.route({
    method: 'POST',
    url: '/api/student/student/removeStudent',
    schema: { tags: ['children'], summary: 'Deletes children (id or ids) in the caller’s data scope' },
    handler: async (request) => {
      const { id, ids } = input(request, IdOrIdsSchema);
      const all = [...new Set([...(id ? [id] : []), ...(ids ?? [])])];
      const ctx = tenantOf(request);
      const perms = await permissionsOf(request);
      await request.tx(async (trx) => {
        // All or nothing: one child unknown or out of reach and none is deleted.
        const scope = scopeWhere(perms.ability, 'delete', 'student', STUDENT_COLUMNS);
        await requireKnownIds(trx, { table: 'student', alias: 's', tenantId: ctx.tenantId, ids: all, scope });
        await trx
          .updateTable('student')
          .set({ is_deleted: 1, update_user: ctx.userId ?? null, update_time: new Date() })
          .where('tenant_id', '=', ctx.tenantId)
          .where('id', 'in', all)
          .execute();
      });
      return ok(null, request.lang, 'system.removed');
    },
  });
}
