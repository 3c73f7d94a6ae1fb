import type { FastifyRequest } from 'fastify';
import type { Expression, SqlBool } from 'kysely';
import type { ZodType, z } from 'zod';
import type { TenantContext } from '@sprout/core/db';
import { notFound } from '@sprout/core/errors';
import { findListPage, type Page, type PagedList, type PageQuery } from '@sprout/core/http/paging';
import type { AppAbility } from '@sprout/core/permissions/ability';
import { fieldFilter } from '@sprout/core/permissions/fields';
import { type ScopeColumns, scopeWhere } from '@sprout/core/permissions/sql';
import { permissionsOf } from '../plugins/auth';
import { tenantOf } from '../plugins/context';
import { requireButtonOf } from './buttons';
import { readIn } from './query';
import type { Routes } from './routes';

/**
 * The parts of `defineResource` (resource.ts) a family brings itself when one table and its
 * columns are not the whole story: its own list (joins, names of related rows), the
 * caller's data scope over it, and its own write (several tables, hashing, sessions).
 */

type Row = Record<string, unknown>;

/** The caller's CASL data scope (ResourceDef.scope): the subject and the columns of its scope fields, on `alias`. */
export interface ScopeDef {
  resource: string;
  columns: ScopeColumns;
  /** The table's alias the columns name (a remove reads the table under it). */
  alias: string;
}

/** A family's own list (ResourceDef.source): made by `listSource`. */
export interface ListSource {
  /** The list call's name under the family's path. */
  call: string;
  summary?: string;
  /** The list's query parameters, paging included. */
  query: z.ZodObject;
  /** A row as the list and the detail answer it (replaces the builder's). */
  answer: z.ZodObject;
  /** A page of the list, each row presented; a data scope narrows it and cuts each row to the visible fields. */
  page(request: FastifyRequest, q: Row, scope?: Narrowing): Promise<Page<Row>>;
  /** The row `id` as the list reads it, narrowed by `where`, presented; undefined when there is none. */
  one(request: FastifyRequest, id: string, where?: Expression<SqlBool>): Promise<Row | undefined>;
}

const tzOf = (request: FastifyRequest) => request.server.config.TIME_ZONE;

/**
 * A family's own list: its statement (a PagedList, compiled once per filter shape and scope),
 * its filter values out of the query (`{}` for a detail), its rows' alias and its presenter.
 */
export function listSource<
  P extends Readonly<Record<string, unknown>>,
  D,
  T extends keyof D,
  R,
  Q extends z.ZodObject,
>(s: {
  call?: string;
  summary?: string;
  query: Q;
  answer: z.ZodObject;
  list: PagedList<P, D, T, R>;
  alias: string;
  values: (tenantId: string, q: Partial<z.output<Q>>, tz: string) => P;
  present: (row: R, tz: string) => Row;
}): ListSource {
  return {
    call: s.call ?? 'list',
    summary: s.summary,
    query: s.query,
    answer: s.answer,
    page: (request, q, scope) => {
      const ctx = tenantOf(request);
      const tz = tzOf(request);
      const values = s.values(ctx.tenantId, q as Partial<z.output<Q>>, tz);
      const paging = q as Pick<PageQuery, 'current' | 'size'>;
      const visible = scope?.visible;
      const present = visible ? (row: R) => visible(s.present(row, tz)) : (row: R) => s.present(row, tz);
      return findListPage(request.server.database, ctx, s.list, values, paging, present, scope?.where);
    },
    one: async (request, id, where) => {
      const tz = tzOf(request);
      const [row] = await readIn(request, (db, ctx) =>
        s.list
          .query(db, s.values(ctx.tenantId, {}, tz), where)
          .where(`${s.alias}.id` as never, '=', id as never)
          .limit(1),
      );
      return row === undefined ? undefined : s.present(row as R, tz);
    },
  };
}

/** A data scope as a read applies it: the rows' condition, and what the caller may see of a row. */
export interface Narrowing {
  ability: AppAbility;
  where: Expression<SqlBool>;
  visible: (row: Row) => Row;
}

/** The caller's `action` scope of `scope` as a condition, and what they may see of a row; nothing without a scope. */
export async function scopeOf(
  request: FastifyRequest,
  scope: ScopeDef | undefined,
  action: 'read' | 'delete',
): Promise<Narrowing | undefined> {
  if (!scope) return undefined;
  const { ability } = await permissionsOf(request);
  return {
    ability,
    where: scopeWhere(ability, action, scope.resource, scope.columns),
    visible: fieldFilter<Row>(ability, 'read', scope.resource),
  };
}

/**
 * A family's own write (ResourceDef.save): its body and answer, and what saves it in its own
 * transactions. The builder declares POST `submit` (and `update`, when said) around it, with
 * the buttons, the button check by id and the done messages of its own submit.
 */
export interface OwnSave<B extends ZodType = ZodType, D extends ZodType = ZodType> {
  summary: string;
  /** Also POST `update`: the same body, an id required (else a 404); its summary. */
  update?: string;
  body: B;
  data: D;
  save: (request: FastifyRequest, body: z.output<B>, ctx: TenantContext) => Promise<z.output<D>>;
}

/** An OwnSave with its types kept (ResourceDef takes any). */
export const ownSave = <B extends ZodType, D extends ZodType>(s: OwnSave<B, D>) => s as unknown as OwnSave;

/**
 * POST `<path>/submit` (add without an id, update with one) and, when said, `<path>/update`
 * (an id required) through a family's own save: the `<code>_add` / `<code>_edit` buttons,
 * the one the id asks for checked in the handler.
 */
export function ownSaveRoutes(route: Routes, s: OwnSave, f: { path: string; code: string; en: string }) {
  const idOf = (b: unknown) => (b as { id?: string | null }).id;
  const save = async (request: FastifyRequest, b: unknown) => {
    await requireButtonOf(request, `${f.code}_${idOf(b) ? 'edit' : 'add'}`);
    return s.save(request, b, tenantOf(request));
  };
  route.post(`${f.path}/submit`, {
    summary: s.summary,
    config: { buttons: [`${f.code}_add`, `${f.code}_edit`] },
    body: s.body,
    data: s.data,
    done: (b) => (idOf(b) ? 'http.updated' : 'http.added'),
    handler: save,
  });
  if (s.update)
    route.post(`${f.path}/update`, {
      summary: s.update,
      config: { buttons: [`${f.code}_edit`] },
      body: s.body,
      data: s.data,
      done: 'http.updated',
      handler: async (request, b) => {
        if (!idOf(b)) throw notFound();
        return save(request, b);
      },
    });
}
