import { createMongoAbility, type MongoAbility, type MongoQuery, type RawRuleOf } from '@casl/ability';
import {
  camelCase,
  DATA_ACTIONS,
  parseScopeFields,
  SCOPE_ALL,
  SCOPE_CUSTOM,
  SCOPE_DEPT_AND_BELOW,
  SCOPE_OWN,
  SCOPE_OWN_CLASSES,
  SCOPE_OWN_DEPT,
} from './resources';

/**
 * The one ability of a signed-in user (CASL). Subjects:
 * - `Button`: the action is a button code (`can('week_add', 'Button')`);
 * - `Api`: `call` with `{ route: { $regex } }`, one rule per granted API scope;
 * - a data resource (`student`, `user`, …): `read` / `update` / `delete` / `export` with
 *   row conditions on the API's field names (always including the tenant), and field lists
 *   where a scope shows only some fields.
 * Several roles combine as a union (CASL's `can` rules); no role gives an empty ability.
 */
export type AppAbility = MongoAbility;
export type AppRule = RawRuleOf<AppAbility>;

/** Whom the ability is for; ids as strings. */
export interface PermissionSubject {
  tenantId: string;
  userId: string;
  /** The user's department (from the database, not the token). */
  deptId: string | null;
}

/** One granted data scope row. */
export interface DataScopeGrant {
  resource: string;
  type: number;
  /** The compared column, snake_case as stored (e.g. `create_user`). */
  column: string;
  /** `*`, a field list or `-field` exclusions. */
  field: string;
  /** Custom scopes: comma-separated dept ids. */
  value: string | null;
}

/** Everything a user's ability is built from, loaded in one query (grants.ts). */
export interface Grants {
  /** False when the user does not exist, is disabled or was removed: nothing is granted. */
  active: boolean;
  deptId: string | null;
  roleIds: string[];
  roleAliases: string[];
  /** Granted menus (category 1), by id. */
  menuIds: string[];
  /** Granted button codes (category 2). */
  buttons: string[];
  /** Granted `METHOD /api/...` patterns. */
  apiPatterns: string[];
  dataScopes: DataScopeGrant[];
  /** The user's dept and every dept below it. */
  deptSubtree: string[];
  /** Classes the user teaches or cares for. */
  classIds: string[];
}

export const EMPTY_GRANTS: Grants = {
  active: false,
  deptId: null,
  roleIds: [],
  roleAliases: [],
  menuIds: [],
  buttons: [],
  apiPatterns: [],
  dataScopes: [],
  deptSubtree: [],
  classIds: [],
};

const ID = /^[1-9][0-9]{0,18}$/;

/** A custom scope's dept ids; anything that is not an id is ignored (never SQL). */
export function customDeptIds(value: string | null): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => ID.test(s));
}

/** The row condition of one data scope for this subject (the tenant always included). */
export function scopeCondition(subject: PermissionSubject, grants: Grants, scope: DataScopeGrant): MongoQuery {
  const tenant = { tenantId: subject.tenantId };
  const field = camelCase(scope.column);
  switch (scope.type) {
    case SCOPE_ALL:
      return tenant;
    case SCOPE_OWN:
      return { ...tenant, [field]: subject.userId };
    case SCOPE_OWN_DEPT:
      return { ...tenant, [field]: { $in: grants.deptId ? [grants.deptId] : [] } };
    case SCOPE_DEPT_AND_BELOW:
      return { ...tenant, [field]: { $in: grants.deptSubtree } };
    case SCOPE_CUSTOM:
      return { ...tenant, [field]: { $in: customDeptIds(scope.value) } };
    case SCOPE_OWN_CLASSES:
      return { ...tenant, [field]: { $in: grants.classIds } };
    default:
      // An unknown type grants nothing (the table's check constraint keeps them out).
      return { ...tenant, [field]: { $in: [] } };
  }
}

/** `METHOD /api/...` with `*` (one segment) and `**` (the rest) → a regular expression source. */
export function apiPatternSource(pattern: string): string {
  const space = pattern.indexOf(' ');
  const method = pattern.slice(0, space);
  const path = pattern.slice(space + 1);
  const m = method === '*' ? '[A-Z]+' : method.replace(/[^A-Z]/g, '');
  const p = path
    .split('/')
    .map((seg) => (seg === '**' ? '.+' : seg === '*' ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return `${m} ${p}`;
}

/** The rules of a user's ability. */
export function rulesFor(subject: PermissionSubject, grants: Grants): AppRule[] {
  if (!grants.active) return [];
  const rules: AppRule[] = [];
  for (const code of grants.buttons) rules.push({ action: code, subject: 'Button' });
  for (const pattern of grants.apiPatterns)
    rules.push({ action: 'call', subject: 'Api', conditions: { route: { $regex: `^${apiPatternSource(pattern)}$` } } });
  for (const scope of grants.dataScopes) {
    const conditions = scopeCondition(subject, grants, scope);
    let fields: string[] | undefined;
    try {
      fields = parseScopeFields(scope.resource, scope.field);
    } catch {
      // A field list naming unknown fields shows the id only, never more than was meant.
      fields = ['id'];
    }
    if (fields) {
      rules.push({ action: ['update', 'delete'], subject: scope.resource, conditions });
      rules.push({ action: ['read', 'export'], subject: scope.resource, fields, conditions });
    } else {
      rules.push({ action: [...DATA_ACTIONS], subject: scope.resource, conditions });
    }
  }
  return rules;
}

/** `defineAbilityFor(user)`: the CASL ability of a subject from their grants. */
export function defineAbilityFor(subject: PermissionSubject, grants: Grants): AppAbility {
  return createMongoAbility<AppAbility>(rulesFor(subject, grants));
}
