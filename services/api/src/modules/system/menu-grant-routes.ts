import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { IdListSchema } from '../../http/params';
import { readIn } from '../../http/query';
import { getRoute } from '../../http/routes';
import { buildTree, selectTree, TreeNodeSchema, treeNode } from '../../http/tree';
import { grantable, heldApiScopeIds, menuName, withAncestors } from './catalogue';
import { roleTreeKeys, topMenuNames, topTreeKeys } from './menu-repo';
import { catalogueOf } from './menu-routes';

const Ids = z.array(z.string());
const tags = ['menus'];

/** The role grant dialog and the top menus' menus: what may be granted and what is. */
export async function menuGrantRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  getRoute(
    r,
    '/api/blade-system/menu/grant-tree',
    {
      tags,
      summary: 'What the caller may grant: menus with buttons, data scopes and API scopes under their menus',
      data: z.object({
        menu: z.array(TreeNodeSchema),
        dataScope: z.array(TreeNodeSchema),
        apiScope: z.array(TreeNodeSchema),
      }),
    },
    async (request) => {
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
  );

  getRoute(
    r,
    '/api/blade-system/menu/role-tree-keys',
    {
      tags,
      summary: 'What roles hold: menu, data scope and API scope ids (union over roleIds)',
      query: z.object({ roleIds: IdListSchema }),
      data: z.object({ menu: Ids, dataScope: Ids, apiScope: Ids, topMenu: Ids }),
    },
    async (request, q) => {
      const roleIds = q.roleIds;
      if (!roleIds.length) return { menu: [], dataScope: [], apiScope: [], topMenu: [] };
      const [row] = await readIn(request, (db, ctx) => roleTreeKeys(db, ctx.tenantId, roleIds));
      return { menu: row?.menu ?? [], dataScope: row?.data ?? [], apiScope: row?.api ?? [], topMenu: row?.top ?? [] };
    },
  );

  getRoute(
    r,
    '/api/blade-system/menu/grant-top-tree',
    {
      tags,
      summary: 'Menus (category 1) to set under a top menu, and the top menus (for role grants)',
      data: z.object({ menu: z.array(TreeNodeSchema), topMenu: z.array(TreeNodeSchema) }),
    },
    async (request) => {
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
  );

  getRoute(
    r,
    '/api/blade-system/menu/top-tree-keys',
    {
      tags,
      summary: 'The menu ids set under top menus (topMenuIds)',
      query: z.object({ topMenuIds: IdListSchema }),
      data: z.object({ menu: Ids }),
    },
    async (request, q) => {
      const ids = q.topMenuIds;
      if (!ids.length) return { menu: [] };
      const rows = await readIn(request, (db) => topTreeKeys(db, ids));
      return { menu: rows.map((x) => x.menu_id) };
    },
  );
}
