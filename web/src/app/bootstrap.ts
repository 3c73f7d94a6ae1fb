import { notifications } from '@mantine/notifications';
import { i18n } from '../i18n';
import { installErrorCapture } from '../lib/errorLog';
import { configureHttp } from '../lib/http';
import { currentToken, syncSession } from '../modules/auth/session';
import { handleUnauthorized } from './sessionActions';

/** Wires the HTTP client, the error log and cross-tab session sync. Runs once before the first render. */
export function bootstrap(): void {
  installErrorCapture();
  configureHttp({
    getToken: currentToken,
    onUnauthorized: handleUnauthorized,
    notifyError: (message) => notifications.show({ color: 'red', message }),
    messages: () => ({
      unknown: i18n.t('errors.unknown'),
      network: i18n.t('errors.network'),
      timeout: i18n.t('errors.timeout'),
      status: i18n.t('errors.server'),
    }),
  });
  // Another tab signed in, refreshed or signed out: follow it.
  window.addEventListener('storage', (event) => {
    if (event.storageArea === window.localStorage) syncSession();
  });
}
