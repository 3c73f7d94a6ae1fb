import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { loadNamespace } from '../i18n/namespaces';
import { withChunkTimeout } from '../lib/lazyPage';
import type { WebContext } from './context';

/**
 * A context's page (or a component another context shows) in its own chunk, rendered once the
 * context's namespace is there too (no raw keys on screen); both within the chunk time-out
 * (spec §9: 120 s).
 */
export function lazyInContext<P extends object>(
  context: WebContext<string, unknown>,
  load: () => Promise<ComponentType<P>>,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(() =>
    withChunkTimeout(() => Promise.all([load(), loadNamespace(context.i18n)])).then(([Page]) => ({ default: Page })),
  );
}
