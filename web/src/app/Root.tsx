import { Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router-dom';
import { PageLoader } from '../components/PageLoader/PageLoader';
import { useStore } from '../lib/createStore';
import { lockStore } from '../modules/auth/lock';
import { sessionStore } from '../modules/auth/session';
import { decideRoute } from './guard';
import { handleOf } from './routeHandle';
import { localLogout } from './sessionActions';
import { useSessionEffects } from './useSessionEffects';

/** Top of every route: the guard (spec §2), the session's timers, and the page loader. */
export function Root() {
  const location = useLocation();
  const matches = useMatches();
  const token = useStore(sessionStore, (s) => s.token);
  const locked = useStore(lockStore);
  useSessionEffects(token !== null);

  const decision = decideRoute({
    path: location.pathname,
    isPublic: handleOf(matches).public === true,
    hasToken: token !== null,
    locked,
  });
  if (decision.action === 'redirect') {
    return decision.logout ? <LogoutRedirect to={decision.to} /> : <Navigate to={decision.to} replace />;
  }
  return (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
}

/** An empty token: forget what is left of the session, then go (spec §2). */
function LogoutRedirect({ to }: { to: string }) {
  useEffect(() => {
    localLogout();
  }, []);
  return <Navigate to={to} replace />;
}
