import { lazyNamespace, page, type WebContext } from '../../app/context';
import type { GrowthMessages } from './i18n/zh-CN';

/** The teacher growth archive (issue 19): `/growth/teacher`, the menu `growth`'s page. */
export const growthContext: WebContext<'growth', GrowthMessages> = {
  name: 'growth',
  i18n: lazyNamespace('growth', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')])),
  menuPages: {
    growth: page(() => import('./pages/GrowthPage'), 'GrowthPage'),
  },
};
