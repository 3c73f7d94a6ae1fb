import { containsPattern } from '@sprout/core/db';

/** How a list filter narrows: its column contains the text (`like`), or equals the value (`eq`). */
export type FilterColumns<F> = { [K in keyof F]-?: readonly [column: string, how: 'like' | 'eq'] };

/**
 * Narrows `qb` by each filter of `f` that is given (not empty, not 0): on its column of `on`,
 * by containment or equality. The same SQL as the `if (f.x) qb = qb.where(…)` chains it replaces.
 */
export function whereFilled<QB, F extends object>(qb: QB, f: F, on: FilterColumns<F>): QB {
  // Every filter's column is one of the query's: Kysely's typed `where` is given it by name.
  type Where = { where: (column: string, op: string, value: unknown) => Where };
  let out = qb as unknown as Where;
  for (const [key, [column, how]] of Object.entries(on) as [keyof F, readonly [string, 'like' | 'eq']][]) {
    const v = f[key];
    if (!v) continue;
    out = how === 'like' ? out.where(column, 'like', containsPattern(String(v))) : out.where(column, '=', v);
  }
  return out as unknown as QB;
}
