import { createStore } from '../../../lib/createStore';
import { buildMenu, routeTable } from './buildMenu';
import type { MenuEntry, MenuNode, TopMenu } from './types';

export interface MenuState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** Every menu the user may see (route table, search). */
  all: MenuEntry[];
  /** What the sidebar shows: the chosen top menu's tree, or all. */
  sidebar: MenuEntry[];
  topMenus: TopMenu[];
  /** The chosen top menu id; null = all menus. */
  activeTop: string | null;
  /** Leaf route → entry. */
  table: Map<string, MenuEntry>;
  /** Leaf routes the server sent but the user's roles hide (→ 403 instead of 404). */
  hidden: Set<string>;
}

const EMPTY: MenuState = {
  status: 'idle',
  all: [],
  sidebar: [],
  topMenus: [],
  activeTop: null,
  table: new Map(),
  hidden: new Set(),
};

export const menuStore = createStore<MenuState>(EMPTY);

export function resetMenus(): void {
  menuStore.set(EMPTY);
}

/** Applies the server's full menu for the user's roles. */
export function setMenus(nodes: MenuNode[], roles: string[], topMenus: TopMenu[]): void {
  const all = buildMenu(nodes, roles);
  const table = routeTable(all);
  const everything = routeTable(buildMenu(nodes, [], true));
  const hidden = new Set([...everything.keys()].filter((path) => !table.has(path)));
  menuStore.set((prev) => ({
    ...prev,
    status: 'ready',
    all,
    sidebar: prev.activeTop ? prev.sidebar : all,
    topMenus,
    table,
    hidden,
  }));
}

export function setSidebar(activeTop: string | null, nodes: MenuNode[] | null, roles: string[]): void {
  menuStore.set((prev) => ({ ...prev, activeTop, sidebar: nodes ? buildMenu(nodes, roles) : prev.all }));
}
