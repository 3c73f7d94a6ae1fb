import { type InferResult, type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { DB } from '@sprout/core/db';
import { whereFilled } from '../../http/filters';
import { liveNames } from '../../http/known';
import { IdSchema } from '../../http/params';
import { live, scopeColumns } from '../../http/query';

/** Data-scope fields of a class row → columns. */
export const CLAZZ_COLUMNS = scopeColumns('c', { deptId: 'dept_id' });

/** The filters of a class list, as the API takes them. */
export const ClazzFilterSchema = z.object({
  name: z.string().trim().max(64).optional(),
  grade: z.coerce.number().int().optional(),
  schoolYear: z.string().trim().max(9).optional(),
  deptId: IdSchema.optional(),
});
export type ClazzFilter = z.output<typeof ClazzFilterSchema>;

/** A class list query with the names a list shows; the caller adds the scope. */
export function clazzQuery(db: Kysely<DB>, tenantId: string, f: ClazzFilter) {
  const all = db.selectFrom('clazz as c').where('c.tenant_id', '=', tenantId).where(live('c'));
  const qb = whereFilled(all, f, 'c', { name: 'like', grade: 'eq', schoolYear: 'eq', deptId: 'eq' });
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
      sql<string>`(select count(*) from student s where s.tenant_id = c.tenant_id and s.class_id = c.id and ${live('s')})`.as(
        'student_count',
      ),
    ])
    .orderBy('c.school_year', 'desc')
    .orderBy('c.grade')
    .orderBy('c.name')
    .orderBy('c.id');
}

/** A class as a list reads it, with the names it shows. */
export type ClazzRow = InferResult<ReturnType<typeof clazzQuery>>[number];

/** The classes a user teaches or cares for. */
export const taughtBy = (userId: string) =>
  sql<boolean>`(${userId}::bigint in (c.head_teacher_id, c.caregiver_id) or ${userId}::bigint = any(c.teacher_ids))`;

/** Children follow their class's dept (dept scopes compare it). */
export const moveClassChildren = (db: Kysely<DB>, tenantId: string, classId: string, deptId: string | null) =>
  db
    .updateTable('student')
    .set({ dept_id: deptId })
    .where('tenant_id', '=', tenantId)
    .where('class_id', '=', classId)
    .execute();

/** The names of the classes of `ids` that live children belong to. */
export async function classesWithChildren(db: Kysely<DB>, tenantId: string, ids: string[]) {
  const used = await db
    .selectFrom('student')
    .select('class_id')
    .distinct()
    .where('tenant_id', '=', tenantId)
    .where(live())
    .where('class_id', 'in', ids)
    .execute();
  if (!used.length) return [];
  const inUse = new Set(used.map((u) => String(u.class_id)));
  const rows = await liveNames(db, 'clazz', tenantId, ids);
  return rows.filter((c) => inUse.has(String(c.id))).map((c) => c.name);
}
