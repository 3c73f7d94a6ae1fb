import { z } from 'zod';
import { flag, text } from './answer';
import { namedAnswer } from './routes';

/** A node of a tree answer; `children` is filled by buildTree. */
export interface TreeItem {
  id: string;
  parentId: string;
  children?: TreeItem[];
  hasChildren?: boolean;
}

/** `T` nested: its children, and whether it has any (buildTree, lazy levels). */
export type Tree<T> = T & { children?: Tree<T>[]; hasChildren?: boolean };

/**
 * Nests a flat list (already in display order) by parentId: a node whose parent is not in
 * the list is a root. Children keep the list's order. Every node says `hasChildren`; a leaf
 * has no `children` key at all — BladeX's nodes leave an empty list out, and Saber takes any
 * `children` key for a branch (a button leaf with `children: []` would lose its code).
 */
export function buildTree<T extends TreeItem>(items: T[]): Tree<T>[] {
  const byId = new Map<string, Tree<T>>();
  for (const item of items) {
    const { children: _dropped, ...own } = item;
    byId.set(item.id, own as Tree<T>);
  }
  const roots: Tree<T>[] = [];
  for (const item of items) {
    const node = byId.get(item.id) as Tree<T>;
    const parent = byId.get(item.parentId);
    if (parent && parent !== node) {
      if (parent.children) parent.children.push(node);
      else parent.children = [node];
    } else roots.push(node);
  }
  for (const node of byId.values()) node.hasChildren = node.children !== undefined;
  return roots;
}

/** BladeX's TreeNode (avue trees and selects): id, parentId, title, key, value. */
export interface TreeNode {
  id: string;
  parentId: string;
  title: string;
  key: string;
  value: string;
}

export const treeNode = (id: string, parentId: string, title: string): TreeNode => ({
  id,
  parentId,
  title,
  key: id,
  value: id,
});

/** Would setting `parentId` as the parent of `id` make a cycle among `rows` (every row, with its parent)? */
export function makesCycle(id: string, parentId: string, rows: Iterable<TreeRow>): boolean {
  const parents = new Map<string, string>();
  for (const row of rows) parents.set(String(row.id), String(row.parent_id));
  const seen = new Set<string>();
  let at: string | undefined = parentId;
  while (at && at !== '0') {
    if (at === id || seen.has(at)) return true;
    seen.add(at);
    at = parents.get(at);
  }
  return false;
}

/** A row of a tree table as read (ids as text). */
export interface TreeRow {
  id: string;
  parent_id: string;
}

/** Each row's parent's name, looked up among `all` ('' for a root or a parent not there). */
export function parentNames<R extends TreeRow>(all: R[], name: (row: R) => string): (row: R) => string {
  const names = new Map(all.map((x) => [x.id, name(x)]));
  return (row) => names.get(row.parent_id) ?? '';
}

/** The rows `keep` lets through as a tree, each presented with its parent's name (among all rows). */
export function namedTree<R extends TreeRow, T extends TreeItem>(
  all: R[],
  name: (row: R) => string,
  keep: (row: R) => boolean,
  present: (row: R, parentName: string) => T,
) {
  const parentName = parentNames(all, name);
  return buildTree(all.filter(keep).map((x) => present(x, parentName(x))));
}

/** Rows as select nodes (TreeNode), nested: role, dept and menu selects. */
export const selectTree = <R extends TreeRow>(rows: R[], title: (row: R) => string) =>
  buildTree(rows.map((x) => treeNode(x.id, x.parent_id, title(x))));

/** One level of a lazy tree: each node says whether any of `rows` hangs under it. */
export function withHasChildren<T extends { id: string }>(level: T[], rows: TreeRow[]) {
  const parents = new Set(rows.map((x) => x.parent_id));
  return level.map((x) => ({ ...x, hasChildren: parents.has(x.id) }));
}

/**
 * The answer schema of a tree of `node`: each node's own fields, then its `children` (the
 * same, recursively) and `hasChildren` — buildTree's order. A lazy schema, so its JSON
 * Schema is one definition referring to itself, named `id` in the API document.
 */
export function treeSchema<S extends z.ZodObject>(id: string, node: S): z.ZodType<Tree<z.output<S>>> {
  const tree: z.ZodType<Tree<z.output<S>>> = namedAnswer(
    z.lazy(() => node.extend({ children: z.array(tree).optional(), hasChildren: flag.optional() })),
    id,
  ) as never;
  return tree;
}

/** TreeNode as an answer (selects; `children` and `hasChildren` where nested or lazy). */
export const TreeNodeSchema = treeSchema(
  'TreeNode',
  z.object({ id: text, parentId: text, title: text, key: text, value: text }),
);
