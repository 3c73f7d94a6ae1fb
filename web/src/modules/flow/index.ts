import { lazyNamespace, page, type WebContext } from '../../app/context';
import type { FlowMessages } from './i18n/zh-CN';
import { FLOW_PATHS } from './paths';

/** What other contexts show of the workflow: the caller's open task count (the home page's to-dos). */
export { useWorkTodoCount } from './api';

/**
 * Workflow (issue 20): the console's models with the BPMN modeler (bpmn-js, its own chunk),
 * deployments and follow-up; everyone's five work lists with claim, handle and delegate; the
 * leave request, its approval and detail pages (Saber's `/work/process/leave/…`, opened through
 * the category's flow route), each with the highlighted diagram and the history.
 */
export const flowContext: WebContext<'flow', FlowMessages> = {
  name: 'flow',
  i18n: lazyNamespace('flow', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')])),
  pages: [
    {
      path: FLOW_PATHS.design,
      load: page(() => import('./pages/ModelerPage'), 'ModelerPage'),
      titleKey: 'route.flowDesign',
      icon: 'Sitemap',
      keepAlive: true,
    },
    {
      path: FLOW_PATHS.process,
      load: page(() => import('./pages/ProcessViewPage'), 'ProcessViewPage'),
      titleKey: 'route.processView',
      icon: 'Route',
    },
    {
      path: FLOW_PATHS.leaveForm,
      load: page(() => import('./pages/LeaveFormPage'), 'LeaveFormPage'),
      titleKey: 'route.leaveForm',
      icon: 'CalendarWeek',
    },
    {
      path: FLOW_PATHS.leaveHandle,
      load: page(() => import('./pages/LeavePages'), 'LeaveHandlePage'),
      titleKey: 'route.leaveHandle',
      icon: 'ClipboardCheck',
    },
    {
      path: FLOW_PATHS.leaveDetail,
      load: page(() => import('./pages/LeavePages'), 'LeaveDetailPage'),
      titleKey: 'route.leaveDetail',
      icon: 'FileText',
    },
  ],
  menuPages: {
    flow_model: page(() => import('./pages/ModelsPage'), 'ModelsPage'),
    flow_manager: page(() => import('./pages/DeploymentsPage'), 'DeploymentsPage'),
    flow_follow: page(() => import('./pages/FollowPage'), 'FollowPage'),
    work_start: page(() => import('./pages/WorkListPage'), 'WorkStartPage'),
    work_claim: page(() => import('./pages/WorkListPage'), 'WorkClaimPage'),
    work_todo: page(() => import('./pages/WorkListPage'), 'WorkTodoPage'),
    work_send: page(() => import('./pages/WorkListPage'), 'WorkSendPage'),
    work_done: page(() => import('./pages/WorkListPage'), 'WorkDonePage'),
  },
};
