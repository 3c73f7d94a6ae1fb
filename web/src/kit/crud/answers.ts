/**
 * What the kit reads out of the server's answers (pure, like define.ts): a select's options
 * from a call's answer, a page's rows in a column's order, the field problems of a refusal.
 */
import {
  type CrudDefinition,
  type CrudRecord,
  type FieldOption,
  type FieldProblem,
  formColumns,
  type OptionSource,
} from './define';

const isBlank = (value: unknown) => value === undefined || value === null || String(value).trim() === '';

/** Rows of an options call's answer (a list, a page or a tree), flattened, depth first. */
export function optionsOfAnswer(source: OptionSource, answer: unknown): FieldOption[] {
  const rows = Array.isArray(answer) ? answer : ((answer as { records?: unknown } | null)?.records ?? []);
  const out: FieldOption[] = [];
  const walk = (nodes: unknown, depth: number) => {
    if (!Array.isArray(nodes)) return;
    for (const node of nodes as CrudRecord[]) {
      const value = node[source.value];
      if (typeof value === 'string' || typeof value === 'number')
        out.push({ value, text: `${'\u3000'.repeat(depth)}${String(node[source.label] ?? value)}` });
      walk(node.children, depth + 1);
    }
  };
  walk(rows, 0);
  return out;
}

export type SortDirection = 'asc' | 'desc';

/**
 * The page's rows in a column's order (the list calls take no order: the table sorts what it
 * shows). Numbers as numbers, the rest as text in the interface language; empty values last.
 */
export function sortRecords<T extends CrudRecord>(
  records: readonly T[],
  prop: string,
  direction: SortDirection,
  locale = 'zh-CN',
): T[] {
  const collator = new Intl.Collator(locale, { numeric: true });
  const sign = direction === 'asc' ? 1 : -1;
  return [...records].sort((a, b) => {
    const x = a[prop];
    const y = b[prop];
    if (isBlank(x) || isBlank(y)) return isBlank(x) === isBlank(y) ? 0 : isBlank(x) ? 1 : -1;
    if (typeof x === 'number' && typeof y === 'number') return (x - y) * sign;
    return collator.compare(String(x), String(y)) * sign;
  });
}

/**
 * Field problems a failure body names (`fields: [{ field, message }]`, the API's validation
 * answer), limited to the form's fields: the server's own words.
 */
export function serverFieldProblems(def: CrudDefinition, body: unknown): Record<string, FieldProblem> {
  const fields = (body as { fields?: unknown } | null)?.fields;
  if (!Array.isArray(fields)) return {};
  const props = new Set(formColumns(def).map((c) => c.prop));
  const out: Record<string, FieldProblem> = {};
  for (const f of fields as Array<{ field?: unknown; message?: unknown }>) {
    const field = typeof f?.field === 'string' ? f.field.replace(/^body\./, '') : '';
    if (props.has(field) && typeof f.message === 'string' && !out[field]) out[field] = { text: f.message };
  }
  return out;
}
