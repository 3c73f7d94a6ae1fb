import { lazyNamespace, page, type WebContext } from '../../app/context';
import { PATHS } from '../../app/paths';
import type { InfoMessages } from './i18n/zh-CN';

/** The user's own information and password. */
export const infoContext: WebContext<'info', InfoMessages> = {
  name: 'info',
  i18n: lazyNamespace('info', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')])),
  pages: [
    {
      path: PATHS.info,
      load: page(() => import('./pages/InfoPage'), 'InfoPage'),
      titleKey: 'route.info',
      icon: 'User',
    },
  ],
};
