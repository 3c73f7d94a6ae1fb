/** A node of a tree answer; `children` is filled by buildTree. */
export interface TreeItem {
  id: string;
  parentId: string;
  children?: TreeItem[];
  hasChildren?: boolean;
}

/**
 * Nests a flat list (already in display order) by parentId: a node whose parent is not in
 * the list is a root. Children keep the list's order; leaves get `children: []` and
 * `hasChildren: false` (as BladeX's ForestNodeMerger answers).
 */
export function buildTree<T extends TreeItem>(items: T[]): T[] {
  const byId = new Map<string, T>();
  for (const item of items) byId.set(item.id, { ...item, children: [] });
  const roots: T[] = [];
  for (const item of items) {
    const node = byId.get(item.id) as T;
    const parent = byId.get(item.parentId);
    if (parent && parent !== node) (parent.children as TreeItem[]).push(node);
    else roots.push(node);
  }
  for (const node of byId.values()) node.hasChildren = (node.children as TreeItem[]).length > 0;
  return roots;
}

/** BladeX's TreeNode (avue trees and selects): id, parentId, title, key, value. */
export interface TreeNode extends TreeItem {
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

/** Would setting `parentId` as the parent of `id` make a cycle? `parents` maps every id to its parent. */
export function makesCycle(id: string, parentId: string, parents: Map<string, string>): boolean {
  const seen = new Set<string>();
  let at: string | undefined = parentId;
  while (at && at !== '0') {
    if (at === id || seen.has(at)) return true;
    seen.add(at);
    at = parents.get(at);
  }
  return false;
}
