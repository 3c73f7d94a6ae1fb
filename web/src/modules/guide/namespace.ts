import { lazyNamespace } from '../../app/context';
import type { GuideMessages } from './i18n/zh-CN';

/** The Guidelines' texts: their own chunk, loaded with the child page and with the dashboard panel it lends the home page. */
export const guideNamespace = lazyNamespace<'guide', GuideMessages>('guide', () =>
  Promise.all([import('./i18n/zh-CN'), import('./i18n/en')]),
);
