import type { FastifyInstance } from 'fastify';
import './messages';
import { clazzRoutes } from './clazz-routes';
import { deptRoutes } from './dept-routes';
import { menuGrantRoutes } from './menu-grant-routes';
import { ownMenuRoutes } from './menu-own-routes';
import { menuRoutes } from './menu-routes';
import { postRoutes } from './post-routes';
import { registrationReviewRoutes } from './registration-review-routes';
import { roleRoutes } from './role-routes';
import { scopeRoutes } from './scope-routes';
import { studentRoutes } from './student-routes';
import { tenantRoutes } from './tenant-routes';
import { topMenuRoutes } from './topmenu-routes';
import { userAdminRoutes } from './user-admin-routes';
import { userRoutes } from './user-routes';
import type { ServerContext } from '../../context';
import { SYSTEM_MENUS } from './menus';

/**
 * Issue 5: roles, menus, top menus, departments, posts, data and API scopes, users and
 * their grants, tenants, classes and children — every list and detail of a scoped resource
 * confined to the caller's data scope.
 */
export async function systemModule(app: FastifyInstance) {
  await app.register(ownMenuRoutes);
  await app.register(menuRoutes);
  await app.register(menuGrantRoutes);
  await app.register(topMenuRoutes);
  await app.register(roleRoutes);
  await app.register(deptRoutes);
  await app.register(postRoutes);
  await app.register(scopeRoutes);
  await app.register(userRoutes);
  await app.register(userAdminRoutes);
  await app.register(registrationReviewRoutes);
  await app.register(tenantRoutes);
  await app.register(clazzRoutes);
  await app.register(studentRoutes);
}

/** The system-management context's manifest (services/api/src/context.ts). */
export const systemContext: ServerContext = { name: 'system', routes: systemModule, menus: SYSTEM_MENUS };
