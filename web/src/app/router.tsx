import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, Outlet } from 'react-router-dom';
import { PageLoader } from '../components/PageLoader/PageLoader';
import { RouteError } from '../components/RouteError/RouteError';
import { HOME_REDIRECT, PATHS } from './paths';

// Pages are separate chunks: the first screen only downloads what it shows.
const LoginPage = lazy(() => import('../modules/auth/pages/LoginPage').then((m) => ({ default: m.LoginPage })));
const NotFoundPage = lazy(() =>
  import('../modules/errors/pages/NotFoundPage').then((m) => ({ default: m.NotFoundPage })),
);

function RootLayout() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
}

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { path: PATHS.root, element: <Navigate to={HOME_REDIRECT} replace /> },
      { path: PATHS.login, element: <LoginPage /> },
      { path: PATHS.notFound, element: <NotFoundPage /> },
      { path: '*', element: <Navigate to={PATHS.notFound} replace /> },
    ],
  },
]);
