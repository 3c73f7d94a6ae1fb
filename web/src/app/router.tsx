import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { RouteError } from '../components/RouteError/RouteError';
import { website } from '../config/website';
import { lazyPage } from '../lib/lazyPage';
import { setNavigator } from '../lib/navigation';
import { PATHS } from './paths';
import { Root } from './Root';
import type { RouteHandle } from './routeHandle';
import { SPEC_PAGES } from './specPages';

// Every page is its own chunk (spec §2), loaded with the 120 s chunk time-out (§9).
const LoginPage = lazyPage(() => import('../modules/auth/pages/LoginPage'), 'LoginPage');
const SocialCallbackPage = lazyPage(() => import('../modules/auth/pages/SocialCallbackPage'), 'SocialCallbackPage');
const LockPage = lazyPage(() => import('../modules/layout/pages/LockPage'), 'LockPage');
const MainLayout = lazyPage(() => import('../modules/layout/pages/MainLayout'), 'MainLayout');
const NotFoundPage = lazyPage(() => import('../modules/errors/pages/NotFoundPage'), 'NotFoundPage');
const ForbiddenPage = lazyPage(() => import('../modules/errors/pages/ForbiddenPage'), 'ForbiddenPage');
const ServerErrorPage = lazyPage(() => import('../modules/errors/pages/ServerErrorPage'), 'ServerErrorPage');
const WelcomePage = lazyPage(() => import('../modules/home/pages/WelcomePage'), 'WelcomePage');
const DashboardPage = lazyPage(() => import('../modules/home/pages/DashboardPage'), 'DashboardPage');
const InfoPage = lazyPage(() => import('../modules/info/pages/InfoPage'), 'InfoPage');
const TutorialPage = lazyPage(() => import('../modules/tutorial/pages/TutorialPage'), 'TutorialPage');
const TestPage = lazyPage(() => import('../modules/home/pages/TestPage'), 'TestPage');
const IframePage = lazyPage(() => import('../modules/layout/pages/IframePage'), 'IframePage');
const ComingSoonPage = lazyPage(() => import('../modules/layout/pages/ComingSoonPage'), 'ComingSoonPage');
const DynamicPage = lazyPage(() => import('../modules/layout/pages/DynamicPage'), 'DynamicPage');

const keepAlive = (path: string) => website.keepAlivePaths.includes(path);
const handle = (h: RouteHandle): RouteHandle => h;

/** Routes under the main layout: fixed pages, the spec's pages, then the menu's (dynamic) routes. */
const layoutRoutes: RouteObject[] = [
  { path: PATHS.wel, element: <Navigate to={PATHS.home} replace /> },
  { path: PATHS.home, element: <WelcomePage />, handle: handle({ titleKey: 'route.home', icon: 'Home' }) },
  {
    path: PATHS.dashboard,
    element: <DashboardPage />,
    handle: handle({ titleKey: 'route.dashboard', icon: 'LayoutDashboard' }),
  },
  { path: PATHS.info, element: <InfoPage />, handle: handle({ titleKey: 'route.info', icon: 'User' }) },
  { path: PATHS.tutorial, element: <TutorialPage />, handle: handle({ titleKey: 'route.tutorial', icon: 'Book' }) },
  {
    path: PATHS.test,
    element: <TestPage />,
    handle: handle({ titleKey: 'route.test', icon: 'Flask', keepAlive: keepAlive(PATHS.test) }),
  },
  {
    path: `${PATHS.iframe}/:routerPath`,
    element: <IframePage />,
    handle: handle({ titleKey: 'route.iframe', icon: 'ExternalLink' }),
  },
  ...SPEC_PAGES.map(
    ({ path, titleKey, icon, page: Page }): RouteObject => ({
      path,
      element: Page ? <Page /> : <ComingSoonPage titleKey={titleKey} />,
      handle: handle({ titleKey, icon, keepAlive: keepAlive(path) }),
    }),
  ),
  // Everything else: a route from the user's menu (spec §2 dynamic routes), else /404.
  { path: '*', element: <DynamicPage /> },
];

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    children: [
      { path: PATHS.root, element: <Navigate to={PATHS.wel} replace /> },
      { path: PATHS.login, element: <LoginPage />, handle: handle({ public: true, tab: false }) },
      {
        path: `${PATHS.socialCallback}/:source`,
        element: <SocialCallbackPage />,
        handle: handle({ public: true, tab: false }),
      },
      { path: PATHS.lock, element: <LockPage />, handle: handle({ tab: false }) },
      { path: PATHS.notFound, element: <NotFoundPage />, handle: handle({ public: true, tab: false }) },
      { path: PATHS.forbidden, element: <ForbiddenPage />, handle: handle({ public: true, tab: false }) },
      { path: PATHS.serverError, element: <ServerErrorPage />, handle: handle({ public: true, tab: false }) },
      {
        element: <MainLayout />,
        children: [{ errorElement: <RouteError embedded />, children: layoutRoutes }],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);

setNavigator((to, options) => {
  void router.navigate(to, options);
});
