import { type Kysely, sql } from 'kysely';
import type { DB } from '@sprout/core/db';
import type { Lang } from '@sprout/core/i18n';
import { nextId } from '@sprout/core/ids';
import { choiceName, RowChecker, type SheetRow } from '../../http/sheet';
import { CODED, choicesOf, GENDERS, TEACHER_COLUMNS, type TeacherColumn, type TeacherValues } from './fields';
import { teacherColumns } from './teacher';

/** Name → id of the tenant's live rows of a table (the first by id when two share a name). */
async function idsByName(trx: Kysely<DB>, tenantId: string, table: 'app_user' | 'dept' | 'post', column: string) {
  const { rows } = await sql<{ id: string; name: string }>`select id::text, ${sql.ref(column)} as name
    from ${sql.table(table)} where tenant_id = ${tenantId} and is_deleted = 0 order by id desc`.execute(trx);
  return new Map(rows.map((r) => [r.name, r.id]));
}

/** The live teacher numbers and linked accounts of the tenant. */
async function taken(trx: Kysely<DB>, tenantId: string) {
  const { rows } = await sql<{ teacher_no: string; user_id: string | null }>`select teacher_no, user_id::text
    from teacher_master where tenant_id = ${tenantId} and is_deleted = 0`.execute(trx);
  return { numbers: new Set(rows.map((r) => r.teacher_no)), users: new Set(rows.map((r) => r.user_id)) };
}

/**
 * Every problem of every row of a teacher sheet (row, column header, reason), and the records
 * to add when there is none. A number already taken, or twice in the file, is a problem; so is
 * an unknown account, dept or post, and an account that already has a record.
 */
export async function checkTeacherRows(trx: Kysely<DB>, tenantId: string, lang: Lang, rows: SheetRow<TeacherColumn>[]) {
  const c = new RowChecker(lang, TEACHER_COLUMNS);
  // One transaction's connection: one statement at a time.
  const users = await idsByName(trx, tenantId, 'app_user', 'account');
  const depts = await idsByName(trx, tenantId, 'dept', 'dept_name');
  const posts = await idsByName(trx, tenantId, 'post', 'post_name');
  const existing = await taken(trx, tenantId);
  const seen = new Map<string, number>();
  const seenUser = new Map<string, number>();
  const planned: TeacherValues[] = [];
  const linked = (r: SheetRow<TeacherColumn>, key: 'account' | 'dept' | 'post', ids: Map<string, string>) => {
    const name = c.text(r, key, 64);
    if (name === null) return null;
    const id = ids.get(name);
    if (!id) {
      const message = {
        account: 'teacher.unknownAccount',
        dept: 'teacher.unknownDeptName',
        post: 'teacher.unknownPostName',
      };
      c.problem(r, key, message[key], { account: name, name });
    }
    return id ?? null;
  };
  for (const r of rows) {
    const teacherNo = c.text(r, 'teacherNo', 32, true) ?? '';
    if (teacherNo) {
      const first = seen.get(teacherNo);
      if (first !== undefined) c.problem(r, 'teacherNo', 'sheet.duplicate', { row: first });
      else if (existing.numbers.has(teacherNo)) c.problem(r, 'teacherNo', 'teacher.noTaken', { teacherNo });
      seen.set(teacherNo, first ?? r.row);
    }
    const userId = linked(r, 'account', users);
    if (userId) {
      const first = seenUser.get(userId);
      if (first !== undefined) c.problem(r, 'account', 'sheet.duplicate', { row: first });
      else if (existing.users.has(userId)) c.problem(r, 'account', 'teacher.userTaken');
      seenUser.set(userId, first ?? r.row);
    }
    const coded = Object.fromEntries(
      Object.entries(CODED).map(([key, dict]) => [key, c.choice(r, key as TeacherColumn, choicesOf(dict))]),
    ) as Pick<TeacherValues, keyof typeof CODED>;
    planned.push({
      teacherNo,
      name: c.text(r, 'name', 64, true) ?? '',
      userId,
      gender: c.choice(r, 'gender', GENDERS),
      birthDate: c.date(r, 'birthDate'),
      ...coded,
      major: c.text(r, 'major', 64),
      graduateSchool: c.text(r, 'graduateSchool', 128),
      professionalTitle: c.text(r, 'professionalTitle', 64),
      hireDate: c.date(r, 'hireDate'),
      phone: c.phone(r, 'phone'),
      deptId: linked(r, 'dept', depts),
      postId: linked(r, 'post', posts),
      remark: null,
    });
  }
  return { problems: c.sorted(), planned };
}

/** Adds checked records (one statement per batch). */
export async function insertTeachers(trx: Kysely<DB>, tenantId: string, userId: string | null, batch: TeacherValues[]) {
  if (!batch.length) return;
  const now = new Date();
  const values = batch.map((b) => ({
    tenant_id: tenantId,
    id: nextId(),
    ...teacherColumns(b),
    create_user: userId,
    update_user: userId,
    create_time: now,
    update_time: now,
  }));
  await trx
    .insertInto('teacher_master' as 'post')
    .values(values as never)
    .execute();
}

/** A stored record (as the list answers it) as the sheet's cells, names for codes and ids. */
export function teacherSheetRow(
  t: Record<string, unknown>,
  lang: Lang,
  names: { accounts: Map<string, string>; depts: Map<string, string>; posts: Map<string, string> },
): Partial<Record<TeacherColumn, string>> {
  const text = (k: string) => (t[k] === null || t[k] === undefined ? '' : String(t[k]));
  const coded = Object.fromEntries(
    Object.entries(CODED).map(([key, dict]) => [key, choiceName(choicesOf(dict), t[key] as number | null, lang)]),
  );
  return {
    teacherNo: text('teacherNo'),
    name: text('name'),
    account: names.accounts.get(text('userId')) ?? '',
    gender: choiceName(GENDERS, t.gender as number | null, lang),
    birthDate: text('birthDate'),
    ...coded,
    major: text('major'),
    graduateSchool: text('graduateSchool'),
    professionalTitle: text('professionalTitle'),
    hireDate: text('hireDate'),
    phone: text('phone'),
    dept: names.depts.get(text('deptId')) ?? '',
    post: names.posts.get(text('postId')) ?? '',
  };
}

/** Id → name of the tenant's accounts, depts and posts (an export's names). */
export async function namesById(trx: Kysely<DB>, tenantId: string) {
  const flip = (m: Map<string, string>) => new Map([...m].map(([name, id]) => [id, name]));
  const accounts = flip(await idsByName(trx, tenantId, 'app_user', 'account'));
  const depts = flip(await idsByName(trx, tenantId, 'dept', 'dept_name'));
  const posts = flip(await idsByName(trx, tenantId, 'post', 'post_name'));
  return { accounts, depts, posts };
}
