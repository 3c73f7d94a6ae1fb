import type { ComponentType, LazyExoticComponent } from 'react';
import { lazyPage } from '../lib/lazyPage';

/**
 * Routes under the main layout that spec §2 names. A screen that exists is loaded lazily
 * (its own chunk); the others, arriving with their own issues (observations, dictionaries,
 * …), show a "coming soon" page with their title. The keep-alive ones are kept alive.
 */
export interface SpecPage {
  path: string;
  titleKey: string;
  /** Tabler icon name of its tab. */
  icon?: string;
  page?: LazyExoticComponent<ComponentType>;
}

const week = {
  editor: lazyPage(() => import('../modules/week/pages/WeekEditorPage'), 'WeekEditorPage'),
  details: lazyPage(() => import('../modules/week/pages/WeekDetailsPage'), 'WeekDetailsPage'),
  halfList: lazyPage(() => import('../modules/week/pages/DayPlanListPage'), 'HalfPlanListPage'),
  fullList: lazyPage(() => import('../modules/week/pages/DayPlanListPage'), 'FullPlanListPage'),
  tianYuan: lazyPage(() => import('../modules/week/pages/DayPlanPage'), 'TianYuanDayPlanPage'),
  tongXing: lazyPage(() => import('../modules/week/pages/DayPlanPage'), 'TongXingDayPlanPage'),
};

export const SPEC_PAGES: SpecPage[] = [
  { path: '/dict-horizontal/index', titleKey: 'route.dictHorizontal' },
  { path: '/dict-vertical/index', titleKey: 'route.dictVertical' },
  { path: '/growth/teacher', titleKey: 'route.growthTeacher' },
  { path: '/weekdetails/details', titleKey: 'route.weekDetails', icon: 'FileText', page: week.details },
  { path: '/week/week', titleKey: 'route.weekAdd', icon: 'Notes', page: week.editor },
  { path: '/week/halfPlanList', titleKey: 'route.halfPlanList', icon: 'Clock', page: week.halfList },
  { path: '/week/halfPlanListTX', titleKey: 'route.halfPlanListTX', icon: 'Sun', page: week.fullList },
  { path: '/week/halfplanTianYuan', titleKey: 'route.halfplanTianYuan', icon: 'Clock', page: week.tianYuan },
  { path: '/week/halfplanTongXing', titleKey: 'route.halfplanTongXing', icon: 'Sun', page: week.tongXing },
  { path: '/observation/observationDetails', titleKey: 'route.observationDetails' },
  { path: '/observation/shareDetails', titleKey: 'route.shareDetails' },
  { path: '/observation/autoObservationDetails', titleKey: 'route.autoObservationDetails' },
  { path: '/observation_regional/observationRegionalDetails', titleKey: 'route.observationRegionalDetails' },
  { path: '/hearken/hearkenDetails', titleKey: 'route.hearkenDetails' },
  { path: '/teacher_plan/planDetails', titleKey: 'route.planDetails' },
  { path: '/teacher_research/listResearch', titleKey: 'route.listResearch' },
  { path: '/teacher_research/researchDetails', titleKey: 'route.researchDetails' },
  { path: '/creview/creviewDetails', titleKey: 'route.creviewDetails' },
  { path: '/creview/creviewDetailsTy', titleKey: 'route.creviewDetailsTy' },
  { path: '/classWork/classWorkDetails', titleKey: 'route.classWorkDetails' },
  { path: '/classSummary/classSummaryDetails', titleKey: 'route.classSummaryDetails' },
  { path: '/halfFollow/halfFollowDetails', titleKey: 'route.halfFollowDetails' },
];
