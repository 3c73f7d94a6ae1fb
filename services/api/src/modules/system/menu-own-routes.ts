import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Lang } from '@sprout/core/i18n';
import { permissionsOf } from '../../plugins/auth';
import { flag, int, text } from '../../http/answer';
import { IdSchema } from '../../http/params';
import { readIn } from '../../http/query';
import { buildTree, treeSchema } from '../../http/tree';
import { type MenuRow, menuName, withAncestors, withDescendants } from './catalogue';
import { grantedTopMenus, topMenuMenuIds } from './menu-repo';
import { catalogueOf } from './menu-routes';
import { routesOf } from './shapes';

/** What a node of the caller's menu and button trees says of its menu or button. */
interface MenuNodeBase {
  id: string;
  parentId: string;
  code: string;
  name: string;
  alias: string;
  path: string;
  source: string;
}

const MenuNodeFields = {
  id: text,
  parentId: text,
  code: text,
  name: text,
  alias: text,
  path: text,
  source: text,
};

const menuNode = (m: MenuRow, lang: Lang): MenuNodeBase => ({
  id: m.id,
  parentId: m.parent_id,
  code: m.code,
  name: menuName(m, lang),
  alias: m.alias,
  path: m.path ?? '',
  source: m.source ?? '',
});

/** A node of the caller's menu tree (`routes`), before nesting (buildTree adds `children`). */
export interface RouteNode extends MenuNodeBase {
  sort: number;
  category: number;
  isOpen: number;
  meta: { i18n: string; hidden?: boolean };
}

const RouteNodeSchema = treeSchema(
  'RouteNode',
  z.object({
    ...MenuNodeFields,
    sort: int,
    category: int,
    isOpen: int,
    meta: z.object({ i18n: text, hidden: flag.optional() }),
  }),
);

const routeNode = (m: MenuRow, lang: Lang): RouteNode => ({
  ...menuNode(m, lang),
  sort: m.sort,
  category: 1,
  isOpen: m.is_open,
  meta: m.hidden ? { i18n: `menu.${m.code}`, hidden: true } : { i18n: `menu.${m.code}` },
});

/** A node of the caller's button tree (`buttons`): menus down to the buttons' codes. */
export interface ButtonNode extends MenuNodeBase {
  category: number;
  action: number;
  sort: number;
}

const ButtonNodeSchema = treeSchema(
  'ButtonNode',
  z.object({
    ...MenuNodeFields,
    category: int,
    action: int,
    sort: int,
  }),
);

const buttonNode = (m: MenuRow, lang: Lang): ButtonNode => ({
  ...menuNode(m, lang),
  category: m.category,
  action: m.action,
  sort: m.sort,
});

/** A top menu of the caller's. */
const OwnTopMenuSchema = z.object({
  id: text,
  code: text,
  name: text,
  source: text,
  sort: int,
});

const config = { access: 'authenticated' } as const;

/** The caller's own menus, buttons and top menus (any signed-in user). */
export async function ownMenuRoutes(app: FastifyInstance) {
  const route = routesOf(app, 'menus');

  route.get('/api/blade-system/menu/routes', {
    config,
    summary: 'The caller’s menu tree (category 1, by sort), optionally under one top menu',
    query: z.object({ topMenuId: IdSchema.optional() }),
    data: z.array(RouteNodeSchema),
    handler: async (request, q) => {
      const perms = await permissionsOf(request);
      const cat = await catalogueOf(request);
      const menus = cat.menus.filter((m) => m.category === 1);
      let ids = withAncestors(perms.grants.menuIds, menus);
      if (q.topMenuId) {
        const topMenuId = q.topMenuId;
        const settings = await readIn(request, (db) => topMenuMenuIds(db, topMenuId));
        const under = withDescendants(
          settings.map((s) => s.menu_id),
          menus,
        );
        ids = new Set([...ids].filter((id) => under.has(id)));
      }
      return buildTree(menus.filter((m) => ids.has(m.id)).map((m) => routeNode(m, request.lang)));
    },
  });

  route.get('/api/blade-system/menu/buttons', {
    config,
    summary: 'The caller’s buttons as a tree under their menus (codes on the leaves)',
    data: z.array(ButtonNodeSchema),
    handler: async (request) => {
      const perms = await permissionsOf(request);
      const cat = await catalogueOf(request);
      const held = new Set(perms.buttons);
      const buttons = cat.menus.filter((m) => m.category === 2 && held.has(m.code));
      const ids = withAncestors(
        buttons.map((b) => b.id),
        cat.menus,
      );
      return buildTree(cat.menus.filter((m) => ids.has(m.id)).map((m) => buttonNode(m, request.lang)));
    },
  });

  route.get('/api/blade-system/menu/top-menu', {
    config,
    summary: 'The caller’s top menus (those granted, or all; only those with a menu of the caller)',
    data: z.array(OwnTopMenuSchema),
    handler: async (request) => {
      const perms = await permissionsOf(request);
      const cat = await catalogueOf(request);
      const rows = await readIn(request, (db, ctx) => grantedTopMenus(db, ctx.tenantId, perms.grants.roleIds));
      const menus = cat.menus.filter((m) => m.category === 1);
      const mine = withAncestors(perms.grants.menuIds, menus);
      const anyGranted = rows.some((t) => t.granted);
      const visible = rows.filter((t) => {
        if (anyGranted && !t.granted) return false;
        const under = withDescendants(t.menus ?? [], menus);
        return [...under].some((id) => mine.has(id));
      });
      return visible.map((t) => ({
        id: t.id,
        code: t.code,
        name: request.lang === 'en' && t.name_en ? t.name_en : t.name,
        source: t.source ?? '',
        sort: t.sort,
      }));
    },
  });
}
