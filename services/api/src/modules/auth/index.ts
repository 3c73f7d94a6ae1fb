import type { FastifyInstance } from 'fastify';
import { accountRoutes } from './account-routes';
import { registrationRoutes } from './registration-routes';
import { securityLogRoutes } from './security-log-routes';
import { sessionRoutes } from './session-routes';
import { tenantPublicRoutes } from './tenant-routes';
import { tokenRoutes } from './token-routes';
import type { ServerContext } from '../../context';
import { AUTH_MENUS } from './menus';

/** Issue 4: sign-in, tenants and sessions (BladeX auth calls), own account, security log. */
export async function authModule(app: FastifyInstance) {
  // Its own context: the token endpoint's lenient JSON parser stays inside it.
  await app.register(tokenRoutes);
  await app.register(sessionRoutes);
  await app.register(accountRoutes);
  await app.register(registrationRoutes);
  await app.register(tenantPublicRoutes);
  await app.register(securityLogRoutes);
}

/** The sign-in context's manifest (services/api/src/context.ts). */
export const authContext: ServerContext = { name: 'auth', routes: authModule, menus: AUTH_MENUS };
