import { Activity, type ReactNode, useRef } from 'react';
import { useLocation, useMatches, useOutlet } from 'react-router-dom';
import { handleOf } from '../../../../app/routeHandle';
import { useStore } from '../../../../lib/createStore';
import { tabsStore } from '../../tabs/tabsStore';

/**
 * The page area. Pages marked keep-alive (spec §2: lesson-plan details, add lesson plan,
 * observation details) stay mounted but hidden while their tab is open, so switching
 * tabs keeps their state; closing the tab or 清除缓存 lets them go.
 */
export function KeepAliveOutlet() {
  const outlet = useOutlet();
  const { pathname } = useLocation();
  const keepAlive = handleOf(useMatches()).keepAlive === true;
  const { tabs, generation } = useStore(tabsStore);
  const cache = useRef({ generation, pages: new Map<string, ReactNode>() });

  if (cache.current.generation !== generation) cache.current = { generation, pages: new Map() };
  const pages = cache.current.pages;
  const open = new Set(tabs.map((tab) => tab.path));
  for (const path of [...pages.keys()]) if (path !== pathname && !open.has(path)) pages.delete(path);
  if (keepAlive && !pages.has(pathname)) pages.set(pathname, outlet);

  return (
    <>
      {[...pages.entries()].map(([path, page]) => (
        <Activity key={`${generation}:${path}`} mode={path === pathname ? 'visible' : 'hidden'}>
          {page}
        </Activity>
      ))}
      {!keepAlive && <div key={pathname}>{outlet}</div>}
    </>
  );
}
