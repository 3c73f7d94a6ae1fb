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
  },
};
