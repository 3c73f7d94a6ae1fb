import { page, pagesContext } from '../../app/context';
import { PATHS } from '../../app/paths';

/** The platform tutorial. */
export const tutorialContext = pagesContext(
  'tutorial',
  () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')]),
  [
    {
      path: PATHS.tutorial,
      load: page(() => import('./pages/TutorialPage'), 'TutorialPage'),
      titleKey: 'route.tutorial',
      icon: 'Book',
    },
  ],
);
