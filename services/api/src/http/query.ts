import type { SelectQueryBuilder } from 'kysely';
import type { PageQuery } from '@sprout/core/http/paging';
import { parseDateTime } from '@sprout/core/time';

/** Applies the spec's create-time range filters to a query with a `create_time` column. */
export function createTimeRange<D, T extends keyof D, O, QB extends SelectQueryBuilder<D, T, O>>(
  qb: QB,
  q: Pick<PageQuery, 'createTime_dategt' | 'createTime_datelt'>,
  tz: string,
  column = 'create_time',
): QB {
  let out = qb;
  if (q.createTime_dategt) out = out.where(column as never, '>', parseDateTime(q.createTime_dategt, tz) as never) as QB;
  if (q.createTime_datelt) out = out.where(column as never, '<', parseDateTime(q.createTime_datelt, tz) as never) as QB;
  return out;
}
