import { website } from '../../../config/website';
import { createStore } from '../../../lib/createStore';
import { getStore, setStore } from '../../../lib/storage';

/** An opened page in the tab bar (spec §2). */
export interface Tab {
  /** Route path (pathname); one tab per path. */
  path: string;
  /** Query string and hash it was last shown with. */
  search: string;
  /** i18n key of its title, or the server's name when there is no key. */
  titleKey: string;
  title: string;
  icon?: string;
}

export interface TabsState {
  tabs: Tab[];
  /** Bumped by 清除缓存: kept-alive pages remount. */
  generation: number;
}

const KEY = 'tabs';

export function homeTab(): Tab {
  return { path: website.homePath, search: '', titleKey: 'route.home', title: '', icon: 'Home' };
}

function withHome(tabs: Tab[]): Tab[] {
  const home = homeTab();
  const rest = tabs.filter((t) => t.path !== home.path);
  const storedHome = tabs.find((t) => t.path === home.path);
  return [storedHome ? { ...home, search: storedHome.search } : home, ...rest];
}

function load(): Tab[] {
  const stored = getStore<Tab[]>(KEY);
  return withHome(Array.isArray(stored) ? stored.filter((t) => t && typeof t.path === 'string') : []);
}

export const tabsStore = createStore<TabsState>({ tabs: load(), generation: 0 });

function save(tabs: Tab[]): void {
  setStore(KEY, tabs);
}

function update(tabs: Tab[]): void {
  const next = withHome(tabs);
  save(next);
  tabsStore.set((prev) => ({ ...prev, tabs: next }));
}

/** Opens (or refreshes) the tab of a visited page. */
export function openTab(tab: Tab): void {
  const { tabs } = tabsStore.get();
  const at = tabs.findIndex((t) => t.path === tab.path);
  if (at === -1) {
    update([...tabs, tab]);
    return;
  }
  const current = tabs[at];
  if (current && current.search === tab.search && current.title === tab.title && current.titleKey === tab.titleKey)
    return;
  update(tabs.map((t, i) => (i === at ? { ...t, ...tab } : t)));
}

/** Closes a tab; returns where to go when it was the active one (its right, else left neighbour). */
export function closeTab(path: string): Tab | null {
  const { tabs } = tabsStore.get();
  if (path === website.homePath) return null;
  const at = tabs.findIndex((t) => t.path === path);
  if (at === -1) return null;
  const next = tabs[at + 1] ?? tabs[at - 1] ?? homeTab();
  update(tabs.filter((t) => t.path !== path));
  return next;
}

/** Keeps the home tab and `path`. */
export function closeOtherTabs(path: string): void {
  update(tabsStore.get().tabs.filter((t) => t.path === path || t.path === website.homePath));
}

/** Keeps the home tab only. */
export function closeAllTabs(): void {
  update([]);
}

/** Drops every kept-alive page's state (they remount on next view). */
export function clearTabCache(): void {
  tabsStore.set((prev) => ({ ...prev, generation: prev.generation + 1 }));
}

/** After sign-in and sign-out: just the home tab. */
export function resetTabs(): void {
  update([]);
  tabsStore.set((prev) => ({ ...prev, generation: prev.generation + 1 }));
}
