import type { FastifyRequest } from 'fastify';
import {
  type Compilable,
  type CompiledQuery,
  type Expression,
  type Insertable,
  type InsertObject,
  type Kysely,
  type Selectable,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
  type Updateable,
  type UpdateObject,
} from 'kysely';
import { type DB, readInTenant, type TenantContext } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import type { PageQuery } from '@sprout/core/http/paging';
import { parseDateTime } from '@sprout/core/time';
import { tenantOf } from '../plugins/context';
import { found } from './routes';

/** Applies the spec's create-time range filters to a query with a `create_time` column, both ends included (the kit sends a last day as 23:59:59). */
export function createTimeRange<D, T extends keyof D, O, QB extends SelectQueryBuilder<D, T, O>>(
  qb: QB,
  q: Pick<PageQuery, 'createTime_dategt' | 'createTime_datelt'>,
  tz: string,
  column = 'create_time',
): QB {
  let out = qb;
  if (q.createTime_dategt)
    out = out.where(column as never, '>=', parseDateTime(q.createTime_dategt, tz) as never) as QB;
  if (q.createTime_datelt)
    out = out.where(column as never, '<=', parseDateTime(q.createTime_datelt, tz) as never) as QB;
  return out;
}

/**
 * The live rows of a soft-deleting table (`is_deleted = 0`), as a condition for `where`, a
 * join or a raw statement: on `alias`'s column, or the lone table's. The same SQL as
 * `.where('alias.is_deleted', '=', 0)`.
 */
export const live = (alias?: string): Expression<SqlBool> =>
  sql<SqlBool>`${sql.ref(alias ? `${alias}.is_deleted` : 'is_deleted')} = ${0}`;

/**
 * The columns of a data-scoped row under `alias` (what `scopeWhere` compares): its tenant, id
 * and creator, and `more` (scope field → column), e.g. `{ deptId: 'dept_id' }`.
 */
export const scopeColumns = (alias: string, more: Readonly<Record<string, string>> = {}) => ({
  tenantId: `${alias}.tenant_id`,
  id: `${alias}.id`,
  createUser: `${alias}.create_user`,
  ...Object.fromEntries(Object.entries(more).map(([field, column]) => [field, `${alias}.${column}`])),
});

/**
 * One statement read in the caller's tenant, in one round trip (readInTenant): `query` is
 * built on the root handle and only compiled there, its rows typed from it.
 */
export function readIn<O>(
  request: FastifyRequest,
  query: (db: Kysely<DB>, ctx: TenantContext) => Compilable<O> | CompiledQuery<O>,
): Promise<O[]> {
  const database = request.server.database;
  const ctx = tenantOf(request);
  const q = query(database.db, ctx);
  return readInTenant<O>(database, ctx, 'compile' in q ? q.compile() : q);
}

/** Soft-deleting tenant tables written whole by an add-or-update call, answered as stored. */
export type SavedTable = 'post' | 'top_menu' | 'scope_data' | 'scope_api';

/**
 * An add-or-update of one row of the tenant: with `id`, the live row gets `values` (none →
 * 404); without, a row of `values` and `created` under a new id. Answers the row as stored.
 */
export async function saveRow<T extends SavedTable>(
  trx: Kysely<DB>,
  table: T,
  tenantId: string,
  id: string | undefined,
  values: Updateable<DB[T]>,
  created: Partial<Insertable<DB[T]>> = {},
): Promise<Selectable<DB[T]>> {
  // The tables share the columns used here; Kysely is told one of them for the types.
  const t = table as 'post';
  if (id) {
    const row = await trx
      .updateTable(t)
      .set(values as never)
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where(live())
      .returningAll()
      .executeTakeFirst();
    return found(row) as Selectable<DB[T]>;
  }
  const row = await trx
    .insertInto(t)
    .values({ ...values, tenant_id: tenantId, id: nextId(), ...created } as never)
    .returningAll()
    .executeTakeFirstOrThrow();
  return row as Selectable<DB[T]>;
}

/** Tenant tables whose add-or-update checks the row first and answers it read afresh. */
export type WrittenTable = 'role' | 'menu' | 'dept' | 'app_user' | 'clazz' | 'student';

/**
 * An add-or-update of one row the caller has checked (it exists, it is theirs to change):
 * with `id`, the row gets `values`; without, a row of `values` and `created` under a new id.
 * Answers the id.
 */
export async function writeRow<T extends WrittenTable>(
  trx: Kysely<DB>,
  table: T,
  tenantId: string,
  id: string | undefined,
  values: UpdateObject<DB, T>,
  created: Partial<InsertObject<DB, T>> = {},
): Promise<string> {
  const t = table as 'role';
  if (id) {
    await trx
      .updateTable(t)
      .set(values as never)
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .execute();
    return id;
  }
  const newId = nextId();
  await trx
    .insertInto(t)
    .values({ ...values, tenant_id: tenantId, id: newId, ...created } as never)
    .execute();
  return newId;
}
