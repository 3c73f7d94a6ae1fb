import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context';
import { clazzRoutes } from './clazz-routes';
import { deptRoutes } from './dept-routes';
import { menuGrantRoutes } from './menu-grant-routes';
import { ownMenuRoutes } from './menu-own-routes';
import { menuRoutes } from './menu-routes';
import { SYSTEM_MENUS } from './menus';
import './messages';
import { postRoutes } from './post-routes';
import { registrationReviewRoutes } from './registration-review-routes';
import { roleRoutes } from './role-routes';
import { scopeRoutes } from './scope-routes';
import { selectRoutes } from './select-routes';
import { studentIoRoutes } from './student-io-routes';
import { studentRoutes } from './student-routes';
import { tenantRoutes } from './tenant-routes';
import { topMenuRoutes } from './topmenu-routes';
import { userAdminRoutes } from './user-admin-routes';
import { userIoRoutes } from './user-io-routes';
import { userRoutes } from './user-routes';
import { userStatusRoutes } from './user-status-routes';

/** Each file's routes, in the order they are registered (the caller's own menus first). */
const ROUTES = [
  ownMenuRoutes,
  menuRoutes,
  menuGrantRoutes,
  topMenuRoutes,
  roleRoutes,
  deptRoutes,
  postRoutes,
  scopeRoutes,
  userRoutes,
  userAdminRoutes,
  userStatusRoutes,
  userIoRoutes,
  registrationReviewRoutes,
  tenantRoutes,
  selectRoutes,
  clazzRoutes,
  studentRoutes,
  studentIoRoutes,
];

/**
 * Issue 5: roles, menus, top menus, departments, posts, data and API scopes, users and
 * their grants, tenants, classes and children — every list and detail of a scoped resource
 * confined to the caller's data scope.
 */
export async function systemModule(app: FastifyInstance) {
  for (const routes of ROUTES) await app.register(routes);
}

/** The system-management context's manifest (services/api/src/context.ts). */
export const systemContext: ServerContext = { name: 'system', routes: systemModule, menus: SYSTEM_MENUS };
