import { Center, Loader } from '@mantine/core';
import type { ComponentType, LazyExoticComponent } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { PATHS } from '../../../app/paths';
import { lazyPage } from '../../../lib/lazyPage';
import { useStore } from '../../../lib/createStore';
import { useMenuLabel } from '../hooks/useMenuLabel';
import { menuStore } from '../menu/menuStore';
import { ComingSoonPage } from './ComingSoonPage';

/**
 * Screens behind menu codes. Feature issues register their page here (lazily, e.g.
 * `week_mine: lazyPage(() => import('../../week/pages/MyPlansPage'), 'MyPlansPage')`);
 * a menu without one shows the coming-soon page.
 */
export const MENU_PAGES: Record<string, LazyExoticComponent<ComponentType>> = {
  week_mine: lazyPage(() => import('../../week/pages/WeekListPages'), 'MyWeeksPage'),
  week_trial: lazyPage(() => import('../../week/pages/WeekListPages'), 'TrialWeeksPage'),
  week_success: lazyPage(() => import('../../week/pages/WeekListPages'), 'ApprovedWeeksPage'),
  week_excellent_list: lazyPage(() => import('../../week/pages/WeekListPages'), 'ExcellentPlansPage'),
  week_favorite: lazyPage(() => import('../../week/pages/WeekListPages'), 'FavouritePlansPage'),
  week_half: lazyPage(() => import('../../week/pages/DayPlanListPage'), 'HalfPlanListPage'),
  week_full: lazyPage(() => import('../../week/pages/DayPlanListPage'), 'FullPlanListPage'),
  week_template: lazyPage(() => import('../../week/pages/TemplatesPage'), 'TemplatesPage'),
};

/**
 * Every path the fixed routes do not know (spec §2 dynamic routes): the user's menu
 * decides — its page, 403 for a menu the user's roles hide, else 404.
 */
export function DynamicPage() {
  const { pathname } = useLocation();
  const { status, table, hidden } = useStore(menuStore);
  const label = useMenuLabel();

  if (status === 'idle' || status === 'loading') {
    return (
      <Center mih={240}>
        <Loader />
      </Center>
    );
  }
  const entry = table.get(pathname);
  if (!entry) return <Navigate to={hidden.has(pathname) ? PATHS.forbidden : PATHS.notFound} replace />;
  const Page = MENU_PAGES[entry.code];
  return Page ? <Page /> : <ComingSoonPage title={label(entry)} />;
}
