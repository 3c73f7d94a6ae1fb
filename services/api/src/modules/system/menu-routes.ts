import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { badRequest } from '@sprout/core/errors';
import { tenantOf } from '../../plugins/context';
import { flag, int, text } from '../../http/answer';
import { IdSchema, intEnum, optionalText, ParentIdSchema } from '../../http/params';
import { writeRow } from '../../http/query';
import { namedTree, parentNames, selectTree, TreeNodeSchema, treeSchema, withHasChildren } from '../../http/tree';
import { type Catalogue, loadCatalogue, type MenuRow, menuName } from './catalogue';
import { menuTree, removeMenuDependents } from './menu-repo';
import { refuseStayingChildren, refuseTreeSave, routesOf } from './shapes';

/** A menu or button as the menu screen shows it (both names). */
export const MenuSchema = z.object({
  id: text,
  parentId: text,
  parentName: text,
  code: text,
  name: text,
  nameEn: text,
  alias: text,
  path: text,
  source: text,
  sort: int,
  category: int,
  action: int,
  isOpen: int,
  platformOnly: flag,
  hidden: flag,
  resourceCode: text,
  remark: text,
});

export function presentMenu(m: MenuRow, parentName = ''): z.output<typeof MenuSchema> {
  return {
    id: m.id,
    parentId: m.parent_id,
    parentName,
    code: m.code,
    name: m.name,
    nameEn: m.name_en,
    alias: m.alias,
    path: m.path ?? '',
    source: m.source ?? '',
    sort: m.sort,
    category: m.category,
    action: m.action,
    isOpen: m.is_open,
    platformOnly: m.platform_only,
    hidden: m.hidden,
    resourceCode: m.resource_code ?? '',
    remark: m.remark ?? '',
  };
}

const MenuFilterSchema = z.object({
  code: z.string().trim().max(64).optional(),
  name: z.string().trim().max(100).optional(),
  alias: z.string().trim().max(64).optional(),
  category: z.coerce.number().int().min(1).max(2).optional(),
});
type MenuFilter = z.output<typeof MenuFilterSchema>;

const CODE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** Menu add/update (BladeX Menu): no id → add. */
export const MenuSubmitSchema = z.object({
  id: IdSchema.optional(),
  parentId: ParentIdSchema,
  code: z.string().trim().regex(CODE, '$validation.code'),
  name: z.string().trim().min(1, '$validation.required').max(100),
  nameEn: optionalText(100),
  alias: optionalText(64),
  path: optionalText(255),
  source: optionalText(64),
  sort: z.coerce.number().int().min(0).max(100_000).default(0),
  category: intEnum([1, 2] as const),
  action: intEnum([0, 1, 2] as const).default(0),
  isOpen: intEnum([1, 2] as const).default(1),
  platformOnly: z.coerce.boolean().optional(),
  hidden: z.coerce.boolean().optional(),
  resourceCode: optionalText(64),
  remark: optionalText(255),
});

const matches = (m: MenuRow, f: MenuFilter) =>
  (!f.code || m.code.includes(f.code)) &&
  (!f.name || m.name.includes(f.name) || m.name_en.toLowerCase().includes(f.name.toLowerCase())) &&
  (!f.alias || m.alias.includes(f.alias)) &&
  (!f.category || m.category === f.category);

/** The catalogue's menus as a tree for the menu screen (only what matches, when filtered). */
const menuList = (cat: Catalogue, filter: MenuFilter, onlyMenus: boolean) =>
  namedTree(
    cat.menus,
    (m) => m.name,
    (m) => (!onlyMenus || m.category === 1) && matches(m, filter),
    presentMenu,
  );

/** One level of the catalogue (lazy trees): the children of `parentId`, each saying whether it has children. */
function lazyLevel(cat: Catalogue, parentId: string, filter: MenuFilter, onlyMenus: boolean) {
  const rows = cat.menus.filter((m) => !onlyMenus || m.category === 1);
  const parentName = parentNames(cat.menus, (m) => m.name);
  const level = rows.filter((m) => m.parent_id === parentId && matches(m, filter));
  return withHasChildren(
    level.map((m) => presentMenu(m, parentName(m))),
    rows,
  );
}

/** The catalogue as the caller's tenant sees it (catalogue.ts). */
export const catalogueOf = (request: FastifyRequest) => loadCatalogue(request.server.database, tenantOf(request));

/** The menu screen (platform): the catalogue's menus and buttons, as trees and one by one. */
export async function menuRoutes(app: FastifyInstance) {
  // Hand-written, not defineResource: menus and buttons are one tree read from the cached catalogue (menu-list, lazy trees, platform-only rows), a remove cascades its data and API scopes and top-menu places.
  const route = routesOf(app, 'menus');
  const LazyQuerySchema = MenuFilterSchema.extend({ parentId: ParentIdSchema });
  const MenuTreeSchema = z.array(treeSchema('MenuNode', MenuSchema));
  const MenuLevelSchema = z.array(MenuSchema.extend({ hasChildren: z.boolean() }));

  route.get('/api/blade-system/menu/list', {
    summary: 'Menus and buttons as a tree (filtered by code, name, alias, category)',
    query: MenuFilterSchema,
    data: MenuTreeSchema,
    handler: async (request, q) => menuList(await catalogueOf(request), q, false),
  });

  route.get('/api/blade-system/menu/menu-list', {
    summary: 'Menus only (category 1) as a tree',
    query: MenuFilterSchema,
    data: MenuTreeSchema,
    handler: async (request, q) => menuList(await catalogueOf(request), q, true),
  });

  route.get('/api/blade-system/menu/lazy-list', {
    summary: 'One level of menus and buttons: the children of parentId (0: the roots)',
    query: LazyQuerySchema,
    data: MenuLevelSchema,
    handler: async (request, q) => lazyLevel(await catalogueOf(request), q.parentId, q, false),
  });

  route.get('/api/blade-system/menu/lazy-menu-list', {
    summary: 'One level of menus (category 1): the children of parentId',
    query: LazyQuerySchema,
    data: MenuLevelSchema,
    handler: async (request, q) => lazyLevel(await catalogueOf(request), q.parentId, q, true),
  });

  route.get('/api/blade-system/menu/tree', {
    summary: 'Menus (category 1) as tree nodes for selects; with tenantId, what that tenant may hold',
    query: z.object({
      tenantId: z
        .string()
        .trim()
        .regex(/^\d{6}$/)
        .optional(),
    }),
    data: z.array(TreeNodeSchema),
    handler: async (request, q) => {
      const cat = await catalogueOf(request);
      const forTenant = q.tenantId;
      const rows = cat.menus.filter(
        (m) => m.category === 1 && (!forTenant || forTenant === '000000' || !m.platform_only),
      );
      return selectTree(rows, (m) => menuName(m, request.lang));
    },
  });

  route.detail('/api/blade-system/menu/detail', {
    summary: 'One menu or button',
    data: MenuSchema,
    find: async (request, id) => {
      const cat = await catalogueOf(request);
      const m = cat.menus.find((x) => x.id === id);
      return m && presentMenu(m, parentNames(cat.menus, (x) => x.name)(m));
    },
  });

  route.submit('/api/blade-system/menu/submit', {
    summary: 'Adds (no id) or updates a menu or button of the catalogue',
    body: MenuSubmitSchema,
    data: MenuSchema,
    save: async (request, b, ctx) => {
      const saved = await request.tx(async (trx) => {
        const all = await menuTree(trx, ctx.tenantId);
        refuseTreeSave(all, b, {
          parentMissing: 'system.menuParentMissing',
          parentOk: (parent) => parent.category === 1,
          more: (parent) => {
            if (b.category === 2 && !parent) throw badRequest('system.buttonNeedsMenu');
          },
          cycle: 'system.menuCycle',
          taken: { is: (m) => m.code === b.code, message: 'system.menuCodeExists', params: { code: b.code } },
        });
        return writeRow(trx, 'menu', ctx.tenantId, b.id, {
          parent_id: b.parentId,
          code: b.code,
          name: b.name,
          name_en: b.nameEn ?? '',
          alias: b.alias ?? '',
          path: b.path,
          source: b.source,
          sort: b.sort,
          category: b.category,
          action: b.action,
          is_open: b.isOpen,
          resource_code: b.resourceCode,
          remark: b.remark,
          update_time: new Date(),
          ...(b.platformOnly !== undefined ? { platform_only: b.platformOnly } : {}),
          ...(b.hidden !== undefined ? { hidden: b.hidden } : {}),
        });
      });
      await app.permissions.invalidateCatalogue();
      const m = (await catalogueOf(request)).menus.find((x) => x.id === saved) as MenuRow;
      return presentMenu(m);
    },
  });

  route.remove('/api/blade-system/menu/remove', {
    summary: 'Deletes menus or buttons (ids); refused while they have children that stay',
    table: 'menu',
    alias: 'm',
    refuse: refuseStayingChildren('menu', 'system.menuHasChildren', 10),
    cascade: (trx, { tenantId }, ids) => removeMenuDependents(trx, tenantId, ids),
    after: () => app.permissions.invalidateCatalogue(),
  });
}
