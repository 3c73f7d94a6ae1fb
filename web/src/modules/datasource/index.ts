import { lazyNamespace, type WebContext } from '../../app/context';
import { crudPage } from '../../kit/crud/loader';
import type { DataSourceMessages } from './i18n/zh-CN';

/** Data sources (issue 21): the platform's PostgreSQL databases on the CRUD kit, menu `datasource`. */
export const dataSourceContext: WebContext<'datasource', DataSourceMessages> = {
  name: 'datasource',
  i18n: lazyNamespace('datasource', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')])),
  menuPages: {
    datasource: crudPage(() => import('./pages/DataSourcePage'), 'DataSourcePage'),
  },
};
