/**
 * The kit's data options beyond one flat table (pure, like define.ts): a parent table and its
 * children, a tree read level by level, sealed rows, several options in one field, and a
 * secret an answer carries once.
 */
import { type CrudDefinition, type CrudRecord, emptyForm, type FormValues } from './define';

/**
 * A tree beside the table (`/blade-system/dept/tree`): choosing a node lists the rows under it
 * (`deptId=<node id>`); the root "all" lists everything.
 */
export interface CrudSideTree {
  /** The tree's call under /api; its nodes have `children`. */
  url: string;
  /** The list parameter a chosen node sets (`deptId`). */
  param: string;
  /** The node fields holding its value and its label. */
  value: string;
  label: string;
  /** i18n key of the root that lists everything. */
  all: string;
}

/** A sealed row (its `sealed` field at 1) is neither edited nor removed. */
export const isSealedRow = (def: CrudDefinition, row: CrudRecord): boolean =>
  Boolean(def.sealed) && String(row[def.sealed as string]) === '1';

/**
 * The child table of one parent: its list carries the parent (`parentId=`), a new child starts
 * with the parent's fields (`parentId`, `code`), which it cannot change, and a parent select
 * shows the parent by its title.
 */
export function childDefinition(def: CrudDefinition, parent: CrudRecord): CrudDefinition {
  const children = def.children;
  if (!children) throw new Error(`${def.resource} has no children`);
  const child = children.definition;
  const parentKey = parent[def.rowKey ?? 'id'];
  const name = String(parent[children.title] ?? '');
  return {
    ...child,
    params: { ...child.params, [children.param]: String(parentKey) },
    titleValues: { name },
    columns: child.columns.map((column) => {
      const from = children.prefill[column.prop];
      if (!from) return column;
      const value = parent[from] as string | number;
      const isKey = from === (def.rowKey ?? 'id');
      return {
        ...column,
        initial: value,
        editable: false,
        fixed: true,
        ...(isKey ? { options: [{ value: String(value), text: name }] } : {}),
      };
    }),
  };
}

/** The lazy tree's call parameters for a level: the top level sends none. */
export function treeParams(def: CrudDefinition, parent: CrudRecord | null): Record<string, string> {
  if (!def.tree || !parent) return {};
  return { [def.tree.param]: String(parent[def.rowKey ?? 'id']) };
}

/** The form of a new row under `parent` (a tree's "add child"), or a new top row. */
export function formUnder(def: CrudDefinition, parent: CrudRecord | null): FormValues {
  const values = emptyForm(def);
  if (!parent || !def.tree) return values;
  for (const [prop, from] of Object.entries(def.tree.prefill)) {
    const value = parent[from];
    if (typeof value === 'string' || typeof value === 'number') values[prop] = value;
  }
  return values;
}

/** May a tree row expand? Only when the server says it has children (or gave them, a searched tree). */
export const hasChildren = (row: CrudRecord): boolean =>
  row.hasChildren === true || row.hasChildren === 1 || (Array.isArray(row.children) && row.children.length > 0);

/** A multi-select's value as its options (`a,b` → `['a', 'b']`). */
export const splitValues = (value: unknown): string[] =>
  value === null || value === undefined
    ? []
    : String(value)
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);

/** What a multi-select sends: its options in one text. */
export const joinValues = (values: readonly string[]): string => [...new Set(values)].join(',');

/** The mask an answer shows where a stored secret is (never the secret). */
export const SECRET_MASK = '******';

/** The secret an answer carries in plain (this once), or null (none, empty or masked). */
export function revealedSecret(answer: unknown, prop: string, title?: string): string | null {
  // Several rows at once (new passwords of several users): one line each, named by `title`.
  if (Array.isArray(answer)) {
    const lines = answer
      .map((entry) => {
        const secret = revealedSecret(entry, prop);
        const name = title ? (entry as Record<string, unknown> | null)?.[title] : undefined;
        return secret && name !== undefined && answer.length > 1 ? `${String(name)}: ${secret}` : secret;
      })
      .filter(Boolean);
    return lines.length > 0 ? lines.join('\n') : null;
  }
  const value = (answer as Record<string, unknown> | null)?.[prop];
  return typeof value === 'string' && value !== '' && value !== SECRET_MASK ? value : null;
}

/** A row of a whole tree as the table shows it: its level, and whether it has rows under it. */
export type TreeRow = CrudRecord & { __depth: number; __hasChildren: boolean };

/** A whole tree's rows in order, depth first, without those under a folded row (by `rowKey`). */
export function flattenTree(nodes: readonly CrudRecord[], folded: ReadonlySet<string>, rowKey = 'id'): TreeRow[] {
  const out: TreeRow[] = [];
  const walk = (level: readonly CrudRecord[], depth: number) => {
    for (const node of level) {
      const children = Array.isArray(node.children) ? (node.children as CrudRecord[]) : [];
      out.push({ ...node, __depth: depth, __hasChildren: children.length > 0 });
      if (!folded.has(String(node[rowKey]))) walk(children, depth + 1);
    }
  };
  walk(nodes, 0);
  return out;
}

/** A tree search's parameters: the definition's own, and each search field holding something (trimmed). */
export function searchParams(def: CrudDefinition, search: FormValues): Record<string, string> {
  const params: Record<string, string> = Object.fromEntries(
    Object.entries(def.params ?? {}).map(([k, v]) => [k, String(v)]),
  );
  for (const column of def.columns.filter((c) => c.search)) {
    const value = search[column.prop];
    if (value === null || value === undefined || String(value).trim() === '') continue;
    params[column.prop] = String(value).trim();
  }
  return params;
}
/** A node of a tree the kit shows (a side tree, a tree of checkboxes): value, label (the server's words), children. */
export interface SideNode {
  value: string;
  label: string;
  children: SideNode[];
}

/** A tree call's answer (`children` nested) as nodes; rows without a value are left out. */
export function treeNodes(answer: unknown, value: string, label: string): SideNode[] {
  if (!Array.isArray(answer)) return [];
  return (answer as CrudRecord[])
    .filter((row) => row[value] !== undefined && row[value] !== null)
    .map((row) => ({
      value: String(row[value]),
      label: String(row[label] ?? row[value]),
      children: treeNodes(row.children, value, label),
    }));
}

/** A side tree's answer as nodes. */
export const sideNodes = (side: CrudSideTree, answer: unknown): SideNode[] => treeNodes(answer, side.value, side.label);

/** The list parameters of a chosen side node (none for the root, "all"). */
export const sideParams = (side: CrudSideTree | undefined, chosen: string | null): Record<string, string> =>
  side && chosen ? { [side.param]: chosen } : {};
