import type { ComponentType } from 'react';
import type { PageLoader } from '../../app/context';
import { loadNamespace } from '../../i18n/namespaces';
import { crudNamespace } from './namespace';

/**
 * A context's page built on the kit, in its own chunk, ready once the kit's texts are there too:
 * `crudPage(() => import('./pages/PostsPage'), 'PostsPage')` in the context's manifest. Light on
 * purpose: a manifest imports it, the kit itself arrives with the page.
 */
export function crudPage<K extends string, M extends Record<K, ComponentType>>(
  load: () => Promise<M>,
  name: K,
): PageLoader {
  return () => Promise.all([load(), loadNamespace(crudNamespace)]).then(([module]) => module[name]);
}

export { crudNamespace };
