import { z } from 'zod';
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
