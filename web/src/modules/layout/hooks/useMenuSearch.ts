import { useMemo, useState } from 'react';
import { useStore } from '../../../lib/createStore';
import { leafEntries, searchMenus } from '../menu/buildMenu';
import { menuStore } from '../menu/menuStore';
import { useMenuLabel } from './useMenuLabel';
import { useOpenMenu } from './useOpenMenu';

/**
 * A search of the leaf menus by name prefix, case-insensitive (the top bar's and 菜单搜索):
 * the query, the menus it matches, their labels, and opening one.
 */
export function useMenuSearch() {
  const all = useStore(menuStore, (s) => s.all);
  const label = useMenuLabel();
  const open = useOpenMenu();
  const [query, setQuery] = useState('');
  const leaves = useMemo(() => leafEntries(all), [all]);
  const matches = useMemo(() => searchMenus(leaves, query, label), [leaves, query, label]);
  return { all, leaves, label, open, query, setQuery, matches };
}
