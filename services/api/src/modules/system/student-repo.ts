import { type InferResult, type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { DB } from '@sprout/core/db';
import { whereFilled } from '../../http/filters';
import { IdSchema } from '../../http/params';
import { live, scopeColumns } from '../../http/query';

/** Data-scope fields of a child's row → columns. */
export const STUDENT_COLUMNS = scopeColumns('s', { deptId: 'dept_id', classId: 'class_id' });

/** The filters of a children list, as the API takes them. */
export const StudentFilterSchema = z.object({
  name: z.string().trim().max(64).optional(),
  classId: IdSchema.optional(),
  gender: z.coerce.number().int().optional(),
  status: z.coerce.number().int().optional(),
  studentNo: z.string().trim().max(32).optional(),
});
export type StudentFilter = z.output<typeof StudentFilterSchema>;

/** A children query with the class name; the caller adds the scope. */
export function studentQuery(db: Kysely<DB>, tenantId: string, f: StudentFilter) {
  const all = db.selectFrom('student as s').where('s.tenant_id', '=', tenantId).where(live('s'));
  const qb = whereFilled(all, f, 's', { name: 'like', classId: 'eq', gender: 'eq', status: 'eq', studentNo: 'eq' });
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

/** A child as a list reads them, with the class name. */
export type StudentRow = InferResult<ReturnType<typeof studentQuery>>[number];

/** The live class `classId` and its dept, if there is one. */
export const liveClass = (db: Kysely<DB>, tenantId: string, classId: string) =>
  db
    .selectFrom('clazz')
    .select(['id', 'dept_id'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', classId)
    .where(live())
    .executeTakeFirst();
