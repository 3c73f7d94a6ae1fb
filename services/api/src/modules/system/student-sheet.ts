import { subject } from '@casl/ability';
import { type Kysely, sql } from 'kysely';
import type { DB } from '@sprout/core/db';
import type { Lang } from '@sprout/core/i18n';
import { nextId } from '@sprout/core/ids';
import type { AppAbility } from '@sprout/core/permissions/ability';
import { choiceName, RowChecker, type SheetChoice, type SheetColumn, type SheetRow } from '../../http/sheet';

/** The children sheet (import, export, a class's roster): the class by name, the guardian beside the child. */
export const STUDENT_COLUMNS_SHEET = [
  { key: 'name', zh: '姓名', en: 'Name', required: true, width: 12 },
  { key: 'gender', zh: '性别', en: 'Gender', required: true, width: 8 },
  { key: 'birthDate', zh: '出生日期', en: 'Birth date', width: 12 },
  { key: 'className', zh: '班级', en: 'Class', required: true, width: 12 },
  { key: 'studentNo', zh: '学号', en: 'Student number', width: 14 },
  { key: 'enrollDate', zh: '入园日期', en: 'Enrolment date', width: 12 },
  { key: 'guardianName', zh: '监护人', en: 'Guardian', width: 12 },
  { key: 'guardianPhone', zh: '监护人电话', en: 'Guardian phone', width: 14 },
  { key: 'notes', zh: '备注', en: 'Notes', width: 24 },
] as const satisfies readonly SheetColumn[];
export type StudentColumn = (typeof STUDENT_COLUMNS_SHEET)[number]['key'];

export const CHILD_GENDERS: SheetChoice[] = [
  { code: 1, zh: '男', en: 'Boy' },
  { code: 2, zh: '女', en: 'Girl' },
];

/** A child to add, checked. */
export interface PlannedChild {
  name: string;
  gender: number;
  birth_date: string | null;
  class_id: string;
  dept_id: string | null;
  student_no: string | null;
  enroll_date: string | null;
  guardian_name: string | null;
  guardian_phone: string | null;
  notes: string | null;
}

/**
 * Every problem of every row of a children sheet, and the children to add when there is none:
 * the class must be a live class of the tenant the caller may add children to (her `student`
 * data scope); a student number must be free and appear once in the file.
 */
export async function checkChildRows(
  trx: Kysely<DB>,
  q: { tenantId: string; userId: string; lang: Lang; ability: AppAbility; rows: SheetRow<StudentColumn>[] },
) {
  const c = new RowChecker(q.lang, STUDENT_COLUMNS_SHEET);
  const classes = await sql<{ id: string; name: string; dept_id: string | null }>`select id::text, name, dept_id::text
    from clazz where tenant_id = ${q.tenantId} and is_deleted = 0 order by id`.execute(trx);
  const byName = new Map(classes.rows.map((r) => [r.name, r]));
  const numbers = await sql<{ student_no: string }>`select student_no from student
    where tenant_id = ${q.tenantId} and is_deleted = 0 and student_no is not null`.execute(trx);
  const taken = new Set(numbers.rows.map((r) => r.student_no));
  const seen = new Map<string, number>();
  const planned: PlannedChild[] = [];
  for (const r of q.rows) {
    const className = c.text(r, 'className', 64, true);
    const clazz = className === null ? undefined : byName.get(className);
    if (className !== null && !clazz) c.problem(r, 'className', 'system.sheetClass', { name: className });
    if (clazz) {
      const after = subject('student', {
        tenantId: q.tenantId,
        id: '0',
        createUser: q.userId,
        classId: clazz.id,
        deptId: clazz.dept_id,
      });
      if (!q.ability.can('update', after)) c.problem(r, 'className', 'system.outOfScope');
    }
    const studentNo = c.text(r, 'studentNo', 32);
    if (studentNo) {
      const first = seen.get(studentNo);
      if (first !== undefined) c.problem(r, 'studentNo', 'sheet.duplicate', { row: first });
      else if (taken.has(studentNo)) c.problem(r, 'studentNo', 'system.studentNoExists', { no: studentNo });
      seen.set(studentNo, first ?? r.row);
    }
    planned.push({
      name: c.text(r, 'name', 64, true) ?? '',
      gender: c.choice(r, 'gender', CHILD_GENDERS, true) ?? 1,
      birth_date: c.date(r, 'birthDate'),
      class_id: clazz?.id ?? '0',
      dept_id: clazz?.dept_id ?? null,
      student_no: studentNo,
      enroll_date: c.date(r, 'enrollDate'),
      guardian_name: c.text(r, 'guardianName', 64),
      guardian_phone: c.phone(r, 'guardianPhone'),
      notes: c.text(r, 'notes', 500),
    });
  }
  return { problems: c.sorted(), planned };
}

/** Adds checked children (one statement per batch). */
export async function insertChildren(trx: Kysely<DB>, tenantId: string, userId: string, batch: PlannedChild[]) {
  if (!batch.length) return;
  const now = new Date();
  await trx
    .insertInto('student')
    .values(
      batch.map((b) => ({
        tenant_id: tenantId,
        id: nextId(),
        ...b,
        status: 1,
        create_user: userId,
        update_user: userId,
        create_time: now,
        update_time: now,
      })),
    )
    .execute();
}

/** A child as listed (what the caller may see of her) as the sheet's cells. */
export const childSheetRow = (s: Record<string, unknown>, lang: Lang): Partial<Record<StudentColumn, string>> => {
  const text = (k: string) => (s[k] === null || s[k] === undefined ? '' : String(s[k]));
  return {
    name: text('name'),
    gender: choiceName(CHILD_GENDERS, (s.gender as number | undefined) ?? null, lang),
    birthDate: text('birthDate'),
    className: text('className'),
    studentNo: text('studentNo'),
    enrollDate: text('enrollDate'),
    guardianName: text('guardianName'),
    guardianPhone: text('guardianPhone'),
    notes: text('notes'),
  };
};
