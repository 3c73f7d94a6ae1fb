import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { type ZodType, z } from 'zod';
import { containsPattern, type DB } from '@sprout/core/db';
import { AppError } from '@sprout/core/errors';
import { t } from '@sprout/core/i18n';
import { findPage, PageQuerySchema } from '@sprout/core/http/paging';
import { nextId } from '@sprout/core/ids';
import { type ButtonDef, crud, type MenuDef } from '@sprout/core/permissions/catalog';
import { formatDateTime } from '@sprout/core/time';
import { tenantOf } from '../plugins/context';
import { pageSchema } from '../plugins/serialization';
import { flag, int, orEmpty, text, time } from './answer';
import { requireButtonOf } from './buttons';
import { type RemovableTable, refuseTaken, requireKnownIds, softDelete } from './known';
import './messages';
import { IdSchema, NullableIdSchema, RequiredIdListSchema } from './params';
import { createTimeRange, live, readIn, type SavedTable, saveRow } from './query';
import { type ListSource, type OwnSave, ownSaveRoutes, type ScopeDef, scopeOf } from './resource-own';
import { guardRemove, guardSave, type TreeDef, treeRoutes } from './resource-tree';
import { Routes } from './routes';

/**
 * One declarative admin family (BladeX's list / detail / remove / submit, optionally select)
 * over one tenant table that follows the house conventions: `tenant_id` + `id` primary key,
 * `is_deleted` soft delete, `create_user` / `create_time` / `update_user` / `update_time`,
 * and a row-level-security policy on `tenant_id`. Each writable field is a camelCase name of
 * the API whose column is its snake_case form (`paramKey` → `param_key`).
 * Recipe: docs/ARCHITECTURE.md "Add a family (server side)".
 */
export interface ResourceDef<F extends z.ZodObject> {
  /** The menu code and the button prefix (`<code>_add`, `_edit`, `_delete`, `_view`). */
  code: string;
  /** The table (see above); the code unless said. */
  table?: string;
  /** The calls' base path: `/api/blade-system/<code>` unless said. */
  path?: string;
  /** The API document's tag: the label's English plural unless said. */
  tag?: string;
  /** What one row is called: in the catalogue's button names and the API document's summaries. */
  label: { zh: string; en: string };
  /** The writable fields as `submit` takes them, with their messages (`'$<i18n key>'`); none with `source` and `save`. */
  fields?: F;
  /** The list's search fields: contains (`like`), equals (`eq`), or equals an id (`id`: anything else is a 400). */
  filters?: Partial<Record<keyof z.output<F> & string, 'like' | 'eq' | 'id'>>;
  /** The list's order: fields (or `createTime`), `-` in front for descending; then by id. */
  order?: readonly string[];
  /** Fields unique (together) among the tenant's live rows: a duplicate is a 400 `message`. */
  unique?: {
    fields: readonly (keyof z.output<F> & string)[];
    message: string;
    params?: (values: z.output<F>) => Record<string, string>;
  };
  /** GET `select`: every live row of the caller's tenant, in list order (selects). */
  select?: boolean;
  /** Refusals once every id of a remove is known and locked (rows still in use). */
  beforeRemove?: (trx: Kysely<DB>, tenantId: string, ids: string[], request: FastifyRequest) => Promise<void>;
  /**
   * Parent and children (resource-tree.ts): a `parentId` field (`0` for a root), GET
   * `parent-list`, `child-list` (parentId) and `tree`; a parent must exist, a remove takes
   * no parent without its live children.
   */
  tree?: TreeDef;
  /** An `isSealed` field: a row stored with 1 cannot be updated or removed, nor given children (a 400). */
  sealed?: boolean;
  /**
   * In a submit's transaction, after the tree and sealed rules and before `unique`: refusals
   * of the family's own, and values it sets itself (merged over the submitted ones).
   */
  beforeSave?: (
    trx: Kysely<DB>,
    tenantId: string,
    values: z.output<F>,
    id: string | undefined,
  ) => Promise<Partial<z.output<F>> | undefined>;
  /** Answer fields besides `fields` (masked or derived columns), each written from the row by `present`. */
  more?: { fields: Record<string, ZodType>; present: (row: Record<string, unknown>) => Record<string, unknown> };
  /** Calls the family writes itself (its own route file): the builder leaves them out. */
  without?: readonly ('submit' | 'remove')[];
  /** Runs after a submit or remove committed (caches of other replicas). */
  afterWrite?: (request: FastifyRequest) => Promise<void>;
  /**
   * A table of the platform's catalogue (migration 0004: tenant 000000's rows, which row-level
   * security lets every tenant read and only the platform write): reads are not narrowed to
   * the caller's tenant, rows keep no `create_user` / `update_user`, answers carry no tenantId.
   */
  catalogue?: boolean;
  /** The answer's keys in this order (BladeX's), when it is not id, tenantId, the fields, createTime, `more`'s. */
  keys?: readonly string[];
  /**
   * The family's own list instead of the table's rows (`listSource` of resource-own.ts: joins,
   * names of related rows, its call's name and query): the list and the detail read it and
   * answer its rows (no `tree` or `select` with it).
   */
  source?: ListSource;
  /**
   * The caller's CASL data scope: lists and details read only rows in their `read` scope (with
   * `source`, whose alias the columns name), cut to the fields they may see; a remove takes
   * only rows in their `delete` scope.
   */
  scope?: ScopeDef;
  /** The family's own write instead of the builder's one-row save (resource-own.ts OwnSave). */
  save?: OwnSave;
  /**
   * In a remove's transaction, after the soft delete: what goes with the rows (grants,
   * sessions); may answer what to do once it committed (broadcasts).
   */
  onRemove?: (
    trx: Kysely<DB>,
    tenantId: string,
    ids: string[],
    request: FastifyRequest,
  ) => Promise<(() => Promise<void>) | undefined>;
}

/** What an answer field is written as: the output type of the field's schema. */
type Kind = 'text' | 'int' | 'number' | 'flag';
const ANSWER: Record<Kind, ZodType> = { text, int, number: z.number(), flag };

/** The answer kind of each field, read from the JSON Schema of the fields' output (anything else is text). */
function kindsOf(fields: z.ZodObject): Record<string, { kind: Kind; nullable: boolean }> {
  const json = z.toJSONSchema(fields, { io: 'output', unrepresentable: 'any' }) as {
    properties?: Record<string, { type?: string | string[]; anyOf?: { type?: string }[] }>;
  };
  const out: Record<string, { kind: Kind; nullable: boolean }> = {};
  for (const name of Object.keys(fields.shape)) {
    const p = json.properties?.[name] ?? {};
    // `{type: 'x'}`, `{type: ['x', 'null']}` or `{anyOf: [{type: 'x'}, {type: 'null'}]}`.
    const types = p.type === undefined ? (p.anyOf ?? []).map((s) => s.type) : [p.type].flat();
    const type = types.find((t) => t !== 'null');
    const kind = type === 'integer' ? 'int' : type === 'number' ? 'number' : type === 'boolean' ? 'flag' : 'text';
    out[name] = { kind, nullable: types.includes('null') };
  }
  return out;
}

/** A stored value as its answer kind: text never null (`''`), the others null where stored so. */
function answerValue(kind: Kind, v: unknown) {
  if (kind === 'text') return orEmpty(v as string | null);
  if (v === null || v === undefined) return null;
  return kind === 'flag' ? Boolean(v) : Number(v);
}

/** A search field's query parameter: an id, a number of a number field's `eq`, else text. */
function filterSchema(how: 'like' | 'eq' | 'id', kind: Kind | undefined): ZodType {
  if (how === 'id') return IdSchema.optional();
  if (how === 'eq' && kind === 'int') return z.coerce.number().int().optional();
  if (how === 'eq' && kind === 'number') return z.coerce.number().optional();
  return z.string().trim().max(255).optional();
}

/** A field's column: its snake_case form. */
export const columnOf = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

type Row = Record<string, unknown>;

/** The family's routes (a Fastify plugin: register it), with what its context needs besides. */
export interface Resource<F extends z.ZodObject> {
  (app: FastifyInstance): Promise<void>;
  /** A row as the calls answer it: id, tenantId, every field, createTime. */
  readonly answer: z.ZodObject;
  /** A stored row (its columns) as the calls answer it, times in `tz`. */
  present(row: Record<string, unknown>, tz: string): Record<string, unknown>;
  /** The family's screen in the catalogue: its API scope (reads) and its standard buttons (writes). */
  menu(m: Omit<MenuDef, 'code' | 'api' | 'buttons'> & { api?: string[]; buttons?: ButtonDef[] }): MenuDef;
  /** Writes rows of the tenant as the owner does (demo data, seeds): each validated by `fields`. */
  insert(trx: Kysely<DB>, tenantId: string, rows: z.input<F>[]): Promise<void>;
}

/** Declares one admin family over one table: its calls, its answer, its screen. */
export function defineResource<F extends z.ZodObject>(def: ResourceDef<F>): Resource<F> {
  const { code, label, source } = def;
  const fields = def.fields ?? (z.object({}) as unknown as F);
  const path = def.path ?? `/api/blade-system/${code}`;
  const tag = def.tag ?? `${label.en}s`;
  // The helpers of known.ts and query.ts name the tables they were written for; every table
  // of a resource has the columns they use (see ResourceDef), so it is passed as one of them.
  const table = (def.table ?? code) as SavedTable & RemovableTable & 'post';
  const kinds = kindsOf(fields);
  const names = Object.keys(kinds);
  const shape = {
    id: text,
    tenantId: text,
    ...Object.fromEntries(
      names.map((n) => {
        const { kind, nullable } = kinds[n] as { kind: Kind; nullable: boolean };
        return [n, nullable && kind !== 'text' ? ANSWER[kind].nullable() : ANSWER[kind]];
      }),
    ),
    createTime: time,
    ...def.more?.fields,
  } as Record<string, ZodType>;
  const keys = def.keys ?? Object.keys(shape).filter((k) => !(def.catalogue && k === 'tenantId'));
  const answer = source?.answer ?? z.object(Object.fromEntries(keys.map((k) => [k, shape[k] as ZodType])));
  const present = (row: Row, tz: string) => {
    const all: Row = { id: String(row.id), tenantId: row.tenant_id };
    for (const n of names) all[n] = answerValue((kinds[n] as { kind: Kind }).kind, row[columnOf(n)]);
    all.createTime = formatDateTime(row.create_time as Date, tz);
    Object.assign(all, def.more?.present(row));
    return Object.fromEntries(keys.map((k) => [k, all[k]])) as z.output<typeof answer>;
  };
  const columns = (values: Row) => Object.fromEntries(names.map((n) => [columnOf(n), values[n] ?? null]));

  const filters = Object.entries(def.filters ?? {}) as [string, 'like' | 'eq' | 'id'][];
  const FilterShape = Object.fromEntries(filters.map(([n, how]) => [n, filterSchema(how, kinds[n]?.kind)]));
  const ListQuery = PageQuerySchema.extend(FilterShape);
  type Filter = Record<string, string | number | undefined>;
  const rows = (db: Kysely<DB>, tenantId: string, f: Filter = {}) => {
    let qb = db.selectFrom(table).selectAll().where(live());
    if (!def.catalogue) qb = qb.where('tenant_id', '=', tenantId);
    for (const [n, how] of filters) {
      const v = f[n];
      if (v === undefined || v === '') continue;
      const column = columnOf(n) as 'post_code';
      qb = how === 'like' ? qb.where(column, 'like', containsPattern(String(v))) : qb.where(column, '=', v as string);
    }
    for (const o of def.order ?? []) {
      const column = columnOf(o.replace(/^-/, '')) as 'sort';
      qb = qb.orderBy(column, o.startsWith('-') ? 'desc' : 'asc');
    }
    return qb.orderBy('id');
  };
  const tzOf = (request: FastifyRequest) => request.server.config.TIME_ZONE;
  /** The rows of a filter whose columns equal `eq` (a tree's levels). */
  const rowsWhere = (db: Kysely<DB>, tenantId: string, f: Filter, eq: Row) => {
    let qb = rows(db, tenantId, f);
    for (const [c, v] of Object.entries(eq)) qb = qb.where(c as 'post_code', '=', v as string);
    return qb;
  };
  const guard = (tenantId: string) => ({ table, tenantId, tree: Boolean(def.tree), sealed: Boolean(def.sealed) });
  const button = (action: 'add' | 'edit' | 'delete') => `${code}_${action}`;
  const Submit = fields.extend({ id: NullableIdSchema.optional() });
  const Remove = z.object({ ids: RequiredIdListSchema });
  const { en } = label;
  const En = en.charAt(0).toUpperCase() + en.slice(1);

  const routes = async (app: FastifyInstance) => {
    // An empty query parameter (Saber's `paramName=`) is one not sent: plugins/validation.ts, for every route.
    const route = new Routes(app, [tag]);
    // A call the family writes itself (`without`) is declared to nothing.
    // A family's own write (`save`) is declared by ownSaveRoutes instead of the builder's submit.
    const skipped = (call: 'submit' | 'remove') => def.without?.includes(call) || (call === 'submit' && def.save);
    const own = (call: 'submit' | 'remove') => (skipped(call) ? { post: () => undefined } : route);
    if (def.save && !def.without?.includes('submit')) ownSaveRoutes(route, def.save, { path, code, en });
    const searched = filters.map(([n]) => n).join(', ');
    const whose = def.catalogue ? 'catalogue' : 'tenant';
    if (source)
      route.get(`${path}/${source.call}`, {
        summary: source.summary ?? `${En}s of the ${whose}, paged`,
        query: source.query,
        data: pageSchema(answer),
        handler: async (request, q) => source.page(request, q as Row, await scopeOf(request, def.scope, 'read')),
      });
    else
      route.get(`${path}/list`, {
        summary: `${En}s of the ${whose}, paged${searched ? ` (search ${searched}; createTime_dategt/_datelt)` : ''}`,
        query: ListQuery,
        data: pageSchema(answer),
        handler: (request, query) => {
          const q = query as z.output<typeof PageQuerySchema> & Filter;
          const ctx = tenantOf(request);
          const tz = tzOf(request);
          const qb = createTimeRange(rows(app.database.db, ctx.tenantId, q), q, tz);
          return findPage(app.database, ctx, qb, q, (row) => present(row as Row, tz));
        },
      });
    if (def.tree)
      treeRoutes(route, def.tree, {
        path,
        en,
        ListQuery,
        answer,
        page: (request, q, eq) => {
          const ctx = tenantOf(request);
          const tz = tzOf(request);
          const p = q as z.output<typeof PageQuerySchema> & Filter;
          const qb = createTimeRange(rowsWhere(app.database.db, ctx.tenantId, p, eq), p, tz);
          return findPage(app.database, ctx, qb, p, (row) => present(row as Row, tz) as Row);
        },
        all: (request, eq) => readIn(request, (db, ctx) => rowsWhere(db, ctx.tenantId, {}, eq)) as Promise<Row[]>,
      });
    if (def.select)
      route.get(`${path}/select`, {
        summary: `Every ${en} of the ${whose} (selects)`,
        // Saber names the tenant; the caller's own is the only one read (row-level security).
        query: z.object({ tenantId: z.string().trim().max(12).optional() }),
        data: z.array(answer),
        handler: async (request) => {
          const all = await readIn(request, (db, ctx) => rows(db, ctx.tenantId));
          return all.map((row) => present(row as Row, tzOf(request)));
        },
      });
    route.detail(`${path}/detail`, {
      summary: `One ${en}`,
      data: answer,
      find: async (request, id) => {
        if (source) {
          const scope = await scopeOf(request, def.scope, 'read');
          const row = await source.one(request, id, scope?.where);
          return row && (scope ? scope.visible(row) : row);
        }
        const [row] = await readIn(request, (db, ctx) => rows(db, ctx.tenantId).where('id', '=', id));
        return row && present(row as Row, tzOf(request));
      },
    });
    own('submit').post(`${path}/submit`, {
      summary: `Adds (no id) or updates a ${en}`,
      config: { buttons: [button('add'), button('edit')] },
      merged: Submit,
      data: answer,
      done: (b) => (b.id ? 'http.updated' : 'http.added'),
      handler: async (request, submitted) => {
        const b = submitted as Row & { id?: string | null };
        const id = b.id ?? undefined;
        // A submit declares both buttons (the auth hook lets either through); the id says which is needed.
        await requireButtonOf(request, button(b.id ? 'edit' : 'add'));
        const { tenantId, userId } = tenantOf(request);
        // A catalogue's rows keep no user (ResourceDef.catalogue).
        const by = def.catalogue ? undefined : (userId ?? null);
        const saved = await request.tx(async (trx) => {
          if (def.tree || def.sealed) await guardSave(trx, guard(tenantId), id, b);
          Object.assign(b, await def.beforeSave?.(trx, tenantId, submitted as z.output<F>, id));
          const u = def.unique;
          if (u) {
            const taken = Object.fromEntries(u.fields.map((n) => [columnOf(n), String(b[n])]));
            const params =
              u.params?.(submitted as z.output<F>) ?? Object.fromEntries(u.fields.map((n) => [n, String(b[n])]));
            // The refusal names the fields too, so a form shows it beside them.
            await refuseTaken(trx, { table, tenantId, values: taken, id }, u.message, params).catch((e: unknown) => {
              if (!(e instanceof AppError)) throw e;
              const message = t(request.lang, u.message, params);
              throw new AppError(
                e.code,
                e.messageKey,
                e.params,
                u.fields.map((field) => ({ field, message })),
              );
            });
          }
          const stamp = by === undefined ? {} : { update_user: by };
          const values = { ...columns(b), ...stamp, update_time: new Date() };
          return saveRow(trx, table, tenantId, id, values as never, by === undefined ? {} : { create_user: by });
        });
        await def.afterWrite?.(request);
        return present(saved as Row, tzOf(request));
      },
    });
    own('remove').post(`${path}/remove`, {
      summary: `Deletes ${en}s (ids, comma-separated): all or none`,
      config: { buttons: [button('delete')] },
      merged: Remove,
      data: z.null(),
      done: 'http.removed',
      handler: async (request, { ids }) => {
        const { tenantId, userId } = tenantOf(request);
        const alias = def.scope?.alias ?? 't';
        const scope = (await scopeOf(request, def.scope, 'delete'))?.where;
        const committed = await request.tx(async (trx) => {
          const known = await requireKnownIds(trx, { table, alias, tenantId, ids, scope });
          if (def.tree || def.sealed) await guardRemove(trx, guard(tenantId), known);
          await def.beforeRemove?.(trx, tenantId, known, request);
          // A catalogue's rows keep no user: softDelete is told one of the tables without one.
          const removed = { tenantId, ids: known };
          const unstamped = { ...removed, table: table as 'top_menu' };
          await softDelete(trx, def.catalogue ? unstamped : { ...removed, table, by: userId ?? null });
          return def.onRemove?.(trx, tenantId, known, request);
        });
        await committed?.();
        await def.afterWrite?.(request);
        return null;
      },
    });
  };

  const api = (action: string) => [`POST ${path}/${action}`];
  return Object.assign(routes, {
    answer,
    present,
    menu: (m: Omit<MenuDef, 'code' | 'api' | 'buttons'> & { api?: string[]; buttons?: ButtonDef[] }): MenuDef => ({
      ...m,
      code,
      api: [`GET ${path}/**`, ...(m.api ?? [])],
      buttons: [
        ...crud(code, label.zh, label.en, [], { add: api('submit'), edit: api('submit'), delete: api('remove') }),
        ...(m.buttons ?? []),
      ],
    }),
    insert: async (trx: Kysely<DB>, tenantId: string, list: z.input<F>[]) => {
      if (!list.length) return;
      const values = list.map((r) => ({ tenant_id: tenantId, id: nextId(), ...columns(fields.parse(r) as Row) }));
      await trx
        .insertInto(table)
        .values(values as never)
        .execute();
    },
  }) as Resource<F>;
}
