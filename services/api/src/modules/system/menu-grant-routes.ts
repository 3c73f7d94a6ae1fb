import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { texts } from '../../http/answer';
import { IdListSchema } from '../../http/params';
import { readIn } from '../../http/query';
import { buildTree, selectTree, TreeNodeSchema, treeNode } from '../../http/tree';
import { grantable, heldApiScopeIds, menuName, withAncestors } from './catalogue';
import { roleTreeKeys, topMenuNames, topTreeKeys } from './menu-repo';
import { catalogueOf } from './menu-routes';
import { routesOf } from './shapes';

/** The role grant dialog and the top menus' menus: what may be granted and what is. */
export async function menuGrantRoutes(app: FastifyInstance) {
  const route = routesOf(app, 'menus');

  route.get('/api/blade-system/menu/grant-tree', {
    summary: 'What the caller may grant: menus with buttons, data scopes and API scopes under their menus',
    data: z.object({
      menu: z.array(TreeNodeSchema),
      dataScope: z.array(TreeNodeSchema),
      apiScope: z.array(TreeNodeSchema),
    }),
    handler: async (request) => {
      const perms = await permissionsOf(request);
      const ctx = tenantOf(request);
      const cat = await catalogueOf(request);
      const g = grantable(cat, perms, await heldApiScopeIds(app.database, ctx, perms.grants.roleIds));
      const lang = request.lang;
      const title = (m: Parameters<typeof menuName>[0]) => menuName(m, lang);
      // Scopes hang under their menu; the menus above them give the tree its shape.
      const scopeTree = (scopes: Array<{ id: string; menu_id: string; label: string }>) => {
        const holders = withAncestors(
          scopes.map((s) => s.menu_id),
          cat.menus,
        );
        const parents = cat.menus.filter((m) => holders.has(m.id)).map((m) => treeNode(m.id, m.parent_id, title(m)));
        return buildTree([...parents, ...scopes.map((s) => treeNode(s.id, s.menu_id, s.label))]);
      };
      return {
        menu: selectTree(
          cat.menus.filter((m) => g.menuIds.has(m.id)),
          title,
        ),
        dataScope: scopeTree(
          cat.dataScopes
            .filter((d) => g.dataScopeIds.has(d.id))
            .map((d) => ({ id: d.id, menu_id: d.menu_id, label: d.scope_name })),
        ),
        apiScope: scopeTree(
          cat.apiScopes
            .filter((a) => g.apiScopeIds.has(a.id))
            .map((a) => ({ id: a.id, menu_id: a.menu_id, label: `${a.scope_name} ${a.scope_path}` })),
        ),
      };
    },
  });

  route.get('/api/blade-system/menu/role-tree-keys', {
    summary: 'What roles hold: menu, data scope and API scope ids (union over roleIds)',
    query: z.object({ roleIds: IdListSchema }),
    data: z.object({ menu: texts, dataScope: texts, apiScope: texts, topMenu: texts }),
    handler: async (request, q) => {
      const roleIds = q.roleIds;
      if (!roleIds.length) return { menu: [], dataScope: [], apiScope: [], topMenu: [] };
      const [row] = await readIn(request, (db, ctx) => roleTreeKeys(db, ctx.tenantId, roleIds));
      return { menu: row?.menu ?? [], dataScope: row?.data ?? [], apiScope: row?.api ?? [], topMenu: row?.top ?? [] };
    },
  });

  route.get('/api/blade-system/menu/grant-top-tree', {
    summary: 'Menus (category 1) to set under a top menu, and the top menus (for role grants)',
    data: z.object({ menu: z.array(TreeNodeSchema), topMenu: z.array(TreeNodeSchema) }),
    handler: async (request) => {
      const cat = await catalogueOf(request);
      const tops = await readIn(request, (db) => topMenuNames(db));
      return {
        menu: selectTree(
          cat.menus.filter((m) => m.category === 1),
          (m) => menuName(m, request.lang),
        ),
        topMenu: tops.map((t) => treeNode(t.id, '0', menuName(t, request.lang))),
      };
    },
  });

  route.get('/api/blade-system/menu/top-tree-keys', {
    summary: 'The menu ids set under top menus (topMenuIds)',
    query: z.object({ topMenuIds: IdListSchema }),
    data: z.object({ menu: texts }),
    handler: async (request, q) => {
      const ids = q.topMenuIds;
      if (!ids.length) return { menu: [] };
      const rows = await readIn(request, (db) => topTreeKeys(db, ids));
      return { menu: rows.map((x) => x.menu_id) };
    },
  });
}
