import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { readInTenant } from '@sprout/core/db';
import { AppError, badRequest, notFound } from '@sprout/core/errors';
import { ok } from '@sprout/core/http/envelope';
import type { Lang } from '@sprout/core/i18n';
import { nextId } from '@sprout/core/ids';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import {
  type Catalogue,
  type MenuRow,
  grantable,
  heldApiScopeIds,
  loadCatalogue,
  menuName,
  withAncestors,
  withDescendants,
} from './catalogue';
import { requireKnownIds } from '../../http/known';
import { IdListSchema, IdSchema, intEnum, optionalText, ParentIdSchema, RequiredIdListSchema } from '../../http/params';
import { buildTree, makesCycle, type TreeNode, treeNode } from '../../http/tree';

/** A menu as the menu screen shows it (both names; the caller's language in `name` of trees). */
export function presentMenu(m: MenuRow, parentName = '') {
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

/** A node of the caller's menu tree (`routes`). */
export interface MenuNode {
  id: string;
  parentId: string;
  code: string;
  name: string;
  alias: string;
  path: string;
  source: string;
  sort: number;
  category: 1;
  isOpen: number;
  children: MenuNode[];
  meta: { i18n: string; hidden?: true };
}

function routeNode(m: MenuRow, lang: Lang): MenuNode {
  return {
    id: m.id,
    parentId: m.parent_id,
    code: m.code,
    name: menuName(m, lang),
    alias: m.alias,
    path: m.path ?? '',
    source: m.source ?? '',
    sort: m.sort,
    category: 1,
    isOpen: m.is_open,
    children: [],
    meta: m.hidden ? { i18n: `menu.${m.code}`, hidden: true } : { i18n: `menu.${m.code}` },
  };
}

/** Nests menu nodes by parent, each level in the catalogue's order (sort, then id). */
function nest<T extends { id: string; parentId: string; children: T[] }>(nodes: T[]): T[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const roots: T[] = [];
  for (const n of nodes) {
    const parent = byId.get(n.parentId);
    if (parent) parent.children.push(n);
    else roots.push(n);
  }
  return roots;
}

const MenuFilterSchema = z.object({
  code: z.string().trim().max(64).optional(),
  name: z.string().trim().max(100).optional(),
  alias: z.string().trim().max(64).optional(),
  category: z.coerce.number().int().min(1).max(2).optional(),
});

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

const matches = (m: MenuRow, f: z.output<typeof MenuFilterSchema>) =>
  (!f.code || m.code.includes(f.code)) &&
  (!f.name || m.name.includes(f.name) || m.name_en.toLowerCase().includes(f.name.toLowerCase())) &&
  (!f.alias || m.alias.includes(f.alias)) &&
  (!f.category || m.category === f.category);

/** The catalogue's menus as a tree for the menu screen (only what matches, when filtered). */
function menuTree(cat: Catalogue, filter: z.output<typeof MenuFilterSchema>, onlyMenus = false) {
  const names = new Map(cat.menus.map((m) => [m.id, m.name]));
  const rows = cat.menus.filter((m) => (!onlyMenus || m.category === 1) && matches(m, filter));
  return buildTree(rows.map((m) => presentMenu(m, names.get(m.parent_id) ?? '')));
}

/** One level of the catalogue (lazy trees): the children of `parentId`, each saying whether it has children. */
function lazyLevel(cat: Catalogue, parentId: string, filter: z.output<typeof MenuFilterSchema>, onlyMenus = false) {
  const rows = cat.menus.filter((m) => !onlyMenus || m.category === 1);
  const parents = new Set(rows.map((m) => m.parent_id));
  const names = new Map(cat.menus.map((m) => [m.id, m.name]));
  return rows
    .filter((m) => m.parent_id === parentId && matches(m, filter))
    .map((m) => ({ ...presentMenu(m, names.get(m.parent_id) ?? ''), hasChildren: parents.has(m.id) }));
}

export async function menuRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const catalogue = (request: Parameters<typeof tenantOf>[0]) => loadCatalogue(app.database, tenantOf(request));

  // ---- the caller's own menus (any signed-in user) ---------------------------------------

  r.get(
    '/api/blade-system/menu/routes',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['menus'],
        summary: 'The caller’s menu tree (category 1, by sort), optionally under one top menu',
        querystring: z.object({ topMenuId: IdSchema.optional() }),
      },
    },
    async (request) => {
      const perms = await permissionsOf(request);
      const cat = await catalogue(request);
      const menus = cat.menus.filter((m) => m.category === 1);
      let ids = withAncestors(perms.grants.menuIds, menus);
      const topMenuId = request.query.topMenuId;
      if (topMenuId) {
        const ctx = tenantOf(request);
        const settings = await readInTenant<{ menu_id: string }>(
          app.database,
          ctx,
          sql`select s.menu_id::text from top_menu_setting s join top_menu t on t.id = s.top_menu_id and t.is_deleted = 0
              where s.top_menu_id = ${topMenuId}`.compile(app.database.db),
        );
        const under = withDescendants(
          settings.map((s) => s.menu_id),
          menus,
        );
        ids = new Set([...ids].filter((id) => under.has(id)));
      }
      const nodes = menus.filter((m) => ids.has(m.id)).map((m) => routeNode(m, request.lang));
      return ok(nest(nodes), request.lang);
    },
  );

  r.get(
    '/api/blade-system/menu/buttons',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['menus'], summary: 'The caller’s buttons as a tree under their menus (codes on the leaves)' },
    },
    async (request) => {
      const perms = await permissionsOf(request);
      const cat = await catalogue(request);
      const held = new Set(perms.buttons);
      const buttons = cat.menus.filter((m) => m.category === 2 && held.has(m.code));
      const ids = withAncestors(
        buttons.map((b) => b.id),
        cat.menus,
      );
      const nodes = cat.menus
        .filter((m) => ids.has(m.id))
        .map((m) => ({
          id: m.id,
          parentId: m.parent_id,
          code: m.code,
          name: menuName(m, request.lang),
          alias: m.alias,
          path: m.path ?? '',
          source: m.source ?? '',
          category: m.category,
          action: m.action,
          sort: m.sort,
          children: [] as unknown[],
        }));
      return ok(nest(nodes as Array<(typeof nodes)[number] & { children: never[] }>), request.lang);
    },
  );

  r.get(
    '/api/blade-system/menu/top-menu',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['menus'],
        summary: 'The caller’s top menus (those granted, or all; only those with a menu of the caller)',
      },
    },
    async (request) => {
      const perms = await permissionsOf(request);
      const ctx = tenantOf(request);
      const cat = await catalogue(request);
      const rows = await readInTenant<{
        id: string;
        code: string;
        name: string;
        name_en: string;
        source: string | null;
        sort: number;
        menus: string[] | null;
        granted: boolean;
      }>(
        app.database,
        ctx,
        sql`select t.id::text, t.code, t.name, t.name_en, t.source, t.sort,
              (select array_agg(s.menu_id::text) from top_menu_setting s where s.top_menu_id = t.id) as menus,
              exists (select 1 from role_top_menu rt where rt.tenant_id = ${ctx.tenantId} and rt.top_menu_id = t.id
                and rt.role_id in (${perms.grants.roleIds.length ? sql.join(perms.grants.roleIds) : sql`null`})) as granted
            from top_menu t where t.is_deleted = 0 order by t.sort, t.id`.compile(app.database.db),
      );
      const menus = cat.menus.filter((m) => m.category === 1);
      const mine = withAncestors(perms.grants.menuIds, menus);
      const anyGranted = rows.some((t) => t.granted);
      const visible = rows.filter((t) => {
        if (anyGranted && !t.granted) return false;
        const under = withDescendants(t.menus ?? [], menus);
        return [...under].some((id) => mine.has(id));
      });
      return ok(
        visible.map((t) => ({
          id: t.id,
          code: t.code,
          name: request.lang === 'en' && t.name_en ? t.name_en : t.name,
          source: t.source ?? '',
          sort: t.sort,
        })),
        request.lang,
      );
    },
  );

  // ---- the menu screen (platform) --------------------------------------------------------

  r.get(
    '/api/blade-system/menu/list',
    {
      schema: {
        tags: ['menus'],
        summary: 'Menus and buttons as a tree (filtered by code, name, alias, category)',
        querystring: MenuFilterSchema,
      },
    },
    async (request) => ok(menuTree(await catalogue(request), request.query), request.lang),
  );

  r.get(
    '/api/blade-system/menu/menu-list',
    { schema: { tags: ['menus'], summary: 'Menus only (category 1) as a tree', querystring: MenuFilterSchema } },
    async (request) => ok(menuTree(await catalogue(request), request.query, true), request.lang),
  );

  r.get(
    '/api/blade-system/menu/lazy-list',
    {
      schema: {
        tags: ['menus'],
        summary: 'One level of menus and buttons: the children of parentId (0: the roots)',
        querystring: MenuFilterSchema.extend({ parentId: ParentIdSchema }),
      },
    },
    async (request) => ok(lazyLevel(await catalogue(request), request.query.parentId, request.query), request.lang),
  );

  r.get(
    '/api/blade-system/menu/lazy-menu-list',
    {
      schema: {
        tags: ['menus'],
        summary: 'One level of menus (category 1): the children of parentId',
        querystring: MenuFilterSchema.extend({ parentId: ParentIdSchema }),
      },
    },
    async (request) =>
      ok(lazyLevel(await catalogue(request), request.query.parentId, request.query, true), request.lang),
  );

  r.get(
    '/api/blade-system/menu/tree',
    {
      schema: {
        tags: ['menus'],
        summary: 'Menus (category 1) as tree nodes for selects; with tenantId, what that tenant may hold',
        querystring: z.object({
          tenantId: z
            .string()
            .trim()
            .regex(/^\d{6}$/)
            .optional(),
        }),
      },
    },
    async (request) => {
      const cat = await catalogue(request);
      const forTenant = request.query.tenantId;
      const rows = cat.menus.filter(
        (m) => m.category === 1 && (!forTenant || forTenant === '000000' || !m.platform_only),
      );
      return ok(buildTree(rows.map((m) => treeNode(m.id, m.parent_id, menuName(m, request.lang)))), request.lang);
    },
  );

  r.get(
    '/api/blade-system/menu/detail',
    { schema: { tags: ['menus'], summary: 'One menu or button', querystring: z.object({ id: IdSchema }) } },
    async (request) => {
      const cat = await catalogue(request);
      const m = cat.menus.find((x) => x.id === request.query.id);
      if (!m) throw notFound();
      return ok(presentMenu(m, cat.menus.find((x) => x.id === m.parent_id)?.name ?? ''), request.lang);
    },
  );

  r.post(
    '/api/blade-system/menu/submit',
    {
      schema: {
        tags: ['menus'],
        summary: 'Adds (no id) or updates a menu or button of the catalogue',
        body: MenuSubmitSchema,
      },
    },
    async (request) => {
      const b = request.body;
      const ctx = tenantOf(request);
      const saved = await request.tx(async (trx) => {
        const all = await trx
          .selectFrom('menu')
          .select(['id', 'parent_id', 'code', 'category'])
          .where('is_deleted', '=', 0)
          .where('tenant_id', '=', ctx.tenantId)
          .execute();
        const byId = new Map(all.map((m) => [String(m.id), m]));
        if (b.id && !byId.has(b.id)) throw notFound();
        const parent = b.parentId !== '0' ? byId.get(b.parentId) : undefined;
        if (b.parentId !== '0' && parent?.category !== 1) throw badRequest('system.menuParentMissing');
        if (b.category === 2 && !parent) throw badRequest('system.buttonNeedsMenu');
        if (b.id && makesCycle(b.id, b.parentId, new Map(all.map((m) => [String(m.id), String(m.parent_id)]))))
          throw badRequest('system.menuCycle');
        if (all.some((m) => m.code === b.code && String(m.id) !== b.id))
          throw badRequest('system.menuCodeExists', { code: b.code });
        const values = {
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
        };
        if (b.id) {
          await trx
            .updateTable('menu')
            .set(values)
            .where('tenant_id', '=', ctx.tenantId)
            .where('id', '=', b.id)
            .execute();
          return b.id;
        }
        const id = nextId();
        await trx
          .insertInto('menu')
          .values({ ...values, tenant_id: ctx.tenantId, id })
          .execute();
        return id;
      });
      await app.permissions.invalidateCatalogue();
      const cat = await catalogue(request);
      const m = cat.menus.find((x) => x.id === saved) as MenuRow;
      return ok(presentMenu(m), request.lang, b.id ? 'system.updated' : 'system.added');
    },
  );

  r.post(
    '/api/blade-system/menu/remove',
    {
      schema: {
        tags: ['menus'],
        summary: 'Deletes menus or buttons (ids); refused while they have children that stay',
        querystring: z.object({ ids: RequiredIdListSchema }),
      },
    },
    async (request) => {
      const ids = request.query.ids;
      const ctx = tenantOf(request);
      await request.tx(async (trx) => {
        await requireKnownIds(trx, { table: 'menu', alias: 'm', tenantId: ctx.tenantId, ids });
        const children = await trx
          .selectFrom('menu')
          .select(['name'])
          .where('tenant_id', '=', ctx.tenantId)
          .where('is_deleted', '=', 0)
          .where('parent_id', 'in', ids)
          .where('id', 'not in', ids)
          .execute();
        if (children.length)
          throw badRequest('system.menuHasChildren', {
            names: children
              .map((c) => c.name)
              .slice(0, 10)
              .join('、'),
          });
        const now = new Date();
        await trx
          .updateTable('menu')
          .set({ is_deleted: 1, update_time: now })
          .where('tenant_id', '=', ctx.tenantId)
          .where('id', 'in', ids)
          .execute();
        for (const table of ['scope_api', 'scope_data'] as const)
          await trx
            .updateTable(table)
            .set({ is_deleted: 1, update_time: now })
            .where('tenant_id', '=', ctx.tenantId)
            .where('menu_id', 'in', ids)
            .execute();
        await trx
          .deleteFrom('top_menu_setting')
          .where('tenant_id', '=', ctx.tenantId)
          .where('menu_id', 'in', ids)
          .execute();
      });
      await app.permissions.invalidateCatalogue();
      return ok(null, request.lang, 'system.removed');
    },
  );

  // ---- the role grant dialog -------------------------------------------------------------

  r.get(
    '/api/blade-system/menu/grant-tree',
    {
      schema: {
        tags: ['menus'],
        summary: 'What the caller may grant: menus with buttons, data scopes and API scopes under their menus',
      },
    },
    async (request) => {
      const perms = await permissionsOf(request);
      const ctx = tenantOf(request);
      const cat = await catalogue(request);
      const g = grantable(cat, perms, await heldApiScopeIds(app.database, ctx, perms.grants.roleIds));
      const lang = request.lang;
      const menuNodes = cat.menus
        .filter((m) => g.menuIds.has(m.id))
        .map((m) => treeNode(m.id, m.parent_id, menuName(m, lang)));
      // Scopes hang under their menu; the menus above them give the tree its shape.
      const scopeTree = (scopes: Array<{ id: string; menu_id: string; label: string }>): TreeNode[] => {
        const holders = withAncestors(
          scopes.map((s) => s.menu_id),
          cat.menus,
        );
        const parents = cat.menus
          .filter((m) => holders.has(m.id))
          .map((m) => treeNode(m.id, m.parent_id, menuName(m, lang)));
        return buildTree([...parents, ...scopes.map((s) => treeNode(s.id, s.menu_id, s.label))]);
      };
      return ok(
        {
          menu: buildTree(menuNodes),
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
        },
        request.lang,
      );
    },
  );

  r.get(
    '/api/blade-system/menu/role-tree-keys',
    {
      schema: {
        tags: ['menus'],
        summary: 'What roles hold: menu, data scope and API scope ids (union over roleIds)',
        querystring: z.object({ roleIds: IdListSchema }),
      },
    },
    async (request) => {
      const ctx = tenantOf(request);
      const roleIds = request.query.roleIds;
      if (!roleIds.length) return ok({ menu: [], dataScope: [], apiScope: [], topMenu: [] }, request.lang);
      const [row] = await readInTenant<{
        menu: string[] | null;
        data: string[] | null;
        api: string[] | null;
        top: string[] | null;
      }>(
        app.database,
        ctx,
        sql`select
              (select array_agg(distinct rm.menu_id::text) from role_menu rm join menu m on m.id = rm.menu_id and m.is_deleted = 0
                where rm.tenant_id = ${ctx.tenantId} and rm.role_id in (${sql.join(roleIds)})) as menu,
              (select array_agg(distinct scope_id::text) from role_scope
                where tenant_id = ${ctx.tenantId} and scope_category = 1 and role_id in (${sql.join(roleIds)})) as data,
              (select array_agg(distinct scope_id::text) from role_scope
                where tenant_id = ${ctx.tenantId} and scope_category = 2 and role_id in (${sql.join(roleIds)})) as api,
              (select array_agg(distinct top_menu_id::text) from role_top_menu
                where tenant_id = ${ctx.tenantId} and role_id in (${sql.join(roleIds)})) as top`.compile(
          app.database.db,
        ),
      );
      return ok(
        { menu: row?.menu ?? [], dataScope: row?.data ?? [], apiScope: row?.api ?? [], topMenu: row?.top ?? [] },
        request.lang,
      );
    },
  );

  r.get(
    '/api/blade-system/menu/grant-top-tree',
    {
      schema: {
        tags: ['menus'],
        summary: 'Menus (category 1) to set under a top menu, and the top menus (for role grants)',
      },
    },
    async (request) => {
      const ctx = tenantOf(request);
      const cat = await catalogue(request);
      const tops = await readInTenant<{ id: string; name: string; name_en: string }>(
        app.database,
        ctx,
        sql`select id::text, name, name_en from top_menu where is_deleted = 0 order by sort, id`.compile(
          app.database.db,
        ),
      );
      return ok(
        {
          menu: buildTree(
            cat.menus
              .filter((m) => m.category === 1)
              .map((m) => treeNode(m.id, m.parent_id, menuName(m, request.lang))),
          ),
          topMenu: tops.map((t) => treeNode(t.id, '0', request.lang === 'en' && t.name_en ? t.name_en : t.name)),
        },
        request.lang,
      );
    },
  );

  r.get(
    '/api/blade-system/menu/top-tree-keys',
    {
      schema: {
        tags: ['menus'],
        summary: 'The menu ids set under top menus (topMenuIds)',
        querystring: z.object({ topMenuIds: IdListSchema }),
      },
    },
    async (request) => {
      const ids = request.query.topMenuIds;
      if (!ids.length) return ok({ menu: [] }, request.lang);
      const rows = await readInTenant<{ menu_id: string }>(
        app.database,
        tenantOf(request),
        sql`select distinct menu_id::text from top_menu_setting where top_menu_id in (${sql.join(ids)})`.compile(
          app.database.db,
        ),
      );
      return ok({ menu: rows.map((r2) => r2.menu_id) }, request.lang);
    },
  );

  void AppError;
}
