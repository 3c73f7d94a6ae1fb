import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { badRequest } from '@sprout/core/errors';
import { PLATFORM_TENANT_ID } from '@sprout/core/permissions/constants';
import { writeRoleGrants } from '@sprout/core/permissions/seed';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { int, text } from '../../http/answer';
import { liveIds, refuseMissing } from '../../http/known';
import { IdListSchema, IdSchema, ParentIdSchema, RequiredIdListSchema } from '../../http/params';
import { readIn, writeRow } from '../../http/query';
import { parentNames, selectTree, TreeNodeSchema } from '../../http/tree';
import { grantable, heldApiScopeIds, loadCatalogue, menuName } from './catalogue';
import { refuseUnknownRoles, removeRoleGrants, type RoleRow, roleRows, roleTree } from './role-repo';
import { refuseStayingChildren, refuseTreeSave, routesOf } from './shapes';
import { logUsual } from '@sprout/core/usual-log';

/** A role as the role screen shows it. */
export const RoleSchema = z.object({
  id: text,
  parentId: text,
  parentName: text,
  roleName: text,
  roleAlias: text,
  sort: int,
});

export const presentRole = (r: RoleRow, parentName = ''): z.output<typeof RoleSchema> => ({
  id: String(r.id),
  parentId: String(r.parent_id),
  parentName,
  roleName: r.role_name,
  roleAlias: r.role_alias,
  sort: r.sort,
});

export const RoleSubmitSchema = z.object({
  id: IdSchema.optional(),
  parentId: ParentIdSchema,
  roleName: z.string().trim().min(1, '$validation.required').max(64),
  roleAlias: z
    .string()
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, '$validation.code'),
  sort: z.coerce.number().int().min(0).max(100_000).default(0),
});

/** Role grant (spec §3): roleIds, menuIds, dataScopeIds, apiScopeIds (and topMenuIds, optional). */
export const RoleGrantSchema = z.object({
  roleIds: RequiredIdListSchema,
  menuIds: IdListSchema.default([]),
  dataScopeIds: IdListSchema.default([]),
  apiScopeIds: IdListSchema.default([]),
  topMenuIds: IdListSchema.optional(),
});

const RoleFilterSchema = z.object({
  roleName: z.string().trim().max(64).optional(),
  roleAlias: z.string().trim().max(64).optional(),
});

/** Roles: list, select tree, detail, add or update, remove, and their grants. */
export async function roleRoutes(app: FastifyInstance) {
  // Hand-written, not defineResource: its list is a whole filtered tree (not the builder's pages), its remove cascades grants and user assignments, and it grants.
  const route = routesOf(app, 'roles');
  const roles = (request: FastifyRequest) => readIn(request, (db, ctx) => roleRows(db, ctx.tenantId));
  const name = (x: RoleRow) => x.role_name;

  route.treeList('/api/blade-system/role/list', {
    summary: 'The tenant’s roles as a tree (filtered by roleName, roleAlias)',
    query: RoleFilterSchema,
    node: ['RoleNode', RoleSchema],
    rows: roles,
    name,
    keep: (x, q) =>
      (!q.roleName || x.role_name.includes(q.roleName)) && (!q.roleAlias || x.role_alias.includes(q.roleAlias)),
    present: () => presentRole,
  });

  route.get('/api/blade-system/role/tree', {
    summary: 'The tenant’s roles as tree nodes (selects, user role assignment)',
    query: z.object({ tenantId: z.string().trim().max(12).optional() }),
    data: z.array(TreeNodeSchema),
    handler: async (request) => selectTree(await roles(request), name),
  });

  route.detail('/api/blade-system/role/detail', {
    summary: 'One role',
    data: RoleSchema,
    find: async (request, id) => {
      const all = await roles(request);
      const role = all.find((x) => x.id === id);
      return role && presentRole(role, parentNames(all, name)(role));
    },
  });

  route.submit('/api/blade-system/role/submit', {
    summary: 'Adds (no id) or updates a role',
    body: RoleSubmitSchema,
    data: RoleSchema,
    save: async (request, b, ctx) => {
      if (b.roleAlias === 'administrator' && ctx.tenantId !== PLATFORM_TENANT_ID)
        throw badRequest('system.roleAliasReserved');
      const saved = await request.tx(async (trx) => {
        const all = await roleTree(trx, ctx.tenantId);
        refuseTreeSave(all, b, {
          parentMissing: 'system.roleParentMissing',
          cycle: 'system.roleCycle',
          taken: {
            is: (x) => x.role_alias === b.roleAlias,
            message: 'system.roleAliasExists',
            params: { alias: b.roleAlias },
          },
        });
        return writeRow(trx, 'role', ctx.tenantId, b.id, {
          parent_id: b.parentId,
          role_name: b.roleName,
          role_alias: b.roleAlias,
          sort: b.sort,
          update_time: new Date(),
        });
      });
      // An alias change is what role guards of older modules read from tokens; grants are unchanged.
      if (b.id) await app.permissions.invalidateTenant(ctx.tenantId);
      const role = (await roles(request)).find((x) => x.id === saved) as RoleRow;
      return presentRole(role);
    },
  });

  route.remove('/api/blade-system/role/remove', {
    summary: 'Deletes roles (ids) with their grants and user assignments; refused while child roles stay',
    table: 'role',
    alias: 'r',
    refuse: refuseStayingChildren('role', 'system.roleHasChildren'),
    cascade: (trx, { tenantId }, ids) => removeRoleGrants(trx, tenantId, ids),
    after: (_request, tenantId) => app.permissions.invalidateTenant(tenantId),
  });

  route.post('/api/blade-system/role/grant', {
    summary: 'Replaces the grants of roles: menus and buttons, data scopes, API scopes (and top menus)',
    description:
      'JSON body (Saber) or query string: roleIds, menuIds, dataScopeIds, apiScopeIds as arrays or comma-separated ids. Unknown ids, platform menus outside the platform tenant, roles of another tenant, or permissions the caller does not hold → 400, nothing written.',
    merged: RoleGrantSchema,
    data: z.null(),
    done: 'system.granted',
    handler: async (request, g) => {
      const ctx = tenantOf(request);
      const perms = await permissionsOf(request);
      // The whole catalogue (platform-only included) to tell "unknown" from "not here".
      const cat = await loadCatalogue(app.database, ctx);
      const known =
        ctx.tenantId === PLATFORM_TENANT_ID ? cat : await loadCatalogue(app.database, ctx, { withPlatformOnly: true });
      const may = grantable(cat, perms, await heldApiScopeIds(app.database, ctx, perms.grants.roleIds));
      const menuById = new Map(known.menus.map((m) => [m.id, m]));
      const names = (ids: string[]) =>
        ids
          .map((id) => {
            const m = menuById.get(id);
            return m ? menuName(m, request.lang) : id;
          })
          .slice(0, 10)
          .join('、');

      refuseMissing(g.menuIds, menuById.keys(), 'system.unknownMenus');
      const platformOnly = g.menuIds.filter(
        (id) => menuById.get(id)?.platform_only && ctx.tenantId !== PLATFORM_TENANT_ID,
      );
      if (platformOnly.length) throw badRequest('system.platformOnlyGrant', { names: names(platformOnly) });
      // Saber sends the ids checked in its scope trees, menus above the scopes included: those are dropped.
      const dataIds = g.dataScopeIds.filter((id) => !menuById.has(id));
      const apiIds = g.apiScopeIds.filter((id) => !menuById.has(id));
      const knownData = new Map(known.dataScopes.map((d) => [d.id, d]));
      const knownApi = new Map(known.apiScopes.map((a) => [a.id, a]));
      refuseMissing(dataIds, knownData.keys(), 'system.unknownDataScopes');
      refuseMissing(apiIds, knownApi.keys(), 'system.unknownApiScopes');
      const scopeOnPlatformMenu = [
        ...dataIds.map((id) => (knownData.get(id) as { menu_id: string }).menu_id),
        ...apiIds.map((id) => (knownApi.get(id) as { menu_id: string }).menu_id),
      ].filter((menuId) => menuById.get(menuId)?.platform_only && ctx.tenantId !== PLATFORM_TENANT_ID);
      if (scopeOnPlatformMenu.length)
        throw badRequest('system.platformOnlyGrant', { names: names([...new Set(scopeOnPlatformMenu)]) });
      const beyond = [
        ...g.menuIds.filter((id) => !may.menuIds.has(id)).map((id) => names([id])),
        ...dataIds.filter((id) => !may.dataScopeIds.has(id)).map((id) => knownData.get(id)?.scope_name ?? id),
        ...apiIds.filter((id) => !may.apiScopeIds.has(id)).map((id) => knownApi.get(id)?.scope_path ?? id),
      ];
      if (beyond.length) throw badRequest('system.grantBeyondOwn', { names: beyond.slice(0, 10).join('、') });

      await request.tx(async (trx) => {
        await refuseUnknownRoles(trx, ctx.tenantId, g.roleIds);
        const topMenuIds = g.topMenuIds;
        if (topMenuIds?.length)
          refuseMissing(topMenuIds, await liveIds(trx, 'top_menu', topMenuIds), 'system.unknownTopMenus');
        for (const roleId of g.roleIds)
          await writeRoleGrants(trx, ctx.tenantId, roleId, {
            menuIds: g.menuIds,
            dataScopeIds: dataIds,
            apiScopeIds: apiIds,
            topMenuIds: g.topMenuIds,
          });
      });
      logUsual(
        {
          tenantId: ctx.tenantId,
          userId: ctx.userId,
          account: request.user?.account as string | undefined,
          title: 'role grant',
          data: { roleIds: g.roleIds, menus: g.menuIds.length, dataScopes: dataIds.length, apiScopes: apiIds.length },
          request: { method: request.method, url: request.url, ip: request.ip },
        },
        app.database,
      );
      await app.permissions.invalidateTenant(ctx.tenantId);
      return null;
    },
  });
}
