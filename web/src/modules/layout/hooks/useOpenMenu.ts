import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { setCollapsed } from '../layoutStore';
import type { MenuEntry } from '../menu/types';
import { screenSizeOf } from './useScreenSize';

/**
 * Opens a menu item (spec §2): an external page in a new window when isOpen is 2, else
 * its route (the iframe route for external pages). At screen size ≤ 1 the sidebar then
 * collapses (spec §4).
 */
export function useOpenMenu(): (entry: MenuEntry) => void {
  const navigate = useNavigate();
  return useCallback(
    (entry) => {
      if (entry.newWindow && entry.url) {
        window.open(entry.url, '_blank', 'noopener,noreferrer');
      } else {
        navigate(entry.path);
      }
      if (screenSizeOf(window.innerWidth) <= 1) setCollapsed(true);
    },
    [navigate],
  );
}
