import { page, pagesContext } from '../../app/context';
import { PATHS } from '../../app/paths';

/** The welcome page (the home tab), the dashboard and the test page. */
export const homeContext = pagesContext('home', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')]), [
  {
    path: PATHS.home,
    load: page(() => import('./pages/WelcomePage'), 'WelcomePage'),
    titleKey: 'route.home',
    icon: 'Home',
  },
  {
    path: PATHS.dashboard,
    load: page(() => import('./pages/DashboardPage'), 'DashboardPage'),
    titleKey: 'route.dashboard',
    icon: 'LayoutDashboard',
  },
  {
    path: PATHS.test,
    load: page(() => import('./pages/TestPage'), 'TestPage'),
    titleKey: 'route.test',
    icon: 'Flask',
    keepAlive: true,
  },
]);
