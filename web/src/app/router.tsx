import type { ComponentType, LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { RouteError } from '../components/RouteError/RouteError';
import { registerRecordLabels, registerRecordRoutes } from '../kit/records/registry';
import { loadNamespace } from '../i18n';
import { website } from '../config/website';
import { lazyPage } from '../lib/lazyPage';
import { setNavigator } from '../lib/navigation';
import { COMING_SOON } from './comingSoon';
import { CONTEXTS } from './contexts';
import { lazyInContext } from './lazyContext';
import { MOVED_PATHS, PATHS } from './paths';
import { Root } from './Root';
import type { RouteHandle } from './routeHandle';

// The frame: the main layout, the menu's dynamic route and the coming-soon page. Every page is
// its own chunk (spec §2), loaded with the 120 s chunk time-out (§9) and its context's texts.
const MainLayout = lazyPage(() => import('../modules/layout/pages/MainLayout'), 'MainLayout');
const ComingSoonPage = lazyPage(() => import('../modules/layout/pages/ComingSoonPage'), 'ComingSoonPage');
const DynamicPage = lazyPage(() => import('../modules/layout/pages/DynamicPage'), 'DynamicPage');

/** Kept alive when the user switches tabs (spec §2): the page says so, unless the deployment lists the pages itself. */
const keepAlive = (path: string, own?: boolean) =>
  website.keepAlivePaths ? website.keepAlivePaths.includes(path) : own === true;

/** The contexts' pages alone on screen (sign-in, lock, error pages) or inside the main layout. */
function contextRoutes(alone: boolean): RouteObject[] {
  return CONTEXTS.flatMap((context) =>
    (context.pages ?? [])
      .filter((page) => (page.alone === true) === alone)
      .map(({ path, load, alone: _alone, ...handle }): RouteObject => {
        const Page = lazyInContext(context, load);
        const own: RouteHandle = { ...handle, keepAlive: keepAlive(path, handle.keepAlive) };
        return { path, element: <Page />, handle: own };
      }),
  );
}

// Where each context's records open (kit/records/registry.ts).
for (const context of CONTEXTS) {
  registerRecordRoutes(context.recordRoutes ?? {});
  registerRecordLabels(context.recordLabels ?? {}, () => loadNamespace(context.i18n as never));
}

/** Screens behind the server menu's codes, from every context. */
const menuPages: Record<string, LazyExoticComponent<ComponentType>> = Object.fromEntries(
  CONTEXTS.flatMap((context) =>
    Object.entries(context.menuPages ?? {}).map(([code, load]) => [code, lazyInContext(context, load)]),
  ),
);

/** Routes under the main layout: the contexts' pages, the spec's pages still to come, then the menu's (dynamic) routes. */
const layoutRoutes: RouteObject[] = [
  { path: PATHS.wel, element: <Navigate to={PATHS.home} replace /> },
  ...contextRoutes(false),
  ...COMING_SOON.map(
    ({ path, titleKey, keepAlive: own }): RouteObject => ({
      path,
      element: <ComingSoonPage titleKey={titleKey} />,
      handle: { titleKey, keepAlive: keepAlive(path, own) } satisfies RouteHandle,
    }),
  ),
  ...MOVED_PATHS.map(([from, to]): RouteObject => ({ path: from, element: <Navigate to={to} replace /> })),
  // Everything else: a route from the user's menu (spec §2 dynamic routes), else /404.
  { path: '*', element: <DynamicPage pages={menuPages} /> },
];

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    children: [
      { path: PATHS.root, element: <Navigate to={PATHS.wel} replace /> },
      ...contextRoutes(true),
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
