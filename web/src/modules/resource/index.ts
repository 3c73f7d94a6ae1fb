import { lazyNamespace, type WebContext } from '../../app/context';
import { crudPage } from '../../kit/crud/loader';
import type { ResourceMessages } from './i18n/zh-CN';

/**
 * Resources (issue 17): object storage configurations and attachments, each a console screen
 * on the CRUD kit (`screens/`), each page its own chunk, shown behind its menu code.
 */
export const resourceContext: WebContext<'resource', ResourceMessages> = {
  name: 'resource',
  i18n: lazyNamespace('resource', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')])),
  menuPages: {
    oss: crudPage(() => import('./pages/OssPage'), 'OssPage'),
    attach: crudPage(() => import('./pages/AttachPage'), 'AttachPage'),
  },
};
