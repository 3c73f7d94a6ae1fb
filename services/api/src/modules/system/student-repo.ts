import { type Kysely, sql } from 'kysely';
import { containsPattern, type DB } from '@sprout/core/db';
import { live, writeRow } from '../../http/query';

/** Data-scope fields of a child's row → columns. */
export const STUDENT_COLUMNS = {
  tenantId: 's.tenant_id',
  id: 's.id',
  createUser: 's.create_user',
  deptId: 's.dept_id',
  classId: 's.class_id',
} as const;

/** A child as a list reads it, with the class name. */
export interface StudentRow {
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

/** The filters of a children list. */
export interface StudentFilter {
  name?: string;
  classId?: string;
  gender?: number;
  status?: number;
  studentNo?: string;
}

/** A children query with the class name; the caller adds the scope. */
export function studentQuery(db: Kysely<DB>, tenantId: string, f: StudentFilter) {
  let qb = db.selectFrom('student as s').where('s.tenant_id', '=', tenantId).where(live('s'));
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

/** The live class `classId` and its dept, if there is one. */
export const liveClass = (db: Kysely<DB>, tenantId: string, classId: string) =>
  db
    .selectFrom('clazz')
    .select(['id', 'dept_id'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', classId)
    .where(live())
    .executeTakeFirst();

/** The live child with `studentNo`, if any. */
export const studentWithNo = (db: Kysely<DB>, tenantId: string, studentNo: string) =>
  db
    .selectFrom('student')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(live())
    .where('student_no', '=', studentNo)
    .executeTakeFirst();

export interface StudentValues {
  name: string;
  gender: number;
  birth_date: string | null;
  class_id: string;
  dept_id: string | null;
  student_no: string | null;
  enroll_date: string | null;
  guardian_name: string | null;
  guardian_phone?: string | null;
  notes: string | null;
  status: number;
  update_user: string;
  update_time: Date;
}

/** Adds (no id) or updates a child; answers the id. */
export const writeStudent = (db: Kysely<DB>, tenantId: string, id: string | undefined, values: StudentValues) =>
  writeRow(db, 'student', tenantId, id, values, { create_user: values.update_user });
