import { page, pagesContext } from '../../app/context';
import { PATHS } from '../../app/paths';

/** The user's own information and password. */
export const infoContext = pagesContext('info', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')]), [
  {
    path: PATHS.info,
    load: page(() => import('./pages/InfoPage'), 'InfoPage'),
    titleKey: 'route.info',
    icon: 'User',
  },
]);
