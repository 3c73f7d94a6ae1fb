import { lazyNamespace, type WebContext } from '../../app/context';
import { crudPage } from '../../kit/crud/loader';
import type { CodegenMessages } from './i18n/zh-CN';

/** The code generator (issue 21): its configurations on the CRUD kit, and their preview and zip, behind the menu `code`. */
export const codegenContext: WebContext<'codegen', CodegenMessages> = {
  name: 'codegen',
  i18n: lazyNamespace('codegen', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')])),
  menuPages: {
    code: crudPage(() => import('./pages/CodePage'), 'CodePage'),
  },
};
