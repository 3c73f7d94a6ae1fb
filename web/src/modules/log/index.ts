import { lazyNamespace, page, type WebContext } from '../../app/context';
import { crudPage } from '../../kit/crud/loader';
import type { LogMessages } from './i18n/zh-CN';

/**
 * The logs (issue 17, spec §7 "Logs"): the API, usual and error log screens, read only, on the
 * CRUD kit (`screens/logs.ts`), each page its own chunk behind its menu code; and 任务队列, the
 * job queues' depth and the queue board (issue 22).
 */
export const logContext: WebContext<'log', LogMessages> = {
  name: 'log',
  i18n: lazyNamespace('log', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')])),
  menuPages: {
    log_api: crudPage(() => import('./pages/ApiLogPage'), 'ApiLogPage'),
    log_usual: crudPage(() => import('./pages/UsualLogPage'), 'UsualLogPage'),
    log_error: crudPage(() => import('./pages/ErrorLogPage'), 'ErrorLogPage'),
    monitor_queues: page(() => import('./pages/QueuesPage'), 'QueuesPage'),
  },
};
