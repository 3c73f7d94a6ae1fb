import type { Expression, Kysely, SqlBool } from 'kysely';
import type { DB } from '@sprout/core/db';
import { badRequest } from '@sprout/core/errors';
import './messages';
import { live } from './query';

/**
 * The rule of every remove call (docs/API.md "System calls"): each id must name a live row the
 * caller can see — in the caller's tenant and, where the family has one, the caller's data
 * scope. Otherwise the answer is a 400 naming the unknown ids, raised before anything is
 * changed, so nothing is removed half-way. Unknown and out-of-scope ids read the same: a
 * record outside your scope does not exist for you.
 */
export function refuseUnknownIds(ids: readonly string[], found: Iterable<unknown>): void {
  const missing = missingIds(ids, found);
  if (missing.length) throw unknownIds(missing);
}

/** The ids of `ids` not among `found`, in `ids`' order. */
export function missingIds(ids: readonly string[], found: Iterable<unknown>): string[] {
  const have = new Set<string>();
  for (const id of found) have.add(String(id));
  return ids.filter((id) => !have.has(id));
}

/** A 400 (`key`, naming them as `param`) when some of `ids` are not among `found`. */
export function refuseMissing(ids: readonly string[], found: Iterable<unknown>, key: string, param = 'ids'): void {
  const missing = missingIds(ids, found);
  if (missing.length) throw badRequest(key, { [param]: missing.join(',') });
}

/** The refusal itself (a remove of one id that is not there). */
export const unknownIds = (ids: readonly string[]) =>
  badRequest('http.unknownIds', { ids: ids.slice(0, 20).join(',') });

/** Tenant tables removed by id: `tenant_id`, `id` and the soft-delete flag `is_deleted`. */
export type RemovableTable =
  | 'role'
  | 'post'
  | 'menu'
  | 'top_menu'
  | 'scope_data'
  | 'scope_api'
  | 'dept'
  | 'app_user'
  | 'clazz'
  | 'student';

/**
 * Inside the remove's transaction: locks the live rows of `ids` in the tenant (and within
 * `scope`, a condition on `alias`, e.g. the caller's data scope from `scopeWhere`), and
 * refuses with a 400 naming every id that is not among them. Returns the locked ids.
 */
export async function requireKnownIds(
  trx: Kysely<DB>,
  q: { table: RemovableTable; alias: string; tenantId: string; ids: readonly string[]; scope?: Expression<SqlBool> },
): Promise<string[]> {
  if (!q.ids.length) throw badRequest('validation.required');
  // The tables share the columns used here; Kysely is told one of them for the types.
  const a = q.alias as 't';
  let query = trx
    .selectFrom(`${q.table as 'post'} as ${a}`)
    .select(`${a}.id`)
    .where(`${a}.tenant_id`, '=', q.tenantId)
    .where(live(a))
    .where(`${a}.id`, 'in', [...q.ids]);
  if (q.scope) query = query.where(q.scope);
  const rows = await query.forUpdate().execute();
  const found = rows.map((r) => String(r.id));
  refuseUnknownIds(q.ids, found);
  return found;
}

/** Tables of `RemovableTable` that keep who changed a row last (`update_user`). */
type StampedTable = 'post' | 'dept' | 'app_user' | 'clazz' | 'student';

/**
 * Soft-deletes `ids` of the tenant (`is_deleted = 1`, the update time, and `by` as the
 * `update_user` of tables that keep one): what every remove does once requireKnownIds passed.
 */
export async function softDelete(
  trx: Kysely<DB>,
  q:
    | { table: Exclude<RemovableTable, StampedTable>; tenantId: string; ids: readonly string[] }
    | { table: StampedTable; tenantId: string; ids: readonly string[]; by: string | null },
): Promise<void> {
  const by = 'by' in q ? { update_user: q.by } : {};
  await trx
    .updateTable(q.table as 'post')
    .set({ is_deleted: 1, ...by, update_time: new Date() })
    .where('tenant_id', '=', q.tenantId)
    .where('id', 'in', [...q.ids])
    .execute();
}

/** The ids of `ids` naming live rows of `table` (in the tenant, when given), unlocked: for refusals naming the others. */
export async function liveIds(
  db: Kysely<DB>,
  table: RemovableTable,
  ids: readonly string[],
  tenantId?: string,
): Promise<string[]> {
  let query = db.selectFrom(table as 'post').select('id');
  if (tenantId) query = query.where('tenant_id', '=', tenantId);
  const rows = await query
    .where(live())
    .where('id', 'in', [...ids])
    .execute();
  return rows.map((r) => String(r.id));
}

/** Tables whose rows have a name, and the column that holds it. */
const NAMES = { role: 'role_name', menu: 'name', dept: 'dept_name', clazz: 'name' } as const;

/** The live rows of `ids` of the tenant with their names (for refusals that name them). */
export const liveNames = (db: Kysely<DB>, table: keyof typeof NAMES, tenantId: string, ids: readonly string[]) =>
  db
    .selectFrom(table as 'dept')
    .select(['id', `${NAMES[table] as 'dept_name'} as name`])
    .where('tenant_id', '=', tenantId)
    .where(live())
    .where('id', 'in', [...ids])
    .execute();

/**
 * The names of the live rows of a tree table under `ids` that are not among them: what a
 * remove of `ids` would leave without a parent (it is refused while there are any).
 */
export async function childrenStaying(
  trx: Kysely<DB>,
  table: 'role' | 'menu' | 'dept',
  tenantId: string,
  ids: readonly string[],
): Promise<string[]> {
  const name = NAMES[table] as 'role_name';
  const rows = await trx
    .selectFrom(table as 'role')
    .select(name)
    .where('tenant_id', '=', tenantId)
    .where(live())
    .where('parent_id', 'in', [...ids])
    .where('id', 'not in', [...ids])
    .execute();
  return rows.map((c) => c[name]);
}

/**
 * Who created the live row `id` of a tenant table (`alias` naming it in `scope`, e.g. the
 * caller's update scope from `scopeWhere`): null when nobody is recorded, undefined when
 * there is no such row within the scope.
 */
export async function creatorInScope(
  trx: Kysely<DB>,
  q: { table: 'clazz' | 'student'; alias: string; tenantId: string; id: string; scope: Expression<SqlBool> },
): Promise<string | null | undefined> {
  const a = q.alias as 't';
  const row = await trx
    .selectFrom(`${q.table as 'clazz'} as ${a}`)
    .select(`${a}.create_user`)
    .where(`${a}.tenant_id`, '=', q.tenantId)
    .where(`${a}.id`, '=', q.id)
    .where(live(a))
    .where(q.scope)
    .executeTakeFirst();
  return row && (row.create_user === null ? null : String(row.create_user));
}

/** Tenant tables with fields unique among their live rows (a code, an account, a number, a name). */
type UniqueIn = 'post' | 'top_menu' | 'app_user' | 'clazz' | 'student';

/**
 * A 400 (`key`, `params`) when a live row of the tenant other than `id` already holds
 * `values` (a unique field, or fields unique together): what an add or update checks.
 */
export async function refuseTaken(
  db: Kysely<DB>,
  q: { table: UniqueIn; tenantId: string; values: Record<string, string>; id?: string },
  key: string,
  params?: Record<string, string>,
): Promise<void> {
  let query = db
    .selectFrom(q.table as 'post')
    .select('id')
    .where('tenant_id', '=', q.tenantId)
    .where(live());
  for (const [column, value] of Object.entries(q.values)) query = query.where(column as 'post_code', '=', value);
  const taken = await query.executeTakeFirst();
  if (taken && String(taken.id) !== q.id) throw badRequest(key, params);
}
