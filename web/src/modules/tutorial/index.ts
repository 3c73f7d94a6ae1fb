import { lazyNamespace, page, type WebContext } from '../../app/context';
import { PATHS } from '../../app/paths';
import type { TutorialMessages } from './i18n/zh-CN';

/** The platform tutorial. */
export const tutorialContext: WebContext<'tutorial', TutorialMessages> = {
  name: 'tutorial',
  i18n: lazyNamespace('tutorial', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')])),
  pages: [
    {
      path: PATHS.tutorial,
      load: page(() => import('./pages/TutorialPage'), 'TutorialPage'),
      titleKey: 'route.tutorial',
      icon: 'Book',
    },
  ],
};
