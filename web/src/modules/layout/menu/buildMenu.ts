import type { MenuEntry, MenuNode } from './types';

export const IFRAME_PREFIX = '/myiframe';

export function isExternalUrl(path: string | undefined): path is string {
  return typeof path === 'string' && /^https?:\/\//i.test(path.trim());
}

/** Spec §2: shown only if meta.roles is absent (or empty) or includes one of the user's roles. */
export function visibleToRoles(node: MenuNode, roles: readonly string[]): boolean {
  const wanted = node.meta?.roles;
  if (!Array.isArray(wanted) || wanted.length === 0) return true;
  return wanted.some((role) => roles.includes(role));
}

/** Spec §2: a leaf's route is its path with `/index` appended (once). */
export function leafRoutePath(path: string): string {
  const clean = path.trim().replace(/\/+$/, '') || '/';
  if (clean === '/' || /\/index$/.test(clean)) return clean;
  return `${clean}/index`;
}

function bySort(a: MenuNode, b: MenuNode): number {
  return (a.sort ?? 0) - (b.sort ?? 0);
}

/**
 * The server's menu tree → entries for the sidebar, the search and the route table:
 * filtered by roles, sorted, leaves given their `/index` route, external pages sent to
 * the iframe route (or a new window when isOpen is 2).
 */
export function buildMenu(
  nodes: readonly MenuNode[] | null | undefined,
  roles: readonly string[] = [],
  /** Keep role-restricted menus too (to tell a forbidden route from an unknown one). */
  ignoreRoles = false,
): MenuEntry[] {
  const walk = (list: readonly MenuNode[], parents: string[]): MenuEntry[] =>
    [...list]
      .filter((node) => node && typeof node === 'object' && (ignoreRoles || visibleToRoles(node, roles)))
      .sort(bySort)
      .flatMap((node) => {
        const rawChildren = Array.isArray(node.children) ? node.children : [];
        const external = isExternalUrl(node.path);
        const isLeaf = rawChildren.length === 0;
        const code = node.code || String(node.id);
        let path: string;
        if (external) path = `${IFRAME_PREFIX}/${encodeURIComponent(code)}`;
        else if (isLeaf) path = leafRoutePath(node.path || `/${code}`);
        else path = node.path || `/${code}`;
        const entry: MenuEntry = {
          id: String(node.id ?? code),
          code,
          name: node.name ?? node.label ?? code,
          i18nKey: node.meta?.i18n || `menu.${code}`,
          path,
          icon: node.source ?? '',
          url: external ? node.path.trim() : null,
          newWindow: external && Number(node.isOpen) === 2,
          children: [],
          parents,
        };
        entry.children = walk(rawChildren, [...parents, entry.path]);
        // A folder whose every child was filtered out is not shown either.
        return isLeaf || entry.children.length > 0 ? [entry] : [];
      });
  return walk(nodes ?? [], []);
}

/** Every entry that leads somewhere (no children), in menu order. */
export function leafEntries(entries: readonly MenuEntry[]): MenuEntry[] {
  return entries.flatMap((entry) => (entry.children.length ? leafEntries(entry.children) : [entry]));
}

/** Route path → entry, for the dynamic routes and tab titles. */
export function routeTable(entries: readonly MenuEntry[]): Map<string, MenuEntry> {
  const table = new Map<string, MenuEntry>();
  for (const entry of leafEntries(entries)) table.set(entry.path, entry);
  return table;
}

/**
 * Spec §2: leaf menus whose label starts with the query, case-insensitive. `label`
 * gives the text the user sees (translated name).
 */
export function searchMenus(
  leaves: readonly MenuEntry[],
  query: string,
  label: (entry: MenuEntry) => string,
): MenuEntry[] {
  const q = query.trim().toLocaleLowerCase();
  if (!q) return [...leaves];
  return leaves.filter((entry) => label(entry).toLocaleLowerCase().startsWith(q));
}
