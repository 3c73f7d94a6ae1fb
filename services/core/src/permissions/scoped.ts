import type { SelectQueryBuilder } from 'kysely';
import type { Database, TenantContext } from '../db';
import { findListPage, findPage, type Page, type PageQuery, type PagedList } from '../http/paging';
import type { AppAbility } from './ability';
import { fieldFilter } from './fields';
import { type ScopeColumns, scopeWhere } from './sql';

/**
 * A data-scoped list page: the caller's `read` scope of `resource` as a where-clause on
 * `qb` (rows and total alike, one statement), each presented row cut to the fields the
 * caller may see. What every list of a scoped resource uses with findPage.
 */
export function findScopedPage<D, T extends keyof D, Row extends object, Out extends Record<string, unknown>>(
  database: Database,
  ctx: TenantContext,
  ability: AppAbility,
  resource: string,
  columns: ScopeColumns,
  qb: SelectQueryBuilder<D, T, Row>,
  q: Pick<PageQuery, 'current' | 'size'>,
  present: (row: Row) => Out,
): Promise<Page<Out>> {
  const visible = fieldFilter<Out>(ability, 'read', resource);
  return findPage(database, ctx, qb.where(scopeWhere(ability, 'read', resource, columns)), q, (row) =>
    visible(present(row)),
  );
}

/**
 * findScopedPage over a PagedList: the same scope, statement and fields, with the statement
 * compiled once per shape of the filter values and per scope (the scope's expression is
 * built once per cached ability, so a user's repeated pages only bind values).
 */
export function findScopedListPage<
  P extends Readonly<Record<string, unknown>>,
  D,
  T extends keyof D,
  Row,
  Out extends Record<string, unknown>,
>(
  database: Database,
  ctx: TenantContext,
  ability: AppAbility,
  resource: string,
  columns: ScopeColumns,
  list: PagedList<P, D, T, Row>,
  values: P,
  q: Pick<PageQuery, 'current' | 'size'>,
  present: (row: Row) => Out,
): Promise<Page<Out>> {
  const visible = fieldFilter<Out>(ability, 'read', resource);
  return findListPage(
    database,
    ctx,
    list,
    values,
    q,
    (row) => visible(present(row)),
    scopeWhere(ability, 'read', resource, columns),
  );
}

/** Narrows a query to the rows of `resource` the ability may `action` (read, update, delete, export). */
export function inScope<D, T extends keyof D, O, QB extends SelectQueryBuilder<D, T, O>>(
  qb: QB,
  ability: AppAbility,
  action: 'read' | 'update' | 'delete' | 'export',
  resource: string,
  columns: ScopeColumns,
): QB {
  return qb.where(scopeWhere(ability, action, resource, columns)) as QB;
}
