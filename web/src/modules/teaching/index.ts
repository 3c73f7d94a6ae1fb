import { familyLabels } from '../../kit/records/registry';
import { lazyNamespace, type WebContext } from '../../app/context';
import { recordsPage } from '../../kit/records/namespace';
import type { TeachingMessages } from './i18n/zh-CN';

type ListName =
  | 'TeacherPlanListPage'
  | 'ResearchListPage'
  | 'ProjectListPage'
  | 'ClassWorkListPage'
  | 'ClassSummaryListPage'
  | 'HalfFlowListPage';
type DetailsName =
  | 'PlanDetailsPage'
  | 'ResearchDetailsPage'
  | 'ProjectDetailsPage'
  | 'ClassWorkDetailsPage'
  | 'ClassSummaryDetailsPage'
  | 'HalfFollowDetailsPage';
const list = (name: ListName) => recordsPage(() => import('./pages/ListPages'), name);
const details = (name: DetailsName) => recordsPage(() => import('./pages/DetailsPages'), name);

/** Teacher plans, research activities, projects, class work plans and summaries, half-day visits (issue 19 part A). */
export const teachingContext: WebContext<'teaching', TeachingMessages> = {
  name: 'teaching',
  i18n: lazyNamespace('teaching', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')])),
  recordRoutes: {
    teacher_plan: '/teacher_plan/planDetails',
    research: '/teacher_research/researchDetails',
    project: '/teacher_project/projectDetails',
    class_work: '/classWork/classWorkDetails',
    class_summary: '/classSummary/classSummaryDetails',
    half_flow: '/halfFollow/halfFollowDetails',
    half_flow_item: { parent: '/halfFollow/halfFollowDetails' },
  },
  recordLabels: {
    teacher_plan: familyLabels(() => import('./families/plan').then((m) => m.teacherPlanFamily)),
    research: familyLabels(() => import('./families/research').then((m) => m.researchFamily)),
    project: familyLabels(() => import('./families/research').then((m) => m.projectFamily)),
    class_work: familyLabels(() => import('./families/classes').then((m) => m.classWorkFamily)),
    class_summary: familyLabels(() => import('./families/classes').then((m) => m.classSummaryFamily)),
    half_flow: familyLabels(() => import('./families/halfFlow').then((m) => m.halfFlowFamily)),
    half_flow_item: familyLabels(() => import('./families/halfFlow').then((m) => m.halfFlowItemFamily)),
  },
  pages: [
    {
      path: '/teacher_plan/planDetails',
      load: details('PlanDetailsPage'),
      titleKey: 'route.planDetails',
      icon: 'Target',
    },
    {
      path: '/teacher_research/listResearch',
      load: list('ResearchListPage'),
      titleKey: 'route.listResearch',
      icon: 'Flask',
    },
    {
      path: '/teacher_research/researchDetails',
      load: details('ResearchDetailsPage'),
      titleKey: 'route.researchDetails',
      icon: 'Flask',
    },
    {
      path: '/teacher_project/projectDetails',
      load: details('ProjectDetailsPage'),
      titleKey: 'route.projectDetails',
      icon: 'Bulb',
    },
    {
      path: '/classWork/classWorkDetails',
      load: details('ClassWorkDetailsPage'),
      titleKey: 'route.classWorkDetails',
      icon: 'ListCheck',
    },
    {
      path: '/classSummary/classSummaryDetails',
      load: details('ClassSummaryDetailsPage'),
      titleKey: 'route.classSummaryDetails',
      icon: 'FileText',
    },
    {
      path: '/halfFollow/halfFollowDetails',
      load: details('HalfFollowDetailsPage'),
      titleKey: 'route.halfFollowDetails',
      icon: 'Walk',
    },
  ],
  menuPages: {
    teacher_plan: list('TeacherPlanListPage'),
    research: list('ResearchListPage'),
    project: list('ProjectListPage'),
    class_work: list('ClassWorkListPage'),
    class_summary: list('ClassSummaryListPage'),
    half_follow: list('HalfFlowListPage'),
  },
};
