import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { DB } from '@sprout/core/db';
import { type Lang, type Params, t } from '@sprout/core/i18n';
import type { JobProblem } from '../../http/jobs';
import { PHONE } from '../../http/params';
import { live } from '../../http/query';
import { accountQuota, activeUsers } from './user-repo';
import { headerOf, type SheetKey, type SheetRow, sexCode } from './user-sheet';

/** A user the caller may change: who they are and what their data scope depends on. */
export interface ScopeSubject {
  id: string;
  createUser: string | null;
  deptId: string | null;
}

/** What a check needs besides the rows: whose tenant, in which language, and the caller's scope. */
export interface CheckInput {
  tenantId: string;
  lang: Lang;
  /** Existing accounts are updated (else each is a bad row). */
  isCovered: boolean;
  rows: SheetRow[];
  /** The columns the sheet has: a missing one leaves the field of an updated user as it is. */
  columns: ReadonlySet<SheetKey>;
  /** May the caller change (or make) the user as given? Their `update` data scope. */
  canUpdate: (u: ScopeSubject) => boolean;
  /** The caller: the creator of new users. */
  userId: string;
}

/** A row found good: the user's columns as written, their roles when the sheet names them. */
export interface PlannedUser {
  row: number;
  /** The existing user's id (an update); absent for a new user. */
  id?: string;
  account: string;
  values: {
    real_name: string;
    name?: string | null;
    phone?: string | null;
    email?: string | null;
    sex?: number | null;
    birthday?: string | null;
    dept_id?: string | null;
    post_id?: string | null;
  };
  roleIds?: string[];
}

const ACCOUNT = /^[A-Za-z0-9_.@-]{1,64}$/;
const isEmail = (v: string) => z.email().safeParse(v).success;
const isDate = (v: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
};

/** Name → id of the tenant's live rows of a named table (the first by id when two share a name). */
async function namesOf(trx: Kysely<DB>, tenantId: string, table: 'role' | 'dept' | 'post') {
  const column = table === 'role' ? 'role_name' : table === 'dept' ? 'dept_name' : 'post_name';
  const rows = await trx
    .selectFrom(table as 'post')
    .select(['id', sql.ref<string>(column).as('name')])
    .where('tenant_id', '=', tenantId)
    .where(live())
    .orderBy('id')
    .execute();
  const map = new Map<string, string>();
  for (const r of rows) if (!map.has(r.name)) map.set(r.name, String(r.id));
  return map;
}

/** The tenant's live users among `accounts`. */
const existingUsers = (trx: Kysely<DB>, tenantId: string, accounts: string[]) =>
  trx
    .selectFrom('app_user')
    .select(['id', 'account', 'create_user', 'dept_id'])
    .where('tenant_id', '=', tenantId)
    .where(live())
    .where('account', 'in', accounts.length ? accounts : [''])
    .execute();

/**
 * Every bad row of an import (row, column header, reason in the caller's language) and, when
 * there is none, what to write. Run in the transaction that writes, so the accounts and the
 * quota checked are the ones written against.
 */
export async function checkUserRows(trx: Kysely<DB>, input: CheckInput) {
  const { tenantId, lang, rows, columns } = input;
  const problems: JobProblem[] = [];
  const bad = (row: number, key: SheetKey, message: string, params?: Params) =>
    problems.push({ row, column: headerOf(key, lang), message: t(lang, message, params) });
  const roles = await namesOf(trx, tenantId, 'role');
  const depts = await namesOf(trx, tenantId, 'dept');
  const posts = await namesOf(trx, tenantId, 'post');
  const accounts = [...new Set(rows.map((r) => r.cells.account ?? '').filter(Boolean))];
  const existing = new Map((await existingUsers(trx, tenantId, accounts)).map((u) => [u.account, u]));
  const firstRowOf = new Map<string, number>();
  const planned: PlannedUser[] = [];
  /** Rows that would add a user (what the quota counts), good or not. */
  const freshRows: number[] = [];

  for (const { row, cells } of rows) {
    const before = problems.length;
    const text = (key: SheetKey, max: number, required = false) => {
      const v = cells[key] ?? '';
      if (!v && required) bad(row, key, 'userIo.required');
      else if (v.length > max) bad(row, key, 'userIo.tooLong', { max });
      return v || null;
    };
    const account = text('account', 64, true);
    if (account && !ACCOUNT.test(account)) bad(row, 'account', 'validation.account');
    const realName = text('realName', 64, true);
    const name = text('name', 64);
    const phone = text('phone', 30);
    if (phone && !PHONE.test(phone)) bad(row, 'phone', 'validation.phone');
    const email = text('email', 255);
    if (email && !isEmail(email)) bad(row, 'email', 'validation.email');
    const sex = cells.sex ? sexCode(cells.sex) : null;
    if (sex === undefined) bad(row, 'sex', 'userIo.sex');
    const birthday = cells.birthday || null;
    if (birthday && !isDate(birthday)) bad(row, 'birthday', 'userIo.birthday');
    const lookup = (key: SheetKey, names: Map<string, string>, message: string) => {
      const v = cells[key];
      if (!v) return null;
      const id = names.get(v);
      if (!id) bad(row, key, message, { name: v });
      return id ?? null;
    };
    const deptId = lookup('dept', depts, 'userIo.unknownDept');
    const postId = lookup('post', posts, 'userIo.unknownPost');
    const roleNames = (cells.roles ?? '').split(/[,，]/).map((s) => s.trim());
    const roleIds = roleNames.filter(Boolean).map((n) => {
      const id = roles.get(n);
      if (!id) bad(row, 'roles', 'userIo.unknownRole', { name: n });
      return id ?? '';
    });

    const found = account ? existing.get(account) : undefined;
    if (account && firstRowOf.has(account))
      bad(row, 'account', 'userIo.duplicate', { row: firstRowOf.get(account) ?? 0 });
    else if (account) firstRowOf.set(account, row);
    if (found && !input.isCovered) bad(row, 'account', 'userIo.taken', { account: account ?? '' });
    const creator = found ? (found.create_user === null ? null : String(found.create_user)) : input.userId;
    const id = found ? String(found.id) : '0';
    const now = found ? (found.dept_id === null ? null : String(found.dept_id)) : null;
    const after = columns.has('dept') ? deptId : now;
    // Changed or made only within the caller's scope, as it is and as it will be.
    if (
      (found && !input.canUpdate({ id, createUser: creator, deptId: now })) ||
      !input.canUpdate({ id, createUser: creator, deptId: after })
    )
      bad(row, columns.has('dept') ? 'dept' : 'account', 'userIo.outOfScope');
    if (account && !found && firstRowOf.get(account) === row) freshRows.push(row);
    if (problems.length > before || !account || !realName) continue;

    const values: PlannedUser['values'] = { real_name: realName };
    const set = <K extends keyof PlannedUser['values']>(key: SheetKey, column: K, v: PlannedUser['values'][K]) => {
      if (!found || columns.has(key)) values[column] = v;
    };
    set('name', 'name', name ?? (found ? null : realName));
    set('phone', 'phone', phone);
    set('email', 'email', email);
    set('sex', 'sex', sex ?? null);
    set('birthday', 'birthday', birthday);
    set('dept', 'dept_id', deptId);
    set('post', 'post_id', postId);
    planned.push({
      row,
      ...(found ? { id } : {}),
      account,
      values,
      ...(!found || columns.has('roles') ? { roleIds } : {}),
    });
  }

  // The tenant's account quota counts the new users (updated ones are there already).
  const quota = await accountQuota(trx, tenantId);
  if (quota && quota.account_number >= 0) {
    const room = quota.account_number - (await activeUsers(trx, tenantId));
    for (const row of freshRows.slice(Math.max(room, 0)))
      bad(row, 'account', 'userIo.quota', { quota: quota.account_number });
  }
  problems.sort((a, b) => a.row - b.row);
  return { problems, planned: problems.length ? [] : planned };
}
