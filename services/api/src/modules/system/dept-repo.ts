import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { DB } from '@sprout/core/db';
import { live, scopeColumns } from '../../http/query';

/** Data-scope fields of a dept row → columns. */
export const DEPT_COLUMNS = scopeColumns('d');

/** A dept as read (ids as text), saying whether the caller's read scope covers it. */
export interface DeptRow {
  id: string;
  tenant_id: string;
  parent_id: string;
  ancestors: string[];
  dept_category: number;
  dept_name: string;
  full_name: string | null;
  sort: number;
  remark: string | null;
  create_user: string | null;
  create_time: Date;
  in_scope: boolean;
}

/**
 * Every live dept of the tenant in display order, `inScope` (a condition on `d`, or true or
 * false for every row) telling which the caller sees.
 */
export function deptRows(db: Kysely<DB>, tenantId: string, inScope: Expression<SqlBool> | boolean) {
  const scope = typeof inScope === 'boolean' ? sql.lit(inScope) : inScope;
  return sql<DeptRow>`select d.id::text, d.tenant_id, d.parent_id::text, d.ancestors::text[] as ancestors,
      d.dept_category, d.dept_name, d.full_name, d.sort, d.remark, d.create_user::text, d.create_time, ${scope} as in_scope
    from dept d where d.tenant_id = ${tenantId} and ${live('d')}
    order by d.sort, d.id`.compile(db);
}

/** Every live dept's place in the tree and creator (what an add or update checks). */
export const deptTree = (db: Kysely<DB>, tenantId: string) =>
  db
    .selectFrom('dept')
    .select(['id', 'parent_id', 'ancestors', 'create_user'])
    .where('tenant_id', '=', tenantId)
    .where(live())
    .execute();

/**
 * A dept moved under a new path (`ancestors`): every dept below keeps its path below it and
 * gets the new path above (`above` is how many ids led to it before, itself included).
 */
export async function moveSubtree(db: Kysely<DB>, tenantId: string, id: string, ancestors: string[], above: number) {
  await sql`
    update dept set ancestors = ${sql.val(ancestors)}::bigint[] || array[${id}]::bigint[] || ancestors[${above + 1}:]
    where tenant_id = ${tenantId} and ${live()} and ${id}::bigint = any(ancestors)`.execute(db);
}

/** The depts of `ids` that live users or classes belong to. */
export async function deptsInUse(db: Kysely<DB>, tenantId: string, ids: string[]) {
  const used = await sql<{ dept_id: string }>`
    select dept_id::text from app_user where tenant_id = ${tenantId} and ${live()} and dept_id in (${sql.join(ids)})
    union select dept_id::text from clazz where tenant_id = ${tenantId} and ${live()} and dept_id in (${sql.join(ids)})`.execute(
    db,
  );
  return new Set(used.rows.map((u) => u.dept_id));
}
