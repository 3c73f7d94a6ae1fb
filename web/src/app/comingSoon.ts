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
  { path: '/teacher_plan/planDetails', titleKey: 'route.planDetails' },
  { path: '/teacher_research/listResearch', titleKey: 'route.listResearch' },
  { path: '/teacher_research/researchDetails', titleKey: 'route.researchDetails' },
  { path: '/classWork/classWorkDetails', titleKey: 'route.classWorkDetails' },
  { path: '/classSummary/classSummaryDetails', titleKey: 'route.classSummaryDetails' },
  { path: '/halfFollow/halfFollowDetails', titleKey: 'route.halfFollowDetails' },
];
