/**
 * A checkable tree's data (pure, beside define.ts): the server's tree nodes (`id`, `title`,
 * `children`, as the grant trees answer) as Mantine's tree data, what a node shows, what a
 * click does, and the ids a save sends.
 *
 * The checked set holds nodes, parents included, so a role holding a menu but none of its
 * buttons shows that menu half-checked (and keeps it) instead of losing it or gaining the
 * buttons. Two modes:
 * - `grant` (a role's menus and scopes, BladeX sends checked and half-checked keys): checking a
 *   node checks its subtree and the nodes above it; unchecking clears its subtree and the nodes
 *   above left with nothing checked under them; a save sends the set.
 * - `subtree` (a top menu's menus, each id standing for its whole subtree): a parent is checked
 *   when all its leaves are; a save sends the checked nodes (BladeX's checked keys).
 * - `each` (roles granted to users): every node is checked on its own, parents included.
 */
/** A node of a tree answer (`TreeNode`: id, parentId, title, key, value, children). */
export interface ServerTreeNode {
  id: string;
  title?: string;
  children?: ServerTreeNode[];
}

/** Mantine's `TreeNodeData`, limited to what the check tree uses. */
export interface CheckTreeNode {
  value: string;
  label: string;
  children?: CheckTreeNode[];
}

/** The tree answer as Mantine's tree data (children only where there are some). */
export function toCheckTree(nodes: readonly ServerTreeNode[] | null | undefined): CheckTreeNode[] {
  return (nodes ?? []).map((n) => {
    const children = toCheckTree(n.children);
    return { value: String(n.id), label: n.title ?? String(n.id), ...(children.length ? { children } : {}) };
  });
}

export type CheckMode = 'grant' | 'subtree' | 'each';
export type CheckState = 'checked' | 'mixed' | 'unchecked';

/** Each node's parent and subtree (itself excluded), and the nodes in tree order. */
export interface CheckIndex {
  order: string[];
  parent: Map<string, string | null>;
  below: Map<string, string[]>;
  leaves: Map<string, string[]>;
}

export function indexTree(nodes: readonly CheckTreeNode[]): CheckIndex {
  const index: CheckIndex = { order: [], parent: new Map(), below: new Map(), leaves: new Map() };
  const walk = (node: CheckTreeNode, parent: string | null): { below: string[]; leaves: string[] } => {
    index.order.push(node.value);
    index.parent.set(node.value, parent);
    const below: string[] = [];
    const leaves: string[] = [];
    for (const child of node.children ?? []) {
      const sub = walk(child, node.value);
      below.push(child.value, ...sub.below);
      leaves.push(...sub.leaves);
    }
    if (below.length === 0) leaves.push(node.value);
    index.below.set(node.value, below);
    index.leaves.set(node.value, leaves);
    return { below, leaves };
  };
  for (const node of nodes) walk(node, null);
  return index;
}

const ancestorsOf = (index: CheckIndex, value: string): string[] => {
  const out: string[] = [];
  for (let at = index.parent.get(value); at; at = index.parent.get(at)) out.push(at);
  return out;
};

/** What a node shows for the checked set. */
export function stateOf(index: CheckIndex, checked: ReadonlySet<string>, value: string, mode: CheckMode): CheckState {
  const below = index.below.get(value) ?? [];
  if (below.length === 0 || mode === 'each') return checked.has(value) ? 'checked' : 'unchecked';
  const full =
    mode === 'grant'
      ? checked.has(value) && below.every((v) => checked.has(v))
      : (index.leaves.get(value) ?? []).every((v) => checked.has(v));
  if (full) return 'checked';
  return checked.has(value) || below.some((v) => checked.has(v)) ? 'mixed' : 'unchecked';
}

/** The checked set after a click on a node: a checked node clears, any other checks (see the modes). */
export function toggleNode(index: CheckIndex, checked: readonly string[], value: string, mode: CheckMode): string[] {
  const set = new Set(checked);
  if (mode === 'each') {
    if (set.has(value)) set.delete(value);
    else set.add(value);
    return index.order.filter((v) => set.has(v));
  }
  const subtree = [value, ...(index.below.get(value) ?? [])];
  const above = ancestorsOf(index, value);
  if (stateOf(index, set, value, mode) === 'checked') {
    for (const v of subtree) set.delete(v);
    for (const a of above) {
      // A top menu's parent is no longer whole; a role's stays while something under it is checked.
      if (mode === 'grant' && (index.below.get(a) ?? []).some((v) => set.has(v))) break;
      set.delete(a);
    }
  } else {
    for (const v of subtree) set.add(v);
    if (mode === 'grant') for (const a of above) set.add(a);
  }
  return index.order.filter((v) => set.has(v));
}

/** The checked set for the held ids (a top menu's held menu brings its subtree); ids not in the tree are left out. */
export function initialChecked(index: CheckIndex, held: readonly string[], mode: CheckMode): string[] {
  const set = new Set<string>();
  for (const id of held.map(String)) {
    if (!index.parent.has(id)) continue;
    set.add(id);
    if (mode === 'subtree') for (const v of index.below.get(id) ?? []) set.add(v);
  }
  return index.order.filter((v) => set.has(v));
}

/** What a save sends, in tree order: the set with the nodes above (grant), or the checked nodes (subtree). */
export function idsToSend(index: CheckIndex, checked: readonly string[], mode: CheckMode): string[] {
  const set = new Set(checked.filter((v) => index.parent.has(v)));
  if (mode === 'grant') {
    for (const v of [...set]) for (const a of ancestorsOf(index, v)) set.add(a);
    return index.order.filter((v) => set.has(v));
  }
  return index.order.filter((v) => stateOf(index, set, v, mode) === 'checked');
}
