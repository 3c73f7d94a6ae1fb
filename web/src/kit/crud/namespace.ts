import { lazyNamespace } from '../../app/context';
import type { CrudMessages } from './i18n/zh-CN';

/** The kit's texts, `t('crud.<key>')`: their own chunks, loaded with the first page built on the kit. */
export const crudNamespace = lazyNamespace<'crud', CrudMessages>('crud', () =>
  Promise.all([import('./i18n/zh-CN'), import('./i18n/en')]),
);
