import { type Expression, type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import type { Page } from '@sprout/contracts';
import { type Database, type DB, readInTenant, type TenantContext } from '../db';
import { type Statement, StatementShapes } from '../db/shapes';
import { parseDateTime } from '../time';

/** Page sizes the product offers (spec §9). */
export const PAGE_SIZES = [10, 30, 50, 100, 200] as const;

const dateTime = z
  .string()
  .trim()
  .refine((v) => parseDateTime(v, 'UTC') !== undefined, { message: '$validation.dateTime' });

/**
 * Query parameters of every list: `current` (1-based), `size` (10/30/50/100/200), and the
 * create-time range filters. Saber sends them as strings; they are coerced here.
 */
export const PageQuerySchema = z.object({
  current: z.coerce.number().int().min(1).max(1_000_000).default(1),
  size: z.coerce
    .number()
    .default(10)
    .refine((v) => (PAGE_SIZES as readonly number[]).includes(v), {
      message: '$validation.pageSize',
      params: { sizes: PAGE_SIZES.join(', ') },
    }),
  createTime_dategt: dateTime.optional(),
  createTime_datelt: dateTime.optional(),
});
export type PageQuery = z.output<typeof PageQuerySchema>;

/** A page of a list, as every paged call answers (the browser reads the same type). */
export type { Page };

export function pageOf<T>(records: T[], total: number, q: Pick<PageQuery, 'current' | 'size'>): Page<T> {
  return { records, total, size: q.size, current: q.current, pages: Math.ceil(total / q.size) };
}

export const offsetOf = (q: Pick<PageQuery, 'current' | 'size'>) => (q.current - 1) * q.size;

/**
 * The one statement of a page: the rows of `qb` plus the total as `__total`, from a scalar
 * count subquery over the same filters. (Not `count(*) over ()`: a window pushes every
 * matching row, projected, through a tuplestore; under RLS that doubled the cost.)
 */
export function pageQueryOf<D, T extends keyof D, Row>(
  qb: SelectQueryBuilder<D, T, Row>,
  q: Pick<PageQuery, 'current' | 'size'>,
) {
  return pageSelect(qb, q.size, offsetOf(q)).compile();
}

function pageSelect<D, T extends keyof D, Row>(qb: SelectQueryBuilder<D, T, Row>, limit: number, offset: number) {
  const count = qb.clearSelect().clearOrderBy().select(sql<string>`count(*)`.as('n'));
  return qb.select(count.as('__total')).limit(limit).offset(offset);
}

const countSelect = <D, T extends keyof D, Row>(qb: SelectQueryBuilder<D, T, Row>) =>
  qb.clearSelect().clearOrderBy().select(sql<string>`count(*)`.as('n'));

/** Owner of the statements of a list without a data scope (see PagedList). */
const UNSCOPED = {};

/**
 * A list defined once: `build` turns its filter values into its rows query (filters,
 * selection, order). Its page statement is compiled once per shape of the values, per data
 * scope and per database handle, then only bound (db/shapes.ts; the same SQL and values
 * pageQueryOf compiles from `build` on every call). `build` follows StatementShapes' rule:
 * it may test whether a value is present, never read it; values needing work (a LIKE
 * pattern, a parsed date) arrive worked. For lists a busy screen pages through.
 */
export class PagedList<P extends Readonly<Record<string, unknown>>, D, T extends keyof D, Row> {
  private readonly byDb = new WeakMap<object, StatementShapes>();

  constructor(private readonly build: (db: Kysely<DB>, values: P) => SelectQueryBuilder<D, T, Row>) {}

  /** The rows query with every filter, built now (uncached). */
  query(db: Kysely<DB>, values: P, where?: Expression<SqlBool>): SelectQueryBuilder<D, T, Row> {
    const qb = this.build(db, values);
    return where ? qb.where(where as never) : qb;
  }

  private shapes(db: Kysely<DB>) {
    let shapes = this.byDb.get(db);
    if (!shapes) {
      shapes = new StatementShapes();
      this.byDb.set(db, shapes);
    }
    return shapes;
  }

  /** pageQueryOf(query(db, values, where), q), from the cache. */
  pageStatement(
    db: Kysely<DB>,
    values: P,
    q: Pick<PageQuery, 'current' | 'size'>,
    where?: Expression<SqlBool>,
  ): Statement {
    const all = { ...values, __limit: q.size, __offset: offsetOf(q) };
    return this.shapes(db).statement(where ?? UNSCOPED, 'page', all, (v) =>
      pageSelect(this.query(db, v, where), v.__limit, v.__offset),
    );
  }

  /** The total of the list (`n`), from the cache. */
  countStatement(db: Kysely<DB>, values: P, where?: Expression<SqlBool>): Statement {
    return this.shapes(db).statement(where ?? UNSCOPED, 'count', values, (v) => countSelect(this.query(db, v, where)));
  }
}

/**
 * One page of a list as one statement: the rows plus their total, read in a single
 * round-trip tenant transaction. Only a page past the end (no rows) costs a second count.
 * `qb` carries the list's filters, selection and order.
 */
export async function findPage<D, T extends keyof D, Row extends object, Out>(
  database: Database,
  ctx: TenantContext,
  qb: SelectQueryBuilder<D, T, Row>,
  q: Pick<PageQuery, 'current' | 'size'>,
  present: (row: Row) => Out,
): Promise<Page<Out>> {
  return readPage(database, ctx, pageQueryOf(qb, q), () => countSelect(qb).compile(), q, present, true);
}

/**
 * findPage over a PagedList: the same statement and page, compiled once per shape of the
 * filter values. `where` (a data scope) narrows rows and total alike. `present` gets each
 * row as read, its `__total` column still on it (no copy per row): it picks its fields.
 * Its few, stable statement texts run prepared (readInTenant): each connection plans a
 * shape once instead of on every page.
 */
export function findListPage<P extends Readonly<Record<string, unknown>>, D, T extends keyof D, Row, Out>(
  database: Database,
  ctx: TenantContext,
  list: PagedList<P, D, T, Row>,
  values: P,
  q: Pick<PageQuery, 'current' | 'size'>,
  present: (row: Row) => Out,
  where?: Expression<SqlBool>,
  /** Run prepared (default): each connection plans a shape once. */
  prepared = true,
): Promise<Page<Out>> {
  const db = database.db;
  return readPage(
    database,
    ctx,
    list.pageStatement(db, values, q, where),
    () => list.countStatement(db, values, where),
    q,
    present,
    false,
    prepared,
  );
}

async function readPage<Row, Out>(
  database: Database,
  ctx: TenantContext,
  statement: Statement,
  countStatement: () => Statement,
  q: Pick<PageQuery, 'current' | 'size'>,
  present: (row: Row) => Out,
  /** Hand `present` a copy of each row without `__total` (for presenters that spread rows). */
  strip: boolean,
  /** Run the statements prepared (stable texts only: see readInTenant). */
  prepared = false,
): Promise<Page<Out>> {
  const rows = await readInTenant<Row & { __total: string }>(database, ctx, statement, { prepared });
  let total: number;
  if (rows.length) {
    total = Number(rows[0]!.__total);
  } else if (q.current > 1) {
    total = Number((await readInTenant<{ n: string }>(database, ctx, countStatement(), { prepared }))[0]?.n ?? 0);
  } else {
    total = 0;
  }
  return pageOf(
    rows.map((r) => {
      if (!strip) return present(r);
      const { __total: _, ...row } = r;
      return present(row as unknown as Row);
    }),
    total,
    q,
  );
}
