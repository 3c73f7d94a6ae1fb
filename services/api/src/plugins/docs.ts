import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import type { Config } from '@sprout/core/config';
import { AppError } from '@sprout/core/errors';
import { permissionsOf } from './auth';

/**
 * Who reads the API docs (`/api/docs`, `/api/docs/json`, the Swagger UI files).
 * `API_DOCS_PUBLIC=true` (the embedded default): anyone, as part of the public allowlist.
 * Otherwise (server mode by default) the platform administrator only: client credentials
 * and the token of a signed-in `administrator` of tenant 000000 (roles read from the
 * database, not the token); anyone else gets 401 or 403 like any other route.
 */
export function apiDocsAccess(config: Pick<Config, 'API_DOCS_PUBLIC'>): {
  routeConfig: FastifyContextConfig;
  uiHooks?: { preHandler: (request: FastifyRequest) => Promise<void> };
} {
  if (config.API_DOCS_PUBLIC) return { routeConfig: { public: true } };
  return {
    // The auth hook checks credentials and the token; the administrator check follows.
    routeConfig: { access: 'authenticated' },
    uiHooks: {
      async preHandler(request) {
        if (!(await permissionsOf(request)).isPlatformAdministrator) throw new AppError('forbidden', 'error.forbidden');
      },
    },
  };
}
