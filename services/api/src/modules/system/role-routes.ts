import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { readInTenant } from '@sprout/core/db';
import { badRequest, notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import { nextId } from '@sprout/core/ids';
import { PLATFORM_TENANT_ID } from '@sprout/core/permissions/constants';
import { writeRoleGrants } from '@sprout/core/permissions/seed';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { grantable, heldApiScopeIds, loadCatalogue, menuName } from './catalogue';
import { requireKnownIds } from '../../http/known';
import { IdListSchema, IdSchema, input, ParentIdSchema, RequiredIdListSchema } from '../../http/params';
import { buildTree, makesCycle, treeNode } from '../../http/tree';

interface RoleRow {
  id: string;
  parent_id: string;
  role_name: string;
  role_alias: string;
  sort: number;
}

export const presentRole = (r: RoleRow, parentName = '') => ({
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

export async function roleRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  const roles = (request: Parameters<typeof tenantOf>[0]) => {
    const ctx = tenantOf(request);
    return readInTenant<RoleRow>(
      app.database,
      ctx,
      sql`select id::text, parent_id::text, role_name, role_alias, sort from role
          where tenant_id = ${ctx.tenantId} and is_deleted = 0 order by sort, id`.compile(app.database.db),
    );
  };

  r.get(
    '/api/blade-system/role/list',
    {
      schema: {
        tags: ['roles'],
        summary: 'The tenant’s roles as a tree (filtered by roleName, roleAlias)',
        querystring: RoleFilterSchema,
      },
    },
    async (request) => {
      const q = request.query;
      const all = await roles(request);
      const names = new Map(all.map((x) => [x.id, x.role_name]));
      const rows = all.filter(
        (x) =>
          (!q.roleName || x.role_name.includes(q.roleName)) && (!q.roleAlias || x.role_alias.includes(q.roleAlias)),
      );
      return ok(buildTree(rows.map((x) => presentRole(x, names.get(x.parent_id) ?? ''))), request.lang);
    },
  );

  r.get(
    '/api/blade-system/role/tree',
    {
      schema: {
        tags: ['roles'],
        summary: 'The tenant’s roles as tree nodes (selects, user role assignment)',
        querystring: z.object({ tenantId: z.string().trim().max(12).optional() }),
      },
    },
    async (request) => {
      const all = await roles(request);
      return ok(buildTree(all.map((x) => treeNode(x.id, x.parent_id, x.role_name))), request.lang);
    },
  );

  r.get(
    '/api/blade-system/role/detail',
    { schema: { tags: ['roles'], summary: 'One role', querystring: z.object({ id: IdSchema }) } },
    async (request) => {
      const all = await roles(request);
      const role = all.find((x) => x.id === request.query.id);
      if (!role) throw notFound();
      return ok(presentRole(role, all.find((x) => x.id === role.parent_id)?.role_name ?? ''), request.lang);
    },
  );

  r.post(
    '/api/blade-system/role/submit',
    { schema: { tags: ['roles'], summary: 'Adds (no id) or updates a role', body: RoleSubmitSchema } },
    async (request) => {
      const b = request.body;
      const ctx = tenantOf(request);
      if (b.roleAlias === 'administrator' && ctx.tenantId !== PLATFORM_TENANT_ID)
        throw badRequest('system.roleAliasReserved');
      const saved = await request.tx(async (trx) => {
        const all = await trx
          .selectFrom('role')
          .select(['id', 'parent_id', 'role_alias'])
          .where('tenant_id', '=', ctx.tenantId)
          .where('is_deleted', '=', 0)
          .execute();
        if (b.id && !all.some((x) => String(x.id) === b.id)) throw notFound();
        if (b.parentId !== '0' && !all.some((x) => String(x.id) === b.parentId))
          throw badRequest('system.roleParentMissing');
        if (b.id && makesCycle(b.id, b.parentId, new Map(all.map((x) => [String(x.id), String(x.parent_id)]))))
          throw badRequest('system.roleCycle');
        if (all.some((x) => x.role_alias === b.roleAlias && String(x.id) !== b.id))
          throw badRequest('system.roleAliasExists', { alias: b.roleAlias });
        const values = {
          parent_id: b.parentId,
          role_name: b.roleName,
          role_alias: b.roleAlias,
          sort: b.sort,
          update_time: new Date(),
        };
        if (b.id) {
          await trx
            .updateTable('role')
            .set(values)
            .where('tenant_id', '=', ctx.tenantId)
            .where('id', '=', b.id)
            .execute();
          return b.id;
        }
        const id = nextId();
        await trx
          .insertInto('role')
          .values({ ...values, tenant_id: ctx.tenantId, id })
          .execute();
        return id;
      });
      // An alias change is what role guards of older modules read from tokens; grants are unchanged.
      if (b.id) await app.permissions.invalidateTenant(ctx.tenantId);
      const all = await roles(request);
      const role = all.find((x) => x.id === saved) as RoleRow;
      return ok(presentRole(role), request.lang, b.id ? 'system.updated' : 'system.added');
    },
  );

  r.post(
    '/api/blade-system/role/remove',
    {
      schema: {
        tags: ['roles'],
        summary: 'Deletes roles (ids) with their grants and user assignments; refused while child roles stay',
        querystring: z.object({ ids: RequiredIdListSchema }),
      },
    },
    async (request) => {
      const ids = request.query.ids;
      const ctx = tenantOf(request);
      await request.tx(async (trx) => {
        await requireKnownIds(trx, { table: 'role', alias: 'r', tenantId: ctx.tenantId, ids });
        const children = await trx
          .selectFrom('role')
          .select('role_name')
          .where('tenant_id', '=', ctx.tenantId)
          .where('is_deleted', '=', 0)
          .where('parent_id', 'in', ids)
          .where('id', 'not in', ids)
          .execute();
        if (children.length)
          throw badRequest('system.roleHasChildren', { names: children.map((c) => c.role_name).join('、') });
        await trx
          .updateTable('role')
          .set({ is_deleted: 1, update_time: new Date() })
          .where('tenant_id', '=', ctx.tenantId)
          .where('id', 'in', ids)
          .execute();
        for (const table of ['role_menu', 'role_scope', 'role_top_menu', 'user_role'] as const)
          await trx.deleteFrom(table).where('tenant_id', '=', ctx.tenantId).where('role_id', 'in', ids).execute();
      });
      await app.permissions.invalidateTenant(ctx.tenantId);
      return ok(null, request.lang, 'system.removed');
    },
  );

  r.post(
    '/api/blade-system/role/grant',
    {
      schema: {
        tags: ['roles'],
        summary: 'Replaces the grants of roles: menus and buttons, data scopes, API scopes (and top menus)',
        description:
          'JSON body (Saber) or query string: roleIds, menuIds, dataScopeIds, apiScopeIds as arrays or comma-separated ids. Unknown ids, platform menus outside the platform tenant, roles of another tenant, or permissions the caller does not hold → 400, nothing written.',
      },
    },
    async (request) => {
      const g = input(request, RoleGrantSchema);
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

      const unknownMenus = g.menuIds.filter((id) => !menuById.has(id));
      if (unknownMenus.length) throw badRequest('system.unknownMenus', { ids: unknownMenus.join(',') });
      const platformOnly = g.menuIds.filter(
        (id) => menuById.get(id)?.platform_only && ctx.tenantId !== PLATFORM_TENANT_ID,
      );
      if (platformOnly.length) throw badRequest('system.platformOnlyGrant', { names: names(platformOnly) });
      // Saber sends the ids checked in its scope trees, menus above the scopes included: those are dropped.
      const dataIds = g.dataScopeIds.filter((id) => !menuById.has(id));
      const apiIds = g.apiScopeIds.filter((id) => !menuById.has(id));
      const knownData = new Map(known.dataScopes.map((d) => [d.id, d]));
      const knownApi = new Map(known.apiScopes.map((a) => [a.id, a]));
      const unknownData = dataIds.filter((id) => !knownData.has(id));
      if (unknownData.length) throw badRequest('system.unknownDataScopes', { ids: unknownData.join(',') });
      const unknownApi = apiIds.filter((id) => !knownApi.has(id));
      if (unknownApi.length) throw badRequest('system.unknownApiScopes', { ids: unknownApi.join(',') });
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
        const found = await trx
          .selectFrom('role')
          .select('id')
          .where('tenant_id', '=', ctx.tenantId)
          .where('is_deleted', '=', 0)
          .where('id', 'in', g.roleIds)
          .execute();
        const have = new Set(found.map((x) => String(x.id)));
        const missing = g.roleIds.filter((id) => !have.has(id));
        if (missing.length) throw badRequest('system.unknownRoles', { ids: missing.join(',') });
        const topMenuIds = g.topMenuIds;
        if (topMenuIds?.length) {
          const tops = await trx
            .selectFrom('top_menu')
            .select('id')
            .where('is_deleted', '=', 0)
            .where('id', 'in', topMenuIds)
            .execute();
          const t = new Set(tops.map((x) => String(x.id)));
          const unknownTops = topMenuIds.filter((id) => !t.has(id));
          if (unknownTops.length) throw badRequest('system.unknownTopMenus', { ids: unknownTops.join(',') });
        }
        for (const roleId of g.roleIds)
          await writeRoleGrants(trx, ctx.tenantId, roleId, {
            menuIds: g.menuIds,
            dataScopeIds: dataIds,
            apiScopeIds: apiIds,
            topMenuIds: g.topMenuIds,
          });
      });
      await app.permissions.invalidateTenant(ctx.tenantId);
      return ok(null, request.lang, 'system.granted');
    },
  );
}
