import { containsPattern } from '@sprout/core/db';
import { columnOf } from './resource';

/** How each list filter narrows: its column contains the text (`like`), or equals the value (`eq`). */
export type FilterHow<F> = { [K in keyof F]-?: 'like' | 'eq' };

/**
 * Narrows `qb` by each filter of `f` that is given (not empty, not 0): on its column under
 * `alias` (the filter's snake_case form, `schoolYear` → `c.school_year`), by containment or
 * equality. The same SQL as the `if (f.x) qb = qb.where(…)` chains it replaces.
 */
export function whereFilled<QB, F extends object>(qb: QB, f: F, alias: string, how: FilterHow<F>): QB {
  // Every filter's column is one of the query's: Kysely's typed `where` is given it by name.
  type Where = { where: (column: string, op: string, value: unknown) => Where };
  let out = qb as unknown as Where;
  for (const [key, op] of Object.entries(how) as [keyof F & string, 'like' | 'eq'][]) {
    const v = f[key];
    if (!v) continue;
    const column = `${alias}.${columnOf(key)}`;
    out = op === 'like' ? out.where(column, 'like', containsPattern(String(v))) : out.where(column, '=', v);
  }
  return out as unknown as QB;
}
