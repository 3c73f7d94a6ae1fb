import { subject } from '@casl/ability';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DB, TenantContext } from '@sprout/core/db';
import { badRequest, notFound } from '@sprout/core/errors';
import { PageQuerySchema } from '@sprout/core/http/paging';
import { formatDateTime } from '@sprout/core/time';
import { permissionsOf } from '../../plugins/auth';
import { pageSchema } from '../../plugins/serialization';
import { tenantOf } from '../../plugins/context';
import { int, intOrNull, orEmpty, text, texts, time } from '../../http/answer';
import { liveIds, refuseMissing, refuseTaken } from '../../http/known';
import { IdListSchema, IdSchema, intEnum, NullableIdSchema, optionalText } from '../../http/params';
import { writeRow } from '../../http/query';
import {
  CLAZZ_COLUMNS,
  type ClazzRow,
  type ClazzFilter,
  ClazzFilterSchema,
  classesWithChildren,
  clazzQuery,
  moveClassChildren,
  taughtBy,
} from './clazz-repo';
import { creatorToUpdate, routesOf, type ScopedTable, scopedPage, scopedRows } from './shapes';

/** Grades: 1 托班, 2 小班, 3 中班, 4 大班. */
export const GRADES = [1, 2, 3, 4] as const;

/** A class as lists and details show it. */
export const ClazzSchema = z.object({
  id: text,
  tenantId: text,
  name: text,
  grade: int,
  schoolYear: text,
  deptId: text,
  deptName: text,
  headTeacherId: text,
  headTeacherName: text,
  teacherIds: texts,
  teacherNames: text,
  caregiverId: text,
  caregiverName: text,
  room: text,
  capacity: intOrNull,
  remark: text,
  studentCount: int,
  createUser: text,
  createTime: time,
  updateTime: time,
});

export const presentClazz = (c: ClazzRow, tz: string): z.output<typeof ClazzSchema> => ({
  id: String(c.id),
  tenantId: c.tenant_id,
  name: c.name,
  grade: c.grade,
  schoolYear: c.school_year,
  deptId: orEmpty(c.dept_id),
  deptName: c.dept_name ?? '',
  headTeacherId: orEmpty(c.head_teacher_id),
  headTeacherName: c.head_teacher_name ?? '',
  teacherIds: (c.teacher_ids ?? []).map(String),
  teacherNames: c.teacher_names ?? '',
  caregiverId: orEmpty(c.caregiver_id),
  caregiverName: c.caregiver_name ?? '',
  room: c.room ?? '',
  capacity: c.capacity,
  remark: c.remark ?? '',
  studentCount: Number(c.student_count),
  createUser: orEmpty(c.create_user),
  createTime: formatDateTime(c.create_time, tz),
  updateTime: formatDateTime(c.update_time, tz),
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

const CLAZZ: ScopedTable = { resource: 'clazz', columns: CLAZZ_COLUMNS, table: 'clazz', alias: 'c' };

/** Classes of the caller's read scope (at most 1000): of a filter, and only the one of `id` or those `taughtBy` a user. */
const classesInScope = (request: FastifyRequest, f: ClazzFilter, only: { id?: string; taughtBy?: string } = {}) => {
  const query = (db: Kysely<DB>, tenantId: string) => {
    let qb = clazzQuery(db, tenantId, f);
    if (only.id) qb = qb.where('c.id', '=', only.id);
    if (only.taughtBy) qb = qb.where(taughtBy(only.taughtBy));
    return qb;
  };
  return scopedRows(request, CLAZZ, query, presentClazz, 1000);
};

/**
 * Classes (spec §7 /clazz/classinfo): list, getClassList, detail, submit, update, remove,
 * classListForUser — each confined to the caller's `clazz` data scope. Who teaches a class
 * decides teachers' "own classes" scopes, so a change rebuilds the tenant's abilities.
 */
// Hand-written, not defineResource: every call is confined to the caller's data scope, and its answers carry joined names, counts, createUser and updateTime.
export async function clazzRoutes(app: FastifyInstance) {
  const route = routesOf(app, 'classes');

  route.get('/api/clazz/classinfo/list', {
    summary: 'Classes in the caller’s data scope, paged (name, grade, schoolYear, deptId)',
    query: PageQuerySchema.merge(ClazzFilterSchema),
    data: pageSchema(ClazzSchema),
    handler: (request, q) => scopedPage(request, CLAZZ, (db, tenantId) => clazzQuery(db, tenantId, q), q, presentClazz),
  });

  route.post('/api/clazz/classinfo/getClassList', {
    summary: 'Every class in the caller’s data scope (filters in the body or query)',
    merged: ClazzFilterSchema,
    data: z.array(ClazzSchema),
    handler: (request, f) => classesInScope(request, f),
  });

  route.get('/api/clazz/classinfo/classListForUser', {
    summary: 'The classes a user (default: the caller) teaches or cares for, within the caller’s data scope',
    query: z.object({ userId: IdSchema.optional(), schoolYear: z.string().trim().max(9).optional() }),
    data: z.array(ClazzSchema),
    handler: (request, q) =>
      classesInScope(
        request,
        { schoolYear: q.schoolYear },
        { taughtBy: q.userId ?? (tenantOf(request).userId as string) },
      ),
  });

  route.detail('/api/clazz/classinfo/detail', {
    summary: 'One class (404 outside the caller’s data scope)',
    data: ClazzSchema,
    find: async (request, id) => (await classesInScope(request, {}, { id }))[0],
  });

  const save = async (request: FastifyRequest, b: z.output<typeof ClazzSubmitSchema>, ctx: TenantContext) => {
    const { tenantId, userId: me = '' } = ctx;
    const perms = await permissionsOf(request);
    const id = await request.tx(async (trx) => {
      const missing = (id: string) => notFound('system.classNotFound', { id });
      const createUser = b.id ? await creatorToUpdate(trx, perms.ability, CLAZZ, { tenantId, id: b.id, missing }) : me;
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
      const values = { school_year: b.schoolYear, name: b.name };
      await refuseTaken(trx, { table: 'clazz', tenantId, values, id: b.id }, 'system.classNameExists', {
        name: b.name,
      });
      // The head teacher teaches the class too.
      const teacherIds =
        b.headTeacherId && !b.teacherIds.includes(b.headTeacherId) ? [b.headTeacherId, ...b.teacherIds] : b.teacherIds;
      const saved = await writeRow(
        trx,
        'clazz',
        tenantId,
        b.id,
        {
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
        },
        { create_user: me },
      );
      if (b.id) await moveClassChildren(trx, tenantId, b.id, b.deptId);
      return saved;
    });
    await app.permissions.invalidateTenant(tenantId);
    const [c] = await classesInScope(request, {}, { id });
    return c ?? { id };
  };

  const body = ClazzSubmitSchema;
  const data = ClazzSchema.partial();
  route.submit('/api/clazz/classinfo/submit', { summary: 'Adds (no id) or updates a class', body, data, save });
  route.update('/api/clazz/classinfo/update', { summary: 'Updates a class (id required)', body, data, save });

  route.remove('/api/clazz/classinfo/remove', {
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
