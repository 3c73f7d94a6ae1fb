import { lazyNamespace, type WebContext } from '../../app/context';
import { crudPage } from '../../kit/crud/loader';
import type { SystemMessages } from './i18n/zh-CN';

const dictBizPage = crudPage(() => import('./pages/DictBizPage'), 'DictBizPage');

/**
 * System management (issue 16): its console screens, each a definition on the CRUD kit
 * (`screens/`), each page its own chunk, shown behind its menu code; the spec's two dictionary
 * pages (§2) are routes of their own.
 */
export const systemContext: WebContext<'system', SystemMessages> = {
  name: 'system',
  i18n: lazyNamespace('system', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')])),
  pages: [
    { path: '/dict-horizontal/index', load: dictBizPage, titleKey: 'route.dictHorizontal', icon: 'Book2' },
    {
      path: '/dict-vertical/index',
      load: crudPage(() => import('./pages/DictVerticalPage'), 'DictVerticalPage'),
      titleKey: 'route.dictVertical',
      icon: 'Book2',
    },
    {
      path: '/student/roster',
      load: crudPage(() => import('./pages/RosterPage'), 'RosterPage'),
      titleKey: 'route.studentRoster',
      icon: 'MoodKid',
    },
  ],
  menuPages: {
    user: crudPage(() => import('./pages/UsersPage'), 'UsersPage'),
    post: crudPage(() => import('./pages/PostsPage'), 'PostsPage'),
    param: crudPage(() => import('./pages/ParamsPage'), 'ParamsPage'),
    menu: crudPage(() => import('./pages/MenusPage'), 'MenusPage'),
    topmenu: crudPage(() => import('./pages/TopMenusPage'), 'TopMenusPage'),
    tenant: crudPage(() => import('./pages/TenantsPage'), 'TenantsPage'),
    clazz: crudPage(() => import('./pages/ClassesPage'), 'ClassesPage'),
    student: crudPage(() => import('./pages/ChildrenPage'), 'ChildrenPage'),
    data_scope: crudPage(() => import('./pages/DataScopesPage'), 'DataScopesPage'),
    api_scope: crudPage(() => import('./pages/ApiScopesPage'), 'ApiScopesPage'),
    log_security: crudPage(() => import('./pages/SecurityLogPage'), 'SecurityLogPage'),
    dict: crudPage(() => import('./pages/DictPage'), 'DictPage'),
    dict_biz: dictBizPage,
    dept: crudPage(() => import('./pages/DeptsPage'), 'DeptsPage'),
    role: crudPage(() => import('./pages/RolesPage'), 'RolesPage'),
    region: crudPage(() => import('./pages/RegionPage'), 'RegionPage'),
    client: crudPage(() => import('./pages/ClientPage'), 'ClientPage'),
  },
};
