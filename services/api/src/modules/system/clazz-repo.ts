import { type Kysely, sql } from 'kysely';
import { containsPattern, type DB } from '@sprout/core/db';
import { live, writeRow } from '../../http/query';

/** Data-scope fields of a class row → columns. */
export const CLAZZ_COLUMNS = {
  tenantId: 'c.tenant_id',
  id: 'c.id',
  createUser: 'c.create_user',
  deptId: 'c.dept_id',
} as const;

/** A class as a list reads it, with the names it shows. */
export interface ClazzRow {
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

/** The filters of a class list. */
export interface ClazzFilter {
  name?: string;
  grade?: number;
  schoolYear?: string;
  deptId?: string;
}

/** A class list query with the names a list shows; the caller adds the scope. */
export function clazzQuery(db: Kysely<DB>, tenantId: string, f: ClazzFilter) {
  let qb = db.selectFrom('clazz as c').where('c.tenant_id', '=', tenantId).where(live('c'));
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
      sql<string>`(select count(*) from student s where s.tenant_id = c.tenant_id and s.class_id = c.id and ${live('s')})`.as(
        'student_count',
      ),
    ])
    .orderBy('c.school_year', 'desc')
    .orderBy('c.grade')
    .orderBy('c.name')
    .orderBy('c.id');
}

/** The classes a user teaches or cares for. */
export const taughtBy = (userId: string) =>
  sql<boolean>`(${userId}::bigint in (c.head_teacher_id, c.caregiver_id) or ${userId}::bigint = any(c.teacher_ids))`;

/** The live class of the school year named `name`, if any. */
export const classWithName = (db: Kysely<DB>, tenantId: string, schoolYear: string, name: string) =>
  db
    .selectFrom('clazz')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(live())
    .where('school_year', '=', schoolYear)
    .where('name', '=', name)
    .executeTakeFirst();

export interface ClazzValues {
  name: string;
  grade: number;
  school_year: string;
  dept_id: string | null;
  head_teacher_id: string | null;
  teacher_ids: string[];
  caregiver_id: string | null;
  room: string | null;
  capacity: number | null;
  remark: string | null;
  update_user: string;
  update_time: Date;
}

/** Adds (no id) or updates a class; answers its id. */
export const writeClazz = (db: Kysely<DB>, tenantId: string, id: string | undefined, values: ClazzValues) =>
  writeRow(db, 'clazz', tenantId, id, values, { create_user: values.update_user });

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
  const rows = await db
    .selectFrom('clazz as c')
    .select(['c.id', 'c.name'])
    .where('c.tenant_id', '=', tenantId)
    .where(live('c'))
    .where('c.id', 'in', ids)
    .execute();
  return rows.filter((c) => inUse.has(String(c.id))).map((c) => c.name);
}
