/**
 * Data-scope resources: what a data scope of each resource may compare (its scope
 * fields) and which fields a record of it shows (for field rules). Field names are the
 * API's (camelCase, as presenters emit them and the browser checks them); a data scope's
 * `scope_column` is the database column (snake_case, as BladeX stores it).
 */

/** Data scope types (scope_data.scope_type). */
export const SCOPE_ALL = 1;
export const SCOPE_OWN = 2;
export const SCOPE_OWN_DEPT = 3;
export const SCOPE_DEPT_AND_BELOW = 4;
export const SCOPE_CUSTOM = 5;
export const SCOPE_OWN_CLASSES = 6;
export const SCOPE_TYPES = [1, 2, 3, 4, 5, 6] as const;
export type ScopeType = (typeof SCOPE_TYPES)[number];

/** Row-level actions a data scope grants. */
export const DATA_ACTIONS = ['read', 'update', 'delete', 'export'] as const;
export type DataAction = (typeof DATA_ACTIONS)[number];

export interface ResourceDef {
  /** Fields a data scope may compare, besides tenantId (scope_column in camelCase). */
  scopeFields: readonly string[];
  /** Default scope field per scope type (2 own, 3/4/5 dept, 6 classes). */
  defaults: { own: string; dept: string; classes?: string };
  /** Every field a record shows; field rules are checked against these. Absent: not modelled yet. */
  fields?: readonly string[];
}

/** The envelope every teaching record carries (DOMAIN.md): author, dept, class. */
const RECORD: ResourceDef = {
  scopeFields: ['id', 'createUser', 'deptId', 'classId'],
  defaults: { own: 'createUser', dept: 'deptId', classes: 'classId' },
};

export const RESOURCES: Record<string, ResourceDef> = {
  user: {
    scopeFields: ['id', 'createUser', 'deptId'],
    defaults: { own: 'createUser', dept: 'deptId' },
    fields: [
      'id',
      'tenantId',
      'account',
      'name',
      'realName',
      'email',
      'phone',
      'avatar',
      'sex',
      'birthday',
      'deptId',
      'deptName',
      'postId',
      'postName',
      'roleId',
      'roleName',
      'userType',
      'status',
      'createUser',
      'createTime',
      'updateTime',
    ],
  },
  dept: {
    scopeFields: ['id', 'createUser'],
    defaults: { own: 'createUser', dept: 'id' },
  },
  clazz: {
    scopeFields: ['id', 'createUser', 'deptId'],
    defaults: { own: 'createUser', dept: 'deptId', classes: 'id' },
  },
  student: {
    scopeFields: ['id', 'createUser', 'deptId', 'classId'],
    defaults: { own: 'createUser', dept: 'deptId', classes: 'classId' },
    fields: [
      'id',
      'tenantId',
      'name',
      'gender',
      'birthDate',
      'classId',
      'className',
      'deptId',
      'studentNo',
      'enrollDate',
      'guardianName',
      'guardianPhone',
      'notes',
      'status',
      'createUser',
      'createTime',
      'updateTime',
    ],
  },
  notice: { scopeFields: ['id', 'createUser', 'deptId'], defaults: { own: 'createUser', dept: 'deptId' } },
  week: RECORD,
  observation: RECORD,
  observation_regional: RECORD,
  hearken: RECORD,
  creview: RECORD,
  teacher_plan: RECORD,
  research: RECORD,
  project: RECORD,
  growth: RECORD,
  class_work: RECORD,
  class_summary: RECORD,
  half_follow: RECORD,
  teacher_master: {
    scopeFields: ['id', 'createUser', 'deptId', 'userId'],
    defaults: { own: 'userId', dept: 'deptId' },
  },
  file: RECORD,
  /** The audit trail: a record stream is compared by its record's author, dept and class. */
  audit: RECORD,
};

export const camelCase = (column: string) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
export const snakeCase = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The default scope_column (snake_case) of a scope type for a resource. */
export function defaultScopeColumn(resource: string, type: number): string {
  const def = RESOURCES[resource];
  const d = def?.defaults ?? RECORD.defaults;
  if (type === SCOPE_OWN) return snakeCase(d.own);
  if (type === SCOPE_OWN_CLASSES) return snakeCase(d.classes ?? 'classId');
  return snakeCase(d.dept);
}

/**
 * The visible fields of a scope_field value: `*` (or empty) → all (undefined), `a,b` → those,
 * `-a,-b` → every field of the resource but those. Unknown names are an error.
 */
export function parseScopeFields(resource: string, scopeField: string | null | undefined): string[] | undefined {
  const text = (scopeField ?? '').trim();
  if (!text || text === '*') return undefined;
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const all = RESOURCES[resource]?.fields;
  const excluded = parts.filter((p) => p.startsWith('-')).map((p) => p.slice(1));
  const included = parts.filter((p) => !p.startsWith('-'));
  if (excluded.length && included.length) throw new Error('scope field mixes inclusions and exclusions');
  if (all) {
    const unknown = [...excluded, ...included].filter((f) => !all.includes(f));
    if (unknown.length) throw new Error(`unknown fields of ${resource}: ${unknown.join(', ')}`);
  } else if (excluded.length) {
    throw new Error(`${resource} has no field list, so fields cannot be excluded`);
  }
  if (excluded.length) return (all as readonly string[]).filter((f) => !excluded.includes(f));
  // The id always shows, so a row stays addressable.
  return included.includes('id') ? included : ['id', ...included];
}
