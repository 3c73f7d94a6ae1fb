import { type SelectQueryBuilder, sql } from 'kysely';
import { z } from 'zod';
import { type Database, readInTenant, type TenantContext } from '../db';
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

export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

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
  const count = qb.clearSelect().clearOrderBy().select(sql<string>`count(*)`.as('n'));
  return qb.select(count.as('__total')).limit(q.size).offset(offsetOf(q)).compile();
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
  const rows = await readInTenant<Row & { __total: string }>(database, ctx, pageQueryOf(qb, q));
  let total: number;
  if (rows.length) {
    total = Number(rows[0]!.__total);
  } else if (q.current > 1) {
    const countQuery = qb.clearSelect().clearOrderBy().select(sql<string>`count(*)`.as('n')).compile();
    total = Number((await readInTenant<{ n: string }>(database, ctx, countQuery))[0]?.n ?? 0);
  } else {
    total = 0;
  }
  return pageOf(
    rows.map((r) => {
      const { __total: _, ...row } = r;
      return present(row as unknown as Row);
    }),
    total,
    q,
  );
}
