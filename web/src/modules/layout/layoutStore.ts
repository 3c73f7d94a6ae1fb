import { createStore } from '../../lib/createStore';
import { getStore, setStore } from '../../lib/storage';

/** Sidebar collapsed or expanded, persisted (`sprout-collapse`). */
export const collapseStore = createStore<boolean>(getStore<boolean>('collapse') === true);

export function setCollapsed(collapsed: boolean): void {
  setStore('collapse', collapsed);
  collapseStore.set(collapsed);
}

export function toggleCollapsed(): void {
  setCollapsed(!collapseStore.get());
}
