import type { CompiledQuery } from 'kysely';

/** What readInTenant and friends take: SQL text with `$n` placeholders and their values. */
export type Statement = Pick<CompiledQuery, 'sql' | 'parameters'>;

/** Anything Kysely can compile (a query builder). */
export interface Compilable {
  compile(): Statement;
}

/**
 * Statements compiled once per shape, values bound per call.
 *
 * Building and compiling a Kysely query costs tens of microseconds (and as much again in
 * garbage) per request, though a list sends the same SQL text every time its filters are
 * used the same way. A cached statement is built once with a stand-in ("slot") in place of
 * each value, compiled, and remembered as its text plus which `$n` takes which value; a
 * later call with the same shape only binds its own values to the text.
 *
 * The shape of a values object is which of its values are truthy: a truthy value becomes a
 * slot, anything else (undefined, null, '', 0, false) is passed to the builder as it is and
 * is part of the cache key. So a build function sees every value's presence exactly as an
 * uncached build would, and may branch on it (`if (p.account)`). It must never read a
 * value (`p.account.trim()`, `${p.id}`, `p.ids.length`): a slot throws when read, so such a
 * build fails loudly rather than compile a wrong statement. Values are handed to Kysely as
 * they are (`where(col, '=', p.id)`, `sql\`… ${p.id} …\``, `sql.val(p.ids)` for a list);
 * derived values (a LIKE pattern, a parsed date) are derived before, by the caller.
 *
 * Everything else a build function uses (the Kysely handle, a data-scope expression) must
 * be the same for every call on the same `owner` and `variant`: that is what they are for.
 */
const slotNames = new WeakMap<object, string>();

/** The keys Kysely probes on a value to tell it from an expression (none of them is there). */
const PROBED = new Set<string | symbol>(['toOperationNode']);

function slot(name: string): unknown {
  const misuse = (): never => {
    throw new Error(
      `statement shape: value "${name}" was read while its statement was built; pass it to Kysely as it is`,
    );
  };
  const stand = new Proxy(Object.freeze(Object.create(null)) as object, {
    get: (_target, key) => (PROBED.has(key) ? undefined : misuse()),
    has: () => false,
    set: misuse,
    defineProperty: misuse,
    deleteProperty: misuse,
    ownKeys: misuse,
    getOwnPropertyDescriptor: misuse,
    getPrototypeOf: misuse,
  });
  slotNames.set(stand, name);
  return stand;
}

/** A compiled text and, per `$n`, the name of the value it takes or a constant. */
interface Template {
  sql: string;
  /** Value names by parameter position; undefined where the parameter is a constant. */
  names: Array<string | undefined>;
  constants: unknown[];
}

/** The cache key of a values object: names of truthy values; the others with their value. */
export function shapeOf(values: Readonly<Record<string, unknown>>): string {
  let key = '';
  for (const name of Object.keys(values)) {
    const v = values[name];
    key += v ? `|${name}` : `|${name}=${typeof v}:${String(v)}`;
  }
  return key;
}

function slotsFor<P extends Readonly<Record<string, unknown>>>(values: P): P {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(values)) {
    const v = values[name];
    out[name] = v ? slot(name) : v;
  }
  return out as P;
}

function templateOf(compiled: Statement): Template {
  const names: Array<string | undefined> = [];
  const constants: unknown[] = [];
  for (const p of compiled.parameters) {
    const name = typeof p === 'object' && p !== null ? slotNames.get(p) : undefined;
    names.push(name);
    constants.push(name === undefined ? p : undefined);
  }
  return { sql: compiled.sql, names, constants };
}

function bind(t: Template, values: Readonly<Record<string, unknown>>): Statement {
  const parameters: unknown[] = new Array(t.names.length);
  for (let i = 0; i < parameters.length; i++) {
    const name = t.names[i];
    parameters[i] = name === undefined ? t.constants[i] : values[name];
  }
  return { sql: t.sql, parameters };
}

/**
 * Compiled statements per owner (a Kysely handle, a data-scope expression: whatever else
 * the build functions depend on), variant (which statement) and shape of the values. An
 * owner's templates go with it (weakly held); each owner keeps at most `maxPerOwner`.
 */
export class StatementShapes {
  private readonly byOwner = new WeakMap<object, Map<string, Template>>();

  constructor(
    private readonly maxPerOwner = 128,
    /**
     * Also build and compile every statement from its values and compare (default: outside
     * production, as the suites run): a build function that reads a value in a way a slot
     * cannot trap (`typeof`, `===`) compiles a different statement and is refused loudly.
     */
    private readonly check = process.env.NODE_ENV !== 'production',
  ) {}

  /** `build(values).compile()`, compiled once per (owner, variant, shape of values). */
  statement<P extends Readonly<Record<string, unknown>>>(
    owner: object,
    variant: string,
    values: P,
    build: (values: P) => Compilable,
  ): Statement {
    let templates = this.byOwner.get(owner);
    if (!templates) {
      templates = new Map();
      this.byOwner.set(owner, templates);
    }
    const key = `${variant}${shapeOf(values)}`;
    let t = templates.get(key);
    if (!t) {
      t = templateOf(build(slotsFor(values)).compile());
      if (templates.size >= this.maxPerOwner) templates.clear();
      templates.set(key, t);
    }
    const bound = bind(t, values);
    if (this.check) {
      const fresh = build(values).compile();
      if (fresh.sql !== bound.sql || !sameParameters(fresh.parameters, bound.parameters))
        throw new Error(
          `statement shape "${variant}": the cached statement differs from a fresh build (a value was read while building)\ncached: ${bound.sql}\nfresh:  ${fresh.sql}`,
        );
    }
    return bound;
  }
}

function sameParameters(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x instanceof Date && y instanceof Date ? x.getTime() !== y.getTime() : JSON.stringify(x) !== JSON.stringify(y))
      return false;
  }
  return true;
}
