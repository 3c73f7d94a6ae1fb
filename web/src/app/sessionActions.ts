import { notifications } from '@mantine/notifications';
import { i18n } from '../i18n';
import { navigateTo } from '../lib/navigation';
import { logoutRequest } from '../modules/auth/api/account';
import type { TokenResponse } from '../modules/auth/api/token';
import { clearLock } from '../modules/auth/lock';
import { clearSession, guestStore, readAccessToken, saveSession } from '../modules/auth/session';
import { resetMenus } from '../modules/layout/menu/menuStore';
import { resetTabs } from '../modules/layout/tabs/tabsStore';
import { resetPermissions } from '../permissions/permissions';
import { PATHS } from './paths';
import { queryClient } from './queryClient';

/** After a successful sign-in (spec §4: the lock is cleared on login). */
export function completeSignIn(token: TokenResponse): void {
  guestStore.set(null);
  clearLock();
  resetMenus();
  resetPermissions();
  resetTabs();
  queryClient.clear();
  saveSession(token);
}

/** Forgets everything about the session in this browser (spec §2: local logout). */
export function localLogout(): void {
  clearSession();
  clearLock();
  guestStore.set(null);
  resetMenus();
  resetPermissions();
  resetTabs();
  // Another user's rows must not show from the cache.
  queryClient.clear();
}

/** Signs out: tells the server (its failure does not matter), forgets locally, goes to /login. */
export async function logout(): Promise<void> {
  if (readAccessToken() || guestStore.get()) {
    try {
      await logoutRequest();
    } catch {
      /* the local logout happens regardless */
    }
  }
  localLogout();
  navigateTo(PATHS.login, { replace: true });
}

let redirecting = false;

/** A 401 anywhere (spec §6, §8): local logout and /login, once for a burst of failing calls. */
export function handleUnauthorized(): void {
  if (redirecting) return;
  redirecting = true;
  const hadSession = readAccessToken() !== null;
  localLogout();
  if (hadSession) {
    notifications.show({ id: 'session-expired', color: 'orange', message: i18n.t('auth.sessionExpired') });
  }
  navigateTo(PATHS.login, { replace: true });
  setTimeout(() => {
    redirecting = false;
  }, 1000);
}
