import { subject as asSubject } from '@casl/ability';
import { permittedFieldsOf } from '@casl/ability/extra';
import type { AppAbility } from './ability';

/**
 * Field rules: a function removing from a presented record the fields the ability may not
 * `action` (read, export). When no rule of the resource limits fields — the usual case —
 * it is the identity, decided once per request rather than per row. With limits, each
 * record's visible fields are the union over the rules matching that record.
 */
export function fieldFilter<T extends Record<string, unknown>>(
  ability: AppAbility,
  action: 'read' | 'export',
  resource: string,
): (record: T) => T {
  const rules = ability.rulesFor(action, resource);
  if (!rules.some((r) => r.fields)) return (record) => record;
  return (record) => {
    const all = Object.keys(record);
    const allowed = new Set(
      permittedFieldsOf(ability, action, asSubject(resource, { ...record }) as never, {
        fieldsFrom: (r) => r.fields ?? all,
      }),
    );
    const out: Record<string, unknown> = {};
    for (const key of all) if (allowed.has(key)) out[key] = record[key];
    return out as T;
  };
}
