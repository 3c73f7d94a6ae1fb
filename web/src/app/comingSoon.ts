/**
 * Routes spec §2 names whose family has not landed yet (observations, teacher plans, …): each
 * shows the "coming soon" page with its title. A family that brings its page takes its line
 * out of here and lists the page in its context's manifest.
 */
export interface ComingSoonRoute {
  path: string;
  titleKey: string;
  keepAlive?: boolean;
}

export const COMING_SOON: ComingSoonRoute[] = [
  { path: '/growth/teacher', titleKey: 'route.growthTeacher' },
  { path: '/observation/observationDetails', titleKey: 'route.observationDetails', keepAlive: true },
  { path: '/observation/shareDetails', titleKey: 'route.shareDetails', keepAlive: true },
  { path: '/observation/autoObservationDetails', titleKey: 'route.autoObservationDetails', keepAlive: true },
  {
    path: '/observation_regional/observationRegionalDetails',
    titleKey: 'route.observationRegionalDetails',
    keepAlive: true,
  },
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
