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
import { creatorInScope, liveIds, refuseMissing } from '../../http/known';
import { IdListSchema, IdSchema, intEnum, NullableIdSchema, optionalText } from '../../http/params';
import { detailRoute, getRoute, postRoute } from '../../http/routes';
import {
  CLAZZ_COLUMNS,
  type ClazzRow,
  classesWithChildren,
  classWithName,
  clazzQuery,
  moveClassChildren,
  taughtBy,
  writeClazz,
} from './clazz-repo';
import { removeRoute, type Scoped, scopedPage, scopedRows, submitRoute, updateRoute } from './shapes';

/** Grades: 1 托班, 2 小班, 3 中班, 4 大班. */
export const GRADES = [1, 2, 3, 4] as const;

/** A class as lists and details show it. */
export const ClazzSchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  name: z.string(),
  grade: z.number().int(),
  schoolYear: z.string(),
  deptId: z.string(),
  deptName: z.string(),
  headTeacherId: z.string(),
  headTeacherName: z.string(),
  teacherIds: z.array(z.string()),
  teacherNames: z.string(),
  caregiverId: z.string(),
  caregiverName: z.string(),
  room: z.string(),
  capacity: z.number().int().nullable(),
  remark: z.string(),
  studentCount: z.number().int(),
  createUser: z.string(),
  createTime: z.string().nullable(),
  updateTime: z.string().nullable(),
});

const str = (v: string | null | undefined) => (v === null || v === undefined ? '' : String(v));

export const presentClazz = (c: ClazzRow, tz: string): z.output<typeof ClazzSchema> => ({
  id: String(c.id),
  tenantId: c.tenant_id,
  name: c.name,
  grade: c.grade,
  schoolYear: c.school_year,
  deptId: str(c.dept_id),
  deptName: c.dept_name ?? '',
  headTeacherId: str(c.head_teacher_id),
  headTeacherName: c.head_teacher_name ?? '',
  teacherIds: (c.teacher_ids ?? []).map(String),
  teacherNames: c.teacher_names ?? '',
  caregiverId: str(c.caregiver_id),
  caregiverName: c.caregiver_name ?? '',
  room: c.room ?? '',
  capacity: c.capacity,
  remark: c.remark ?? '',
  studentCount: Number(c.student_count),
  createUser: str(c.create_user),
  createTime: formatDateTime(c.create_time, tz),
  updateTime: formatDateTime(c.update_time, tz),
});

const ClazzFilterSchema = z.object({
  name: z.string().trim().max(64).optional(),
  grade: z.coerce.number().int().optional(),
  schoolYear: z.string().trim().max(9).optional(),
  deptId: IdSchema.optional(),
});

const nullableId = NullableIdSchema;

export const ClazzSubmitSchema = z.object({
  id: IdSchema.optional(),
  name: z.string().trim().min(1, '$validation.required').max(64),
  grade: intEnum(GRADES),
  schoolYear: z
    .string()
    .trim()
    .regex(/^\d{4}-\d{4}$/, '$validation.schoolYear')
    .refine((v) => Number(v.slice(5)) === Number(v.slice(0, 4)) + 1, '$validation.schoolYear'),
  deptId: nullableId,
  headTeacherId: nullableId,
  teacherIds: IdListSchema.default([]),
  caregiverId: nullableId,
  room: optionalText(64),
  capacity: z.coerce.number().int().min(1).max(100).nullish(),
  remark: optionalText(255),
});

const CLAZZ: Scoped = { resource: 'clazz', columns: CLAZZ_COLUMNS };

/** Classes of the caller's read scope (at most 1000): `where` narrows them. */
const classesInScope = (
  request: FastifyRequest,
  f: z.output<typeof ClazzFilterSchema>,
  where?: Parameters<ReturnType<typeof clazzQuery>['where']>[0],
) =>
  scopedRows(
    request,
    CLAZZ,
    (db, tenantId) => (where ? clazzQuery(db, tenantId, f).where(where) : clazzQuery(db, tenantId, f)),
    presentClazz,
    1000,
  );

const tags = ['classes'];

/**
 * Classes (spec §7 /clazz/classinfo): list, getClassList, detail, submit, update, remove,
 * classListForUser — each confined to the caller's `clazz` data scope. Who teaches a class
 * decides teachers' "own classes" scopes, so a change rebuilds the tenant's abilities.
 */
export async function clazzRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  getRoute(
    r,
    '/api/clazz/classinfo/list',
    {
      tags,
      summary: 'Classes in the caller’s data scope, paged (name, grade, schoolYear, deptId)',
      query: PageQuerySchema.merge(ClazzFilterSchema),
      data: pageSchema(ClazzSchema),
    },
    (request, q) => scopedPage(request, CLAZZ, (db, tenantId) => clazzQuery(db, tenantId, q), q, presentClazz),
  );

  postRoute(
    r,
    '/api/clazz/classinfo/getClassList',
    {
      tags,
      summary: 'Every class in the caller’s data scope (filters in the body or query)',
      merged: ClazzFilterSchema,
      data: z.array(ClazzSchema),
    },
    (request, f) => classesInScope(request, f),
  );

  getRoute(
    r,
    '/api/clazz/classinfo/classListForUser',
    {
      tags,
      summary: 'The classes a user (default: the caller) teaches or cares for, within the caller’s data scope',
      query: z.object({ userId: IdSchema.optional(), schoolYear: z.string().trim().max(9).optional() }),
      data: z.array(ClazzSchema),
    },
    (request, q) =>
      classesInScope(request, { schoolYear: q.schoolYear }, taughtBy(q.userId ?? (tenantOf(request).userId as string))),
  );

  detailRoute(
    r,
    '/api/clazz/classinfo/detail',
    { tags, summary: 'One class (404 outside the caller’s data scope)', data: ClazzSchema },
    async (request, id) => (await classesInScope(request, {}, (eb) => eb('c.id', '=', id)))[0],
  );

  const save = async (request: FastifyRequest, b: z.output<typeof ClazzSubmitSchema>) => {
    const ctx = tenantOf(request);
    const { tenantId, userId: me = '' } = ctx;
    const perms = await permissionsOf(request);
    const id = await request.tx(async (trx) => {
      let createUser: string | null = me;
      if (b.id) {
        const scope = scopeWhere(perms.ability, 'update', 'clazz', CLAZZ_COLUMNS);
        const current = await creatorInScope(trx, { table: 'clazz', alias: 'c', tenantId, id: b.id, scope });
        if (current === undefined) throw notFound('system.classNotFound', { id: b.id });
        createUser = current;
      }
      // The class as it will be must stay in the caller's scope.
      if (!perms.ability.can('update', subject('clazz', { tenantId, id: b.id ?? '0', createUser, deptId: b.deptId })))
        throw badRequest('system.outOfScope');
      if (b.deptId)
        refuseMissing([b.deptId], await liveIds(trx, 'dept', [b.deptId], tenantId), 'system.deptNotFound', 'id');
      const people = [
        ...new Set([b.headTeacherId, b.caregiverId, ...b.teacherIds].filter((x): x is string => Boolean(x))),
      ];
      if (people.length)
        refuseMissing(people, await liveIds(trx, 'app_user', people, tenantId), 'system.classUsersUnknown');
      const clash = await classWithName(trx, tenantId, b.schoolYear, b.name);
      if (clash && String(clash.id) !== b.id) throw badRequest('system.classNameExists', { name: b.name });
      // The head teacher teaches the class too.
      const teacherIds =
        b.headTeacherId && !b.teacherIds.includes(b.headTeacherId) ? [b.headTeacherId, ...b.teacherIds] : b.teacherIds;
      const saved = await writeClazz(trx, tenantId, b.id, {
        name: b.name,
        grade: b.grade,
        school_year: b.schoolYear,
        dept_id: b.deptId,
        head_teacher_id: b.headTeacherId,
        teacher_ids: teacherIds,
        caregiver_id: b.caregiverId,
        room: b.room,
        capacity: b.capacity ?? null,
        remark: b.remark,
        update_user: me,
        update_time: new Date(),
      });
      if (b.id) await moveClassChildren(trx, tenantId, b.id, b.deptId);
      return saved;
    });
    await app.permissions.invalidateTenant(tenantId);
    const [c] = await classesInScope(request, {}, (eb) => eb('c.id', '=', id));
    return c ?? { id };
  };

  const body = ClazzSubmitSchema;
  const data = ClazzSchema.partial();
  submitRoute(r, '/api/clazz/classinfo/submit', { tags, summary: 'Adds (no id) or updates a class', body, data }, save);
  updateRoute(r, '/api/clazz/classinfo/update', { tags, summary: 'Updates a class (id required)', body, data }, save);

  removeRoute(r, '/api/clazz/classinfo/remove', {
    tags,
    summary: 'Deletes classes (id or ids) in the caller’s data scope; refused while children belong to them',
    idOrIds: true,
    table: 'clazz',
    alias: 'c',
    scope: CLAZZ,
    stamped: true,
    refuse: async (trx, tenantId, ids) => {
      const names = await classesWithChildren(trx, tenantId, ids);
      if (names.length) throw badRequest('system.classHasStudents', { names: names.join('、') });
    },
    after: (_request, tenantId) => app.permissions.invalidateTenant(tenantId),
  });
}
