import type { ComponentType } from 'react';
import { lazyNamespace, type PageLoader } from '../../app/context';
import { loadNamespace } from '../../i18n/namespaces';
import type { RecordsMessages } from './i18n/zh-CN';

/** The kit's texts, `t('records.<key>')`: their own chunks, loaded with the first page built on the kit. */
export const recordsNamespace = lazyNamespace<'records', RecordsMessages>('records', () =>
  Promise.all([import('./i18n/zh-CN'), import('./i18n/en')]),
);

/** A context's page built on the kit, ready once the kit's texts are there too (as `crudPage`). */
export function recordsPage<K extends string, M extends Record<K, ComponentType>>(
  load: () => Promise<M>,
  name: K,
): PageLoader {
  return () => Promise.all([load(), loadNamespace(recordsNamespace)]).then(([module]) => module[name]);
}
