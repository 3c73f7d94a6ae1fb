/**
 * Routes under the main layout that spec §2 names and whose screens arrive with their
 * own issues (lesson plans, observations, dictionaries, …). Until then each shows a
 * "coming soon" page with its title; the keep-alive ones are kept alive already.
 */
export interface SpecPage {
  path: string;
  titleKey: string;
}

export const SPEC_PAGES: SpecPage[] = [
  { path: '/dict-horizontal/index', titleKey: 'route.dictHorizontal' },
  { path: '/dict-vertical/index', titleKey: 'route.dictVertical' },
  { path: '/growth/teacher', titleKey: 'route.growthTeacher' },
  { path: '/weekdetails/details', titleKey: 'route.weekDetails' },
  { path: '/week/week', titleKey: 'route.weekAdd' },
  { path: '/week/halfPlanList', titleKey: 'route.halfPlanList' },
  { path: '/week/halfPlanListTX', titleKey: 'route.halfPlanListTX' },
  { path: '/week/halfplanTianYuan', titleKey: 'route.halfplanTianYuan' },
  { path: '/week/halfplanTongXing', titleKey: 'route.halfplanTongXing' },
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
