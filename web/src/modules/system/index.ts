import { lazyNamespace, type WebContext } from '../../app/context';
import { crudPage } from '../../kit/crud/loader';
import type { SystemMessages } from './i18n/zh-CN';

/**
 * System management (issue 16): its console screens, each a definition on the CRUD kit
 * (`screens/`), each page its own chunk, shown behind its menu code.
 */
export const systemContext: WebContext<'system', SystemMessages> = {
  name: 'system',
  i18n: lazyNamespace('system', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')])),
  menuPages: {
    post: crudPage(() => import('./pages/PostsPage'), 'PostsPage'),
    param: crudPage(() => import('./pages/ParamsPage'), 'ParamsPage'),
    topmenu: crudPage(() => import('./pages/TopMenusPage'), 'TopMenusPage'),
    tenant: crudPage(() => import('./pages/TenantsPage'), 'TenantsPage'),
    clazz: crudPage(() => import('./pages/ClassesPage'), 'ClassesPage'),
    student: crudPage(() => import('./pages/ChildrenPage'), 'ChildrenPage'),
    data_scope: crudPage(() => import('./pages/DataScopesPage'), 'DataScopesPage'),
    api_scope: crudPage(() => import('./pages/ApiScopesPage'), 'ApiScopesPage'),
    log_security: crudPage(() => import('./pages/SecurityLogPage'), 'SecurityLogPage'),
  },
};
