import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { type ZodType, z } from 'zod';
import type { DB, TenantContext } from '@sprout/core/db';
import { badRequest, notFound } from '@sprout/core/errors';
import type { PageQuery } from '@sprout/core/http/paging';
import type { AppAbility } from '@sprout/core/permissions/ability';
import { fieldFilter } from '@sprout/core/permissions/fields';
import { findScopedPage } from '@sprout/core/permissions/scoped';
import { type ScopeColumns, scopeWhere } from '@sprout/core/permissions/sql';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { childrenStaying, creatorInScope, type RemovableTable, requireKnownIds, softDelete } from '../../http/known';
import { IdOrIdsSchema, RequiredIdListSchema } from '../../http/params';
import { makesCycle, namedTree, type TreeItem, type TreeRow, treeSchema } from '../../http/tree';
import { readIn } from '../../http/query';
import { type RouteDoc, Routes } from '../../http/routes';

/**
 * The route shapes system's resources share: a data-scoped page and rows, the remove rule as
 * a route, add-or-update and update as routes.
 */

/** A data-scoped resource: its subject in the caller's ability and the columns of its scope fields. */
export interface Scoped {
  resource: string;
  columns: ScopeColumns;
}

/** The caller's time zone (times leave formatted in it). */
export const tzOf = (request: FastifyRequest) => request.server.config.TIME_ZONE;

/** A page of `query` in the caller's `read` scope of `s` (findScopedPage), each row presented and cut to the visible fields. */
export async function scopedPage<D, T extends keyof D, Row extends object, Out extends Record<string, unknown>>(
  request: FastifyRequest,
  s: Scoped,
  query: (db: Kysely<DB>, tenantId: string) => SelectQueryBuilder<D, T, Row>,
  q: Pick<PageQuery, 'current' | 'size'>,
  present: (row: Row, tz: string) => Out,
) {
  const ctx = tenantOf(request);
  const perms = await permissionsOf(request);
  const database = request.server.database;
  const tz = tzOf(request);
  const qb = query(database.db, ctx.tenantId);
  return findScopedPage(database, ctx, perms.ability, s.resource, s.columns, qb, q, (row) => present(row, tz));
}

/** The rows of `query` in the caller's `read` scope of `s` (at most `limit`), presented and cut to the visible fields. */
export async function scopedRows<D, T extends keyof D, Row, Out extends Record<string, unknown>>(
  request: FastifyRequest,
  s: Scoped,
  query: (db: Kysely<DB>, tenantId: string) => SelectQueryBuilder<D, T, Row>,
  present: (row: Row, tz: string) => Out,
  limit: number,
): Promise<Out[]> {
  const perms = await permissionsOf(request);
  const inScope = scopeWhere(perms.ability, 'read', s.resource, s.columns);
  const rows = await readIn(request, (db, ctx) =>
    query(db, ctx.tenantId)
      .where(inScope as never)
      .limit(limit),
  );
  const visible = fieldFilter<Out>(perms.ability, 'read', s.resource);
  const tz = tzOf(request);
  return rows.map((row) => visible(present(row as Row, tz)));
}

/** A data-scoped table whose rows record who created them. */
export interface ScopedTable extends Scoped {
  table: 'clazz' | 'student';
  alias: string;
}

/**
 * Who created the row `id` the caller may update (within their `update` scope of `s`): null
 * when nobody is recorded; `missing()` is thrown when there is no such row for them.
 */
export async function creatorToUpdate(
  trx: Kysely<DB>,
  ability: AppAbility,
  s: ScopedTable,
  q: { tenantId: string; id: string; missing: (id: string) => Error },
): Promise<string | null> {
  const scope = scopeWhere(ability, 'update', s.resource, s.columns);
  const creator = await creatorInScope(trx, { table: s.table, alias: s.alias, tenantId: q.tenantId, id: q.id, scope });
  if (creator === undefined) throw q.missing(q.id);
  return creator;
}

/** How a remove goes beyond the remove rule (requireKnownIds, then a soft delete). */
export interface RemoveSpec<T> extends RouteDoc {
  table: RemovableTable;
  alias: string;
  /** The family's remove takes `id` or `ids` in the query string or body (else `ids` in the query string). */
  idOrIds?: boolean;
  /** Only rows in the caller's `delete` scope of this resource. */
  scope?: Scoped;
  /** The table keeps who changed a row (`update_user`). */
  stamped?: boolean;
  /** Refusals before anything is read. */
  before?: (request: FastifyRequest, ids: string[]) => void;
  /** Refusals once every id is known (children, rows in use). */
  refuse?: (trx: Kysely<DB>, tenantId: string, ids: string[]) => Promise<void>;
  /** What goes with the rows (grants, settings, sessions), in the same transaction. */
  cascade?: (trx: Kysely<DB>, ctx: TenantContext, ids: string[]) => Promise<T>;
  /** Once committed: caches and broadcasts. */
  after?: (request: FastifyRequest, tenantId: string, cascaded: T | undefined) => Promise<void>;
}

/** An add-or-update: its body (no id → add), its answer and what saves it. */
export interface SaveSpec<B extends ZodType, D extends ZodType> extends RouteDoc {
  body: B;
  data: D;
  /** `ctx`: the caller's tenant and user. */
  save: (request: FastifyRequest, body: z.output<B>, ctx: TenantContext) => Promise<z.output<D>>;
}

/**
 * A tree table's remove refusal (RemoveSpec.refuse): a 400 `message` naming (at most `most` of)
 * the live children the remove would leave without a parent.
 */
export const refuseStayingChildren =
  (table: 'role' | 'menu' | 'dept', message: string, most?: number) =>
  async (trx: Kysely<DB>, tenantId: string, ids: string[]) => {
    const children = await childrenStaying(trx, table, tenantId, ids);
    if (children.length) throw badRequest(message, { names: children.slice(0, most).join('、') });
  };

/** A whole tree as a list: its filter, its rows, which of them it shows and how (with the parent's name). */
export interface TreeListSpec<Q extends z.ZodObject, R extends TreeRow, N extends z.ZodObject> extends RouteDoc {
  query: Q;
  /** The answer's node: its name in the API document and its schema. */
  node: [string, N];
  rows: (request: FastifyRequest) => Promise<R[]>;
  /** A row's name (its children's parentName). */
  name: (row: R) => string;
  keep: (row: R, q: z.output<Q>) => boolean;
  present: (request: FastifyRequest) => (row: R, parentName: string) => z.output<N> & TreeItem;
}

/** What a tree row's save refuses (refuseTreeSave): each rule's 400 message key. */
export interface TreeSaveRules<R> {
  /** No such parent (or `parentOk` says it cannot take children). */
  parentMissing: string;
  parentOk?: (parent: R) => boolean;
  /** More refusals of the parent (undefined for a root), after the parent rule. */
  more?: (parent: R | undefined) => void;
  cycle: string;
  /** A live row other than this one already holds the unique value: the message and its params. */
  taken: { is: (row: R) => boolean; message: string; params: Record<string, string> };
}

/**
 * A tree row's add or update among `all` live rows of its table: an unknown id is a 404; a
 * parent not there, a parent under the row itself and a taken unique value are 400s, in that order.
 */
export function refuseTreeSave<R extends TreeRow>(
  all: R[],
  b: { id?: string | null; parentId: string },
  rules: TreeSaveRules<R>,
) {
  const byId = new Map(all.map((x) => [String(x.id), x]));
  if (b.id && !byId.has(b.id)) throw notFound();
  const parent = b.parentId !== '0' ? byId.get(b.parentId) : undefined;
  if (b.parentId !== '0' && !(parent && (rules.parentOk?.(parent) ?? true))) throw badRequest(rules.parentMissing);
  rules.more?.(parent);
  if (b.id && makesCycle(b.id, b.parentId, all)) throw badRequest(rules.cycle);
  const { taken } = rules;
  if (all.some((x) => taken.is(x) && String(x.id) !== b.id)) throw badRequest(taken.message, taken.params);
}

const IdsQuery = z.object({ ids: RequiredIdListSchema });
const idOf = (body: unknown) => (body as { id?: string }).id;

/** System's routes: the shared ones, and the remove rule and add-or-update as routes. */
export class ResourceRoutes extends Routes {
  /**
   * POST `url`: removes rows by the remove rule (docs/API.md "System calls") — every id a live
   * row the caller can see, locked, else a 400 naming the others and nothing removed — in one
   * tenant transaction, answering `system.removed`.
   */
  remove<T = void>(url: string, spec: RemoveSpec<T>) {
    const { table, alias, idOrIds, scope, stamped, before, refuse, cascade, after, ...doc } = spec;
    const input = idOrIds ? { merged: IdOrIdsSchema as ZodType } : { query: IdsQuery as ZodType };
    this.post(url, {
      ...doc,
      ...input,
      data: z.null(),
      done: 'system.removed',
      handler: async (request, q) => {
        const { id, ids: list } = q as { id?: string; ids?: string[] };
        const ids = idOrIds ? [...new Set([...(id ? [id] : []), ...(list ?? [])])] : (list as string[]);
        before?.(request, ids);
        const ctx = tenantOf(request);
        const { tenantId } = ctx;
        const perms = scope && (await permissionsOf(request));
        const inScope = scope && perms && scopeWhere(perms.ability, 'delete', scope.resource, scope.columns);
        const cascaded = await request.tx(async (trx) => {
          await requireKnownIds(trx, { table, alias, tenantId, ids, scope: inScope });
          await refuse?.(trx, tenantId, ids);
          const by = ctx.userId ?? null;
          await softDelete(
            trx,
            stamped ? { table: table as 'post', tenantId, ids, by } : { table: table as 'role', tenantId, ids },
          );
          return cascade?.(trx, ctx, ids);
        });
        await after?.(request, tenantId, cascaded);
        return null;
      },
    });
  }

  /** GET `url`: the rows `keep` takes of a filter, as a tree (namedTree). */
  treeList<Q extends z.ZodObject, R extends TreeRow, N extends z.ZodObject>(url: string, spec: TreeListSpec<Q, R, N>) {
    const { query, node, rows, name, keep, present, ...doc } = spec;
    this.get(url, {
      ...doc,
      query,
      data: z.array(treeSchema(node[0], node[1])),
      handler: async (request, q) => namedTree(await rows(request), name, (r) => keep(r, q), present(request)),
    });
  }

  /** POST `url`: adds (no id) or updates through `save`, answering what was saved. */
  submit<B extends ZodType, D extends ZodType>(url: string, { save, ...spec }: SaveSpec<B, D>) {
    const done = (b: unknown) => (idOf(b) ? 'system.updated' : 'system.added');
    this.post(url, { ...spec, done, handler: (request, b) => save(request, b, tenantOf(request)) });
  }

  /** POST `url`: updates through `save`; a body without an id is a 404. */
  update<B extends ZodType, D extends ZodType>(url: string, { save, ...spec }: SaveSpec<B, D>) {
    this.post(url, {
      ...spec,
      done: 'system.updated',
      handler: async (request, b) => {
        if (!idOf(b)) throw notFound();
        return save(request, b, tenantOf(request));
      },
    });
  }
}

/** The routes of one system screen (`tag` in the API document). */
export const routesOf = (app: FastifyInstance, tag: string) => new ResourceRoutes(app, [tag]);
