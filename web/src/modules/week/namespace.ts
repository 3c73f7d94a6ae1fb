import { lazyNamespace } from '../../app/context';
import type { WeekMessages } from './i18n/zh-CN';

/** The week's texts: their own chunk, loaded with its pages and with the dashboard it lends the home pages. */
export const weekNamespace = lazyNamespace<'week', WeekMessages>('week', () =>
  Promise.all([import('./i18n/zh-CN'), import('./i18n/en')]),
);
