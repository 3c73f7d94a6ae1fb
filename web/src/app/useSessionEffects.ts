import { notifications } from '@mantine/notifications';
import { createElement, useEffect } from 'react';
import { website } from '../config/website';
import { i18n } from '../i18n';
import { refreshAccessToken } from '../modules/auth/api/token';
import { InactivityNotice } from '../modules/auth/components/InactivityNotice/InactivityNotice';
import { createInactivityWatch } from '../modules/auth/inactivity';
import { readExpiresIn, readRefreshToken, readTenantId, readTokenTime, saveSession } from '../modules/auth/session';
import { createCrossTabLock, createTokenRefresher, type RefreshOutcome } from '../modules/auth/tokenRefresh';
import { handleUnauthorized } from './sessionActions';

async function refreshNow(): Promise<RefreshOutcome> {
  const refreshToken = readRefreshToken();
  if (!refreshToken) return 'invalid';
  try {
    const result = await refreshAccessToken({ refreshToken, tenantId: readTenantId() ?? website.defaultTenantId });
    if (result.ok) {
      saveSession(result.token, Date.now(), true);
      return 'ok';
    }
    if (result.status === 400 || result.status === 401) {
      if (result.message) notifications.show({ color: 'red', message: result.message });
      return 'invalid';
    }
    return 'retry';
  } catch {
    return 'retry'; // network or time-out: the next check tries again
  }
}

/** One refresher per tab (module scope: survives re-renders and StrictMode double effects). */
const refresher = createTokenRefresher({
  now: () => Date.now(),
  readTokenTime,
  readExpiresIn,
  // Read at each check: the server's setting arrives after this module is loaded.
  get tokenTime() {
    return website.tokenTime;
  },
  refresh: refreshNow,
  withLock: createCrossTabLock('sprout-token-refresh'),
  onInvalid: handleUnauthorized,
});

/** The token-age check now, not at the next interval (a live-editing socket was refused: 4401). */
export const refreshTokenIfDue = () => refresher.check();

/**
 * While signed in: the token-age check every interval (spec §4) and the inactivity
 * watch on clicks (spec §4, §8).
 */
export function useSessionEffects(signedIn: boolean): void {
  useEffect(() => {
    if (!signedIn) return;
    void refresher.check();
    const timer = window.setInterval(() => void refresher.check(), website.tokenCheckIntervalMs);
    return () => window.clearInterval(timer);
  }, [signedIn]);

  useEffect(() => {
    if (!signedIn) return;
    const watch = createInactivityWatch({
      limitMs: website.inactivityLimitMs,
      now: () => Date.now(),
      onExpired: () =>
        notifications.show({
          id: 'inactivity',
          color: 'red',
          autoClose: false,
          title: i18n.t('auth.inactivity.title'),
          message: createElement(InactivityNotice),
        }),
    });
    const onClick = () => watch.click();
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, [signedIn]);
}
