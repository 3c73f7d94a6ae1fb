import { type ContextPage, page, type WebContext } from '../../app/context';
import { PATHS } from '../../app/paths';

const alone = { alone: true, public: true, tab: false } satisfies Partial<ContextPage>;

/** The error pages (404, 403, 500). Their texts are shared ones (`notFound`, `forbidden`, `serverError`). */
export const errorsContext: WebContext = {
  name: 'errors',
  pages: [
    { path: PATHS.notFound, load: page(() => import('./pages/NotFoundPage'), 'NotFoundPage'), ...alone },
    { path: PATHS.forbidden, load: page(() => import('./pages/ForbiddenPage'), 'ForbiddenPage'), ...alone },
    { path: PATHS.serverError, load: page(() => import('./pages/ServerErrorPage'), 'ServerErrorPage'), ...alone },
  ],
};
