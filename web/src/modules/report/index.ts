import { lazyNamespace, page, type WebContext } from '../../app/context';
import type { ReportMessages } from './i18n/zh-CN';
import { REPORT_PATHS } from './paths';

/**
 * Reports (issue 21): the list behind the menu `report`, the designer (its buttons
 * report_add / report_edit) with a live preview, and a report's run with its chart and export.
 */
export const reportContext: WebContext<'report', ReportMessages> = {
  name: 'report',
  i18n: lazyNamespace('report', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')])),
  pages: [
    {
      path: REPORT_PATHS.design,
      load: page(() => import('./pages/ReportDesignPage'), 'ReportDesignPage'),
      titleKey: 'route.reportDesign',
      icon: 'ChartBar',
    },
    {
      path: REPORT_PATHS.run,
      load: page(() => import('./pages/ReportRunPage'), 'ReportRunPage'),
      titleKey: 'route.reportRun',
      icon: 'ChartBar',
    },
  ],
  menuPages: {
    report: page(() => import('./pages/ReportListPage'), 'ReportListPage'),
  },
};
