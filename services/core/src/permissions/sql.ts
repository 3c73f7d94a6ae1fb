import { rulesToCondition } from '@casl/ability/extra';
import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { AppAbility } from './ability';

/**
 * Field name (as in the rules) → the SQL column it compares, e.g.
 * `{ tenantId: 's.tenant_id', classId: 's.class_id' }`. A rule naming a field outside the
 * map is a programming error: it throws when the query is built, never widens it.
 */
export type ScopeColumns = Readonly<Record<string, string>>;

const TRUE = sql<SqlBool>`true`;
const FALSE = sql<SqlBool>`false`;

const OPERATORS = new Set(['$eq', '$ne', '$in', '$nin', '$lt', '$lte', '$gt', '$gte']);

type Scalar = string | number | boolean | null;

function isScalar(v: unknown): v is Scalar {
  return v === null || ['string', 'number', 'boolean'].includes(typeof v);
}

function scalar(v: unknown, what: string): Scalar {
  if (!isScalar(v)) throw new Error(`data scope: ${what} needs a scalar value`);
  if (typeof v === 'number' && !Number.isFinite(v)) throw new Error(`data scope: ${what} needs a finite number`);
  return v;
}

function list(v: unknown, what: string): Scalar[] {
  if (!Array.isArray(v)) throw new Error(`data scope: ${what} needs an array`);
  return v.map((x) => scalar(x, what));
}

const and = (parts: RawBuilder<SqlBool>[]) =>
  parts.length === 0
    ? TRUE
    : parts.length === 1
      ? (parts[0] as RawBuilder<SqlBool>)
      : sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
const or = (parts: RawBuilder<SqlBool>[]) =>
  parts.length === 0
    ? FALSE
    : parts.length === 1
      ? (parts[0] as RawBuilder<SqlBool>)
      : sql<SqlBool>`(${sql.join(parts, sql` or `)})`;

function fieldCondition(column: string, op: string, value: unknown): RawBuilder<SqlBool> {
  const col = sql.ref(column);
  switch (op) {
    case '$eq': {
      const v = scalar(value, op);
      return v === null ? sql<SqlBool>`${col} is null` : sql<SqlBool>`${col} = ${v}`;
    }
    case '$ne': {
      // Mongo's $ne also matches a missing (null) value.
      const v = scalar(value, op);
      return v === null ? sql<SqlBool>`${col} is not null` : sql<SqlBool>`${col} is distinct from ${v}`;
    }
    case '$in': {
      const vs = list(value, op);
      const nonNull = vs.filter((v) => v !== null);
      const parts: RawBuilder<SqlBool>[] = [];
      // One array parameter, however long the list (a dept subtree, a teacher's classes).
      if (nonNull.length === 1) parts.push(sql<SqlBool>`${col} = ${nonNull[0]}`);
      else if (nonNull.length) parts.push(sql<SqlBool>`${col} = any(${sql.val(nonNull)})`);
      if (nonNull.length < vs.length) parts.push(sql<SqlBool>`${col} is null`);
      return or(parts);
    }
    case '$nin': {
      const vs = list(value, op);
      const nonNull = vs.filter((v) => v !== null);
      const parts: RawBuilder<SqlBool>[] = [];
      if (nonNull.length) parts.push(sql<SqlBool>`(${col} is null or not ${col} = any(${sql.val(nonNull)}))`);
      if (nonNull.length < vs.length) parts.push(sql<SqlBool>`${col} is not null`);
      return and(parts);
    }
    case '$lt':
      return sql<SqlBool>`${col} < ${scalar(value, op)}`;
    case '$lte':
      return sql<SqlBool>`${col} <= ${scalar(value, op)}`;
    case '$gt':
      return sql<SqlBool>`${col} > ${scalar(value, op)}`;
    case '$gte':
      return sql<SqlBool>`${col} >= ${scalar(value, op)}`;
    default:
      throw new Error(`data scope: unsupported operator ${op}`);
  }
}

/** A Mongo-style condition object (as CASL rules hold them) → one SQL boolean expression. */
export function conditionToSql(condition: unknown, columns: ScopeColumns): RawBuilder<SqlBool> {
  if (!condition || typeof condition !== 'object' || Array.isArray(condition))
    throw new Error('data scope: a condition must be an object');
  const parts: RawBuilder<SqlBool>[] = [];
  for (const [key, value] of Object.entries(condition)) {
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value)) throw new Error(`data scope: ${key} needs an array`);
      const inner = value.map((c) => conditionToSql(c, columns));
      parts.push(key === '$and' ? and(inner) : or(inner));
      continue;
    }
    if (key.startsWith('$')) throw new Error(`data scope: unsupported operator ${key}`);
    if (!Object.hasOwn(columns, key)) throw new Error(`data scope: no column for field ${key}`);
    const column = columns[key] as string;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const ops = Object.entries(value as Record<string, unknown>);
      if (!ops.length) throw new Error(`data scope: empty operator object for ${key}`);
      for (const [op, v] of ops) {
        if (!OPERATORS.has(op)) throw new Error(`data scope: unsupported operator ${op}`);
        parts.push(fieldCondition(column, op, v));
      }
    } else {
      parts.push(fieldCondition(column, '$eq', value));
    }
  }
  return and(parts);
}

/**
 * The one translation from an ability to SQL: the rows of `resource` the ability may
 * `action`, as a where-expression over `columns`. `null` when no rule grants the action at
 * all — callers turn that into "no rows" (see scopeWhere).
 */
export function abilityToSql(
  ability: AppAbility,
  action: string,
  resource: string,
  columns: ScopeColumns,
): RawBuilder<SqlBool> | null {
  return rulesToCondition(
    ability.rulesFor(action, resource),
    (rule) => {
      const expr = conditionToSql(rule.conditions, columns);
      // SQL's NULL is not JavaScript's false: under NOT, an unknown comparison would hide the
      // row, where CASL (comparing with null) would allow it. Two-valued before negating.
      return rule.inverted ? sql<SqlBool>`not coalesce(${expr}, false)` : expr;
    },
    { and, or, empty: () => TRUE },
  );
}

const memo = new WeakMap<AppAbility, Map<string, Expression<SqlBool>>>();

/**
 * abilityToSql for a where clause: no rule → `false` (the query returns nothing). Built
 * once per (ability, action, resource, columns) — abilities are cached per user, so a
 * list request reuses the expression.
 */
export function scopeWhere(
  ability: AppAbility,
  action: string,
  resource: string,
  columns: ScopeColumns,
): Expression<SqlBool> {
  let byKey = memo.get(ability);
  if (!byKey) {
    byKey = new Map();
    memo.set(ability, byKey);
  }
  let key = `${action}\u0000${resource}`;
  for (const field in columns) key += `\u0000${field}=${columns[field]}`;
  let expr = byKey.get(key);
  if (!expr) {
    expr = abilityToSql(ability, action, resource, columns) ?? FALSE;
    byKey.set(key, expr);
  }
  return expr;
}
