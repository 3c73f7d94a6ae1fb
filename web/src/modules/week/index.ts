import type { RecordLabelsTranslate } from '../../kit/records/registry';
import { page, type WebContext } from '../../app/context';
import type { WeekMessages } from './i18n/zh-CN';
import { weekNamespace } from './namespace';
import { WEEK_PATHS } from './paths';

/** What other contexts may use of the week: the teaching figures the home pages show. */
export { WeekDashboard } from './dashboard';
/** A week as its printed plan, read only (the auditors' console). */
export { WeekSheet, type WeekSheetFacts } from './sheet';

const weekList = (
  name: 'MyWeeksPage' | 'TrialWeeksPage' | 'ApprovedWeeksPage' | 'ExcellentPlansPage' | 'FavouritePlansPage',
) => page(() => import('./pages/WeekListPages'), name);
const dayPlanList = page(() => import('./pages/DayPlanListPage'), 'HalfPlanListPage');
const fullPlanList = page(() => import('./pages/DayPlanListPage'), 'FullPlanListPage');

/** Weekly lesson plans (issue 7) and their live co-editing (issue 8). */
export const weekContext: WebContext<'week', WeekMessages> = {
  name: 'week',
  i18n: weekNamespace,
  recordRoutes: {
    week: '/weekdetails/details',
    week_plan: { parent: '/weekdetails/details' },
    day_plan: { parent: '/weekdetails/details' },
  },
  recordLabels: Object.fromEntries(
    ['week', 'week_plan', 'day_plan'].map((kind) => [
      kind,
      () => import('./hooks/useWeekLabels').then((m) => (tt: RecordLabelsTranslate) => m.weekLabels(tt).pathLabels),
    ]),
  ),
  pages: [
    {
      path: WEEK_PATHS.details,
      load: page(() => import('./pages/WeekDetailsPage'), 'WeekDetailsPage'),
      titleKey: 'route.weekDetails',
      icon: 'FileText',
      keepAlive: true,
    },
    {
      path: '/week/week',
      load: page(() => import('./pages/WeekEditorPage'), 'WeekEditorPage'),
      titleKey: 'route.weekAdd',
      titleKeyWith: { param: 'id', titleKey: 'route.weekEdit' },
      icon: 'Notes',
      keepAlive: true,
    },
    { path: WEEK_PATHS.halfList, load: dayPlanList, titleKey: 'route.halfPlanList', icon: 'Clock' },
    { path: WEEK_PATHS.fullList, load: fullPlanList, titleKey: 'route.halfPlanListTX', icon: 'Sun' },
    {
      path: WEEK_PATHS.tianYuan,
      load: page(() => import('./pages/DayPlanPage'), 'TianYuanDayPlanPage'),
      titleKey: 'route.halfplanTianYuan',
      icon: 'Clock',
    },
    {
      path: WEEK_PATHS.tongXing,
      load: page(() => import('./pages/DayPlanPage'), 'TongXingDayPlanPage'),
      titleKey: 'route.halfplanTongXing',
      icon: 'Sun',
    },
  ],
  menuPages: {
    week_mine: weekList('MyWeeksPage'),
    week_trial: weekList('TrialWeeksPage'),
    week_success: weekList('ApprovedWeeksPage'),
    week_excellent_list: weekList('ExcellentPlansPage'),
    week_favorite: weekList('FavouritePlansPage'),
    week_half: dayPlanList,
    week_full: fullPlanList,
    week_template: page(() => import('./pages/TemplatesPage'), 'TemplatesPage'),
  },
};
