import type { WebContext } from '../../app/context';
import { recordsPage } from '../../kit/records/namespace';
import type { GuideMessages } from './i18n/zh-CN';
import { guideNamespace } from './namespace';

/** What other contexts use: the home page's observation panel, and the per-child page's path. */
export { GuideDashboard } from './dashboard';
export const childPagePath = (studentId: string) => `/guide/child/${encodeURIComponent(studentId)}`;

/** 《3-6岁儿童学习与发展指南》 (issue 18): the per-child page and the home page's observation figures. */
export const guideContext: WebContext<'guide', GuideMessages> = {
  name: 'guide',
  i18n: guideNamespace,
  pages: [
    {
      path: '/guide/child/:studentId',
      // With the record kit's texts: its photo thumbnails (a HEIC photo's placeholder) are the kit's.
      load: recordsPage(() => import('./pages/ChildPage'), 'ChildPage'),
      titleKey: 'route.guideChild',
      icon: 'MoodKid',
    },
  ],
};
