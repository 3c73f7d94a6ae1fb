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
import { refuseUnknownIds } from '../../http/known';
import {
  IdListSchema,
  IdOrIdsSchema,
  IdSchema,
  input,
  intEnum,
  NullableIdSchema,
  optionalText,
} from '../../http/params';

/** Data-scope fields of a class row → columns. */
export const CLAZZ_COLUMNS = {
  tenantId: 'c.tenant_id',
  id: 'c.id',
  createUser: 'c.create_user',
  deptId: 'c.dept_id',
} as const;

/** Grades: 1 托班, 2 小班, 3 中班, 4 大班. */
export const GRADES = [1, 2, 3, 4] as const;

interface ClazzRow {
  id: string;
  tenant_id: string;
  name: string;
  grade: number;
  school_year: string;
  dept_id: string | null;
  dept_name: string | null;
  head_teacher_id: string | null;
  head_teacher_name: string | null;
  teacher_ids: string[];
  teacher_names: string | null;
  caregiver_id: string | null;
  caregiver_name: string | null;
  room: string | null;
  capacity: number | null;
  remark: string | null;
  student_count: string;
  create_user: string | null;
  create_time: Date;
  update_time: Date;
}

const str = (v: string | null | undefined) => (v === null || v === undefined ? '' : String(v));

export const presentClazz = (c: ClazzRow, tz: string) => ({
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
type ClazzFilter = z.output<typeof ClazzFilterSchema>;

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

/** A class list query with the names a list shows; the caller adds the scope. */
export function clazzQuery(db: Kysely<DB>, tenantId: string, f: ClazzFilter) {
  let qb = db.selectFrom('clazz as c').where('c.tenant_id', '=', tenantId).where('c.is_deleted', '=', 0);
  if (f.name) qb = qb.where('c.name', 'like', containsPattern(f.name));
  if (f.grade) qb = qb.where('c.grade', '=', f.grade);
  if (f.schoolYear) qb = qb.where('c.school_year', '=', f.schoolYear);
  if (f.deptId) qb = qb.where('c.dept_id', '=', f.deptId);
  const userName = (col: string) =>
    sql<
      string | null
    >`(select coalesce(u.real_name, u.account) from app_user u where u.tenant_id = c.tenant_id and u.id = ${sql.ref(col)})`;
  return qb
    .select([
      'c.id',
      'c.tenant_id',
      'c.name',
      'c.grade',
      'c.school_year',
      'c.dept_id',
      'c.head_teacher_id',
      sql<string[]>`c.teacher_ids::text[]`.as('teacher_ids'),
      'c.caregiver_id',
      'c.room',
      'c.capacity',
      'c.remark',
      'c.create_user',
      'c.create_time',
      'c.update_time',
      sql<string | null>`(select d.dept_name from dept d where d.tenant_id = c.tenant_id and d.id = c.dept_id)`.as(
        'dept_name',
      ),
      userName('c.head_teacher_id').as('head_teacher_name'),
      userName('c.caregiver_id').as('caregiver_name'),
      sql<
        string | null
      >`(select string_agg(coalesce(u.real_name, u.account), ',' order by array_position(c.teacher_ids, u.id))
        from app_user u where u.tenant_id = c.tenant_id and u.id = any(c.teacher_ids))`.as('teacher_names'),
      sql<string>`(select count(*) from student s where s.tenant_id = c.tenant_id and s.class_id = c.id and s.is_deleted = 0)`.as(
        'student_count',
      ),
    ])
    .orderBy('c.school_year', 'desc')
    .orderBy('c.grade')
    .orderBy('c.name')
    .orderBy('c.id');
}

/**
 * Classes (spec §7 /clazz/classinfo): list, getClassList, detail, submit, update, remove,
 * classListForUser — each confined to the caller's `clazz` data scope. Who teaches a class
 * decides teachers' "own classes" scopes, so a change rebuilds the tenant's abilities.
 */
export async function clazzRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tz = app.config.TIME_ZONE;

  const listInScope = async (
    request: FastifyRequest,
    f: ClazzFilter,
    extra?: (qb: ReturnType<typeof clazzQuery>) => ReturnType<typeof clazzQuery>,
  ) => {
    const ctx = tenantOf(request);
    const perms = await permissionsOf(request);
    let qb = clazzQuery(app.database.db, ctx.tenantId, f).where(
      scopeWhere(perms.ability, 'read', 'clazz', CLAZZ_COLUMNS),
    );
    if (extra) qb = extra(qb);
    const rows = await readInTenant<ClazzRow>(app.database, ctx, qb.limit(1000).compile());
    const visible = fieldFilter(perms.ability, 'read', 'clazz');
    return rows.map((c) => visible(presentClazz(c, tz)));
  };

  r.get(
    '/api/clazz/classinfo/list',
    {
      schema: {
        tags: ['classes'],
        summary: 'Classes in the caller’s data scope, paged (name, grade, schoolYear, deptId)',
        querystring: PageQuerySchema.merge(ClazzFilterSchema),
      },
    },
    async (request) => {
      const ctx = tenantOf(request);
      const perms = await permissionsOf(request);
      const page = await findScopedPage(
        app.database,
        ctx,
        perms.ability,
        'clazz',
        CLAZZ_COLUMNS,
        clazzQuery(app.database.db, ctx.tenantId, request.query),
        request.query,
        (c) => presentClazz(c, tz),
      );
      return ok(page, request.lang);
    },
  );

  r.post(
    '/api/clazz/classinfo/getClassList',
    {
      schema: {
        tags: ['classes'],
        summary: 'Every class in the caller’s data scope (filters in the body or query)',
      },
    },
    async (request) => ok(await listInScope(request, input(request, ClazzFilterSchema)), request.lang),
  );

  r.get(
    '/api/clazz/classinfo/classListForUser',
    {
      schema: {
        tags: ['classes'],
        summary: 'The classes a user (default: the caller) teaches or cares for, within the caller’s data scope',
        querystring: z.object({ userId: IdSchema.optional(), schoolYear: z.string().trim().max(9).optional() }),
      },
    },
    async (request) => {
      const userId = request.query.userId ?? (tenantOf(request).userId as string);
      return ok(
        await listInScope(request, { schoolYear: request.query.schoolYear }, (qb) =>
          qb.where(
            sql<boolean>`(${userId}::bigint in (c.head_teacher_id, c.caregiver_id) or ${userId}::bigint = any(c.teacher_ids))`,
          ),
        ),
        request.lang,
      );
    },
  );

  r.get(
    '/api/clazz/classinfo/detail',
    {
      schema: {
        tags: ['classes'],
        summary: 'One class (404 outside the caller’s data scope)',
        querystring: z.object({ id: IdSchema }),
      },
    },
    async (request) => {
      const [c] = await listInScope(request, {}, (qb) => qb.where('c.id', '=', request.query.id));
      if (!c) throw notFound();
      return ok(c, request.lang);
    },
  );

  const save = async (request: FastifyRequest, b: z.output<typeof ClazzSubmitSchema>) => {
    const ctx = tenantOf(request);
    const { tenantId, userId: me = '' } = ctx;
    const perms = await permissionsOf(request);
    const id = await request.tx(async (trx) => {
      let createUser: string | null = me;
      if (b.id) {
        const current = await trx
          .selectFrom('clazz as c')
          .select(['c.create_user'])
          .where('c.tenant_id', '=', tenantId)
          .where('c.id', '=', b.id)
          .where('c.is_deleted', '=', 0)
          .where(scopeWhere(perms.ability, 'update', 'clazz', CLAZZ_COLUMNS))
          .executeTakeFirst();
        if (!current) throw notFound('system.classNotFound', { id: b.id });
        createUser = current.create_user === null ? null : String(current.create_user);
      }
      // The class as it will be must stay in the caller's scope.
      if (!perms.ability.can('update', subject('clazz', { tenantId, id: b.id ?? '0', createUser, deptId: b.deptId })))
        throw badRequest('system.outOfScope');
      if (b.deptId) {
        const d = await trx
          .selectFrom('dept')
          .select('id')
          .where('tenant_id', '=', tenantId)
          .where('id', '=', b.deptId)
          .where('is_deleted', '=', 0)
          .executeTakeFirst();
        if (!d) throw badRequest('system.deptNotFound', { id: b.deptId });
      }
      const people = [
        ...new Set([b.headTeacherId, b.caregiverId, ...b.teacherIds].filter((x): x is string => Boolean(x))),
      ];
      if (people.length) {
        const found = await trx
          .selectFrom('app_user')
          .select('id')
          .where('tenant_id', '=', tenantId)
          .where('is_deleted', '=', 0)
          .where('id', 'in', people)
          .execute();
        const have = new Set(found.map((u) => String(u.id)));
        const missing = people.filter((p) => !have.has(p));
        if (missing.length) throw badRequest('system.classUsersUnknown', { ids: missing.join(',') });
      }
      const clash = await trx
        .selectFrom('clazz')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('is_deleted', '=', 0)
        .where('school_year', '=', b.schoolYear)
        .where('name', '=', b.name)
        .executeTakeFirst();
      if (clash && String(clash.id) !== b.id) throw badRequest('system.classNameExists', { name: b.name });
      // The head teacher teaches the class too.
      const teacherIds =
        b.headTeacherId && !b.teacherIds.includes(b.headTeacherId) ? [b.headTeacherId, ...b.teacherIds] : b.teacherIds;
      const values = {
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
      };
      if (b.id) {
        await trx.updateTable('clazz').set(values).where('tenant_id', '=', tenantId).where('id', '=', b.id).execute();
        // Children follow their class's dept (dept scopes compare it).
        await trx
          .updateTable('student')
          .set({ dept_id: b.deptId })
          .where('tenant_id', '=', tenantId)
          .where('class_id', '=', b.id)
          .execute();
        return b.id;
      }
      const newId = nextId();
      await trx
        .insertInto('clazz')
        .values({ ...values, tenant_id: tenantId, id: newId, create_user: me })
        .execute();
      return newId;
    });
    await app.permissions.invalidateTenant(tenantId);
    const [c] = await listInScope(request, {}, (qb) => qb.where('c.id', '=', id));
    return c ?? { id };
  };

  r.post(
    '/api/clazz/classinfo/submit',
    { schema: { tags: ['classes'], summary: 'Adds (no id) or updates a class', body: ClazzSubmitSchema } },
    async (request) =>
      ok(await save(request, request.body), request.lang, request.body.id ? 'system.updated' : 'system.added'),
  );

  r.post(
    '/api/clazz/classinfo/update',
    { schema: { tags: ['classes'], summary: 'Updates a class (id required)', body: ClazzSubmitSchema } },
    async (request) => {
      if (!request.body.id) throw notFound();
      return ok(await save(request, request.body), request.lang, 'system.updated');
    },
  );

  r.route({
    method: 'POST',
    url: '/api/clazz/classinfo/remove',
    schema: {
      tags: ['classes'],
      summary: 'Deletes classes (id or ids) in the caller’s data scope; refused while children belong to them',
    },
    handler: async (request) => {
      const { id, ids } = input(request, IdOrIdsSchema);
      const all = [...new Set([...(id ? [id] : []), ...(ids ?? [])])];
      const ctx = tenantOf(request);
      const perms = await permissionsOf(request);
      await request.tx(async (trx) => {
        const rows = await trx
          .selectFrom('clazz as c')
          .select(['c.id', 'c.name'])
          .where('c.tenant_id', '=', ctx.tenantId)
          .where('c.is_deleted', '=', 0)
          .where('c.id', 'in', all)
          .where(scopeWhere(perms.ability, 'delete', 'clazz', CLAZZ_COLUMNS))
          .forUpdate()
          .execute();
        refuseUnknownIds(
          all,
          rows.map((c) => c.id),
        );
        const used = await trx
          .selectFrom('student')
          .select('class_id')
          .distinct()
          .where('tenant_id', '=', ctx.tenantId)
          .where('is_deleted', '=', 0)
          .where('class_id', 'in', all)
          .execute();
        if (used.length) {
          const inUse = new Set(used.map((u) => String(u.class_id)));
          throw badRequest('system.classHasStudents', {
            names: rows
              .filter((c) => inUse.has(String(c.id)))
              .map((c) => c.name)
              .join('、'),
          });
        }
        await trx
          .updateTable('clazz')
          .set({ is_deleted: 1, update_user: ctx.userId ?? null, update_time: new Date() })
          .where('tenant_id', '=', ctx.tenantId)
          .where('id', 'in', all)
          .execute();
      });
      await app.permissions.invalidateTenant(ctx.tenantId);
      return ok(null, request.lang, 'system.removed');
    },
  });
}
