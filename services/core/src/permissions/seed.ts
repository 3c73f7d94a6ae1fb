import { type Kysely, sql } from 'kysely';
import type { DB } from '../db';
import { nextId } from '../ids';
import { type ButtonDef, catalogueMenus, flattenCatalog, type MenuDef, TOP_MENUS } from './catalog';
import { PLATFORM_TENANT_ID } from './constants';
import { defaultScopeColumn } from './resources';
import { dataScopeDefs, ROLE_DEFS, type RoleDef } from './roles';

/** Catalogue rows by code: what grants are computed from. */
export interface CatalogueIndex {
  menuIds: Map<string, string>;
  topMenuIds: Map<string, string>;
  /** scope_api ids by the code of the menu or button they hang under. */
  apiScopeIds: Map<string, string[]>;
  /** scope_data ids by scope code. */
  dataScopeIds: Map<string, string>;
}

const P = PLATFORM_TENANT_ID;

/** A button's alias (BladeX: add, edit, delete, view, …): its code without the screen or resource prefix. */
function buttonAlias(code: string, menu: MenuDef) {
  for (const prefix of [menu.code, menu.resource])
    if (prefix && code.startsWith(`${prefix}_`)) return code.slice(prefix.length + 1);
  return code.slice(code.indexOf('_') + 1) || code;
}

/** Button placement (menu.action): view/edit/delete act on a row, the rest on the toolbar. */
function buttonAction(code: string) {
  return /_(view|edit|delete)$/.test(code) ? 1 : 0;
}

/**
 * Writes the standard catalogue (menus, buttons, top menus, API and data scopes) for the
 * platform, creating only what is missing by code and never changing an existing (or
 * deleted) row, so administrators' edits survive every start. Returns the index of the
 * whole catalogue and whether menus were created now (first seeding).
 */
export async function seedCatalogue(
  trx: Kysely<DB>,
): Promise<{ index: CatalogueIndex; created: number; fresh: Set<string> }> {
  const existing = await trx.selectFrom('menu').select(['id', 'code']).where('tenant_id', '=', P).execute();
  const menuIds = new Map(existing.map((m) => [m.code, String(m.id)]));
  const flat = flattenCatalog();
  /** Offer entries (see grantEntries) of what this run creates. */
  const fresh = new Set<string>();
  const newMenus = [];
  for (const e of flat) {
    if (menuIds.has(e.def.code)) continue;
    const id = nextId();
    menuIds.set(e.def.code, id);
    fresh.add(`menu:${e.def.code}`);
    const parentId = e.parent ? (menuIds.get(e.parent) as string) : '0';
    if (e.category === 1) {
      const m = e.def as MenuDef;
      newMenus.push({
        tenant_id: P,
        id,
        parent_id: parentId,
        code: m.code,
        name: m.name,
        name_en: m.nameEn,
        alias: m.code,
        path: m.path,
        source: m.icon,
        sort: m.sort,
        category: 1,
        action: 0,
        is_open: 1,
        platform_only: Boolean(m.platformOnly),
        hidden: Boolean(m.hidden),
        resource_code: m.resource ?? null,
      });
    } else {
      const b = e.def as ButtonDef;
      const siblings = e.menu.buttons ?? [];
      newMenus.push({
        tenant_id: P,
        id,
        parent_id: parentId,
        code: b.code,
        name: b.name,
        name_en: b.nameEn,
        alias: buttonAlias(b.code, e.menu),
        path: null,
        source: null,
        sort: siblings.indexOf(b) + 1,
        category: 2,
        action: buttonAction(b.code),
        is_open: 1,
        platform_only: Boolean(e.menu.platformOnly),
        hidden: false,
        resource_code: e.menu.resource ?? null,
      });
    }
  }
  for (let i = 0; i < newMenus.length; i += 500)
    await trx
      .insertInto('menu')
      .values(newMenus.slice(i, i + 500))
      .execute();

  // Top menus and the menus (roots) each shows.
  const tops = await trx.selectFrom('top_menu').select(['id', 'code']).where('tenant_id', '=', P).execute();
  const topMenuIds = new Map(tops.map((t) => [t.code, String(t.id)]));
  for (const t of TOP_MENUS) {
    if (topMenuIds.has(t.code)) continue;
    const id = nextId();
    topMenuIds.set(t.code, id);
    fresh.add(`top:${t.code}`);
    await trx
      .insertInto('top_menu')
      .values({ tenant_id: P, id, code: t.code, name: t.name, name_en: t.nameEn, source: t.icon, sort: t.sort })
      .execute();
    const settings = t.menus
      .filter((c) => menuIds.has(c))
      .map((c) => ({ tenant_id: P, top_menu_id: id, menu_id: menuIds.get(c) as string }));
    if (settings.length) await trx.insertInto('top_menu_setting').values(settings).execute();
  }

  // API scopes: one row per (menu or button, pattern).
  const apiRows = await trx
    .selectFrom('scope_api')
    .select(['id', 'menu_id', 'scope_path', 'is_deleted'])
    .where('tenant_id', '=', P)
    .execute();
  const apiKey = (menuId: string, path: string) => `${menuId} ${path}`;
  const haveApi = new Set(apiRows.map((a) => apiKey(String(a.menu_id), a.scope_path)));
  const newApi = [];
  for (const e of flat) {
    const menuId = menuIds.get(e.def.code) as string;
    for (const path of e.def.api ?? []) {
      if (haveApi.has(apiKey(menuId, path))) continue;
      haveApi.add(apiKey(menuId, path));
      const id = nextId();
      fresh.add(`api:${id}`);
      newApi.push({
        tenant_id: P,
        id,
        menu_id: menuId,
        resource_code: e.def.code,
        scope_name: e.def.name,
        scope_path: path,
        scope_type: path.includes(' /api/blade-') ? 1 : 2,
      });
    }
  }
  for (let i = 0; i < newApi.length; i += 500)
    await trx
      .insertInto('scope_api')
      .values(newApi.slice(i, i + 500))
      .execute();

  // Data scopes: the standard ones per resource, under the first screen of that resource.
  const dataRows = await trx
    .selectFrom('scope_data')
    .select(['code'])
    .where('tenant_id', '=', P)
    .where('code', 'is not', null)
    .execute();
  const haveData = new Set(dataRows.map((d) => d.code));
  const firstScreen = new Map<string, string>();
  for (const e of flat) {
    const r = e.category === 1 ? (e.def as MenuDef).resource : undefined;
    if (r && !firstScreen.has(r)) firstScreen.set(r, e.def.code);
  }
  const newData = [];
  for (const [resource, menuCode] of firstScreen) {
    for (const d of dataScopeDefs(resource)) {
      if (haveData.has(d.code)) continue;
      fresh.add(`data:${d.code}`);
      newData.push({
        tenant_id: P,
        id: nextId(),
        menu_id: menuIds.get(menuCode) as string,
        code: d.code,
        resource_code: resource,
        scope_name: d.name,
        scope_field: d.field,
        scope_column: defaultScopeColumn(resource, d.type),
        scope_type: d.type,
      });
    }
  }
  if (newData.length) await trx.insertInto('scope_data').values(newData).execute();

  return { index: await catalogueIndex(trx), created: newMenus.length, fresh };
}

/** The live catalogue (not deleted) by code. */
export async function catalogueIndex(trx: Kysely<DB>): Promise<CatalogueIndex> {
  // One after another: a transaction is one connection (PGlite serves one caller at a time).
  const menus = await trx
    .selectFrom('menu')
    .select(['id', 'code'])
    .where('tenant_id', '=', P)
    .where('is_deleted', '=', 0)
    .execute();
  const tops = await trx
    .selectFrom('top_menu')
    .select(['id', 'code'])
    .where('tenant_id', '=', P)
    .where('is_deleted', '=', 0)
    .execute();
  const apis = await trx
    .selectFrom('scope_api as a')
    .innerJoin('menu as m', (j) => j.onRef('m.id', '=', 'a.menu_id').on('m.tenant_id', '=', P))
    .select(['a.id', 'm.code'])
    .where('a.tenant_id', '=', P)
    .where('a.is_deleted', '=', 0)
    .execute();
  const datas = await trx
    .selectFrom('scope_data')
    .select(['id', 'code'])
    .where('tenant_id', '=', P)
    .where('is_deleted', '=', 0)
    .where('code', 'is not', null)
    .execute();
  const apiScopeIds = new Map<string, string[]>();
  for (const a of apis) apiScopeIds.set(a.code, [...(apiScopeIds.get(a.code) ?? []), String(a.id)]);
  return {
    menuIds: new Map(menus.map((m) => [m.code, String(m.id)])),
    topMenuIds: new Map(tops.map((t) => [t.code, String(t.id)])),
    apiScopeIds,
    dataScopeIds: new Map(datas.map((d) => [d.code as string, String(d.id)])),
  };
}

/** What a role definition grants, as catalogue ids. */
export interface RoleGrantIds {
  menuIds: string[];
  dataScopeIds: string[];
  apiScopeIds: string[];
  /** Absent: the role's top menus stay as they are. */
  topMenuIds?: string[];
}

/** The grants of a seeded role in a tenant (platform-only screens only in the platform tenant). */
export function roleGrants(def: RoleDef, tenantId: string, index: CatalogueIndex): RoleGrantIds {
  const platform = tenantId === PLATFORM_TENANT_ID;
  const menuCodes = new Set<string>();
  const buttonCodes = new Set<string>();
  const resources = new Set<string>();
  // Leaves are chosen; a parent is granted too when all its children are (as a tree checks it).
  const walk = (m: MenuDef, root: MenuDef): boolean => {
    if (m.platformOnly && !platform) return false;
    if (m.children?.length) {
      const results = m.children.map((c) => walk(c, root));
      const allChildren = results.every(Boolean);
      if (allChildren) menuCodes.add(m.code);
      return allChildren;
    }
    if (!def.screen(m, root)) return false;
    menuCodes.add(m.code);
    if (m.resource) resources.add(m.resource);
    for (const b of m.buttons ?? []) if (def.button(b.code, m)) buttonCodes.add(b.code);
    return true;
  };
  for (const root of catalogueMenus()) walk(root, root);
  // Parents of granted leaves are shown anyway (routes include ancestors); grant only full ones.
  const codes = [...menuCodes, ...buttonCodes].filter((c) => index.menuIds.has(c));
  const dataScopeIds = [...resources]
    .map((r) => def.data(r))
    .filter((c): c is string => c !== null && index.dataScopeIds.has(c))
    .map((c) => index.dataScopeIds.get(c) as string);
  return {
    menuIds: codes.map((c) => index.menuIds.get(c) as string),
    apiScopeIds: [...new Set(codes.flatMap((c) => index.apiScopeIds.get(c) ?? []))],
    dataScopeIds: [...new Set(dataScopeIds)],
    topMenuIds: def.topMenus.filter((c) => index.topMenuIds.has(c)).map((c) => index.topMenuIds.get(c) as string),
  };
}

/** Replaces a role's grants (menus, scopes and, when given, top menus) inside the caller's transaction. */
export async function writeRoleGrants(trx: Kysely<DB>, tenantId: string, roleId: string, g: RoleGrantIds) {
  await trx.deleteFrom('role_menu').where('tenant_id', '=', tenantId).where('role_id', '=', roleId).execute();
  await trx.deleteFrom('role_scope').where('tenant_id', '=', tenantId).where('role_id', '=', roleId).execute();
  if (g.topMenuIds)
    await trx.deleteFrom('role_top_menu').where('tenant_id', '=', tenantId).where('role_id', '=', roleId).execute();
  if (g.menuIds.length)
    await trx
      .insertInto('role_menu')
      .values(g.menuIds.map((menu_id) => ({ tenant_id: tenantId, role_id: roleId, menu_id })))
      .execute();
  const scopes = [
    ...g.dataScopeIds.map((scope_id) => ({ tenant_id: tenantId, role_id: roleId, scope_category: 1, scope_id })),
    ...g.apiScopeIds.map((scope_id) => ({ tenant_id: tenantId, role_id: roleId, scope_category: 2, scope_id })),
  ];
  for (let i = 0; i < scopes.length; i += 1000)
    await trx
      .insertInto('role_scope')
      .values(scopes.slice(i, i + 1000))
      .execute();
  if (g.topMenuIds?.length)
    await trx
      .insertInto('role_top_menu')
      .values(g.topMenuIds.map((top_menu_id) => ({ tenant_id: tenantId, role_id: roleId, top_menu_id })))
      .execute();
}

/**
 * A role's grants as offer entries, the catalogue's stable names for them: `menu:<code>`
 * (menus and buttons), `api:<scope id>`, `data:<code>`, `top:<code>`.
 */
export function grantEntries(
  g: RoleGrantIds,
  index: CatalogueIndex,
): Map<string, { kind: 'menu' | 'api' | 'data' | 'top'; id: string }> {
  const byId = (m: Map<string, string>) => new Map([...m].map(([code, id]) => [id, code]));
  const menus = byId(index.menuIds);
  const datas = byId(index.dataScopeIds);
  const tops = byId(index.topMenuIds);
  const out = new Map<string, { kind: 'menu' | 'api' | 'data' | 'top'; id: string }>();
  for (const id of g.menuIds) out.set(`menu:${menus.get(id)}`, { kind: 'menu', id });
  for (const id of g.apiScopeIds) out.set(`api:${id}`, { kind: 'api', id });
  for (const id of g.dataScopeIds) out.set(`data:${datas.get(id)}`, { kind: 'data', id });
  for (const id of g.topMenuIds ?? []) out.set(`top:${tops.get(id)}`, { kind: 'top', id });
  return out;
}

/** Records that these entries were offered to the role (granted once; never granted again by the seed). */
async function recordOffers(trx: Kysely<DB>, tenantId: string, roleId: string, entries: Iterable<string>) {
  const rows = [...entries].map((entry) => ({ tenant_id: tenantId, role_id: roleId, entry }));
  for (let i = 0; i < rows.length; i += 1000)
    await trx
      .insertInto('role_catalogue_offer')
      .values(rows.slice(i, i + 1000))
      .onConflict((oc) => oc.doNothing())
      .execute();
}

/**
 * Grants a tenant's seeded roles the catalogue entries their definitions include and that
 * were never offered to them: entries added to the catalogue after the tenant was created
 * (a new screen, button, API or data scope). An entry offered before stays as the tenant's
 * administrator left it — revoked entries are never granted again. A role with no offer
 * recorded (seeded before offers were kept) takes its current grants as offered and gets only
 * the entries created in this run (`fresh`). Returns the entries granted, per role alias.
 */
/** The tenant's live roles that carry one of these seeded definitions' aliases. */
function liveRolesOf(trx: Kysely<DB>, tenantId: string, defs: ReadonlyArray<{ alias: string }>) {
  return trx
    .selectFrom('role')
    .select(['id', 'role_alias'])
    .where('tenant_id', '=', tenantId)
    .where('is_deleted', '=', 0)
    .where(
      'role_alias',
      'in',
      defs.map((d) => d.alias),
    )
    .execute();
}

export async function offerCatalogueEntries(
  trx: Kysely<DB>,
  tenantId: string,
  index: CatalogueIndex,
  fresh: ReadonlySet<string>,
): Promise<Map<string, string[]>> {
  const platform = tenantId === PLATFORM_TENANT_ID;
  const defs = ROLE_DEFS.filter((d) => platform || !d.platformOnly);
  const roles = await liveRolesOf(trx, tenantId, defs);
  const granted = new Map<string, string[]>();
  if (!roles.length) return granted;
  const offers = await trx
    .selectFrom('role_catalogue_offer')
    .select(['role_id', 'entry'])
    .where('tenant_id', '=', tenantId)
    .where(
      'role_id',
      'in',
      roles.map((r) => r.id),
    )
    .execute();
  const offered = new Map<string, Set<string>>();
  for (const o of offers) {
    const key = String(o.role_id);
    if (!offered.has(key)) offered.set(key, new Set());
    offered.get(key)?.add(o.entry);
  }
  for (const role of roles) {
    const roleId = String(role.id);
    const def = defs.find((d) => d.alias === role.role_alias) as RoleDef;
    const desired = grantEntries(roleGrants(def, tenantId, index), index);
    const before = offered.get(roleId);
    const give = [...desired].filter(([entry]) => (before ? !before.has(entry) : fresh.has(entry)));
    await recordOffers(trx, tenantId, roleId, before ? give.map(([entry]) => entry) : desired.keys());
    if (!give.length) continue;
    const ids = (kind: string) => give.filter(([, e]) => e.kind === kind).map(([, e]) => e.id);
    const menus = ids('menu');
    if (menus.length)
      await trx
        .insertInto('role_menu')
        .values(menus.map((menu_id) => ({ tenant_id: tenantId, role_id: roleId, menu_id })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    const scopes = [
      ...ids('data').map((scope_id) => ({ tenant_id: tenantId, role_id: roleId, scope_category: 1, scope_id })),
      ...ids('api').map((scope_id) => ({ tenant_id: tenantId, role_id: roleId, scope_category: 2, scope_id })),
    ];
    if (scopes.length)
      await trx
        .insertInto('role_scope')
        .values(scopes)
        .onConflict((oc) => oc.doNothing())
        .execute();
    const tops = ids('top');
    if (tops.length)
      await trx
        .insertInto('role_top_menu')
        .values(tops.map((top_menu_id) => ({ tenant_id: tenantId, role_id: roleId, top_menu_id })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    granted.set(
      role.role_alias,
      give.map(([entry]) => entry),
    );
  }
  return granted;
}

/**
 * Gives a tenant the seeded roles it lacks, each with its grants. With `backfill`, a
 * seeded role that exists without any grant (created before the catalogue existed) gets
 * its grants too. Runs as the owner (seed) or inside a transaction whose tenant setting is
 * `tenantId` (tenant creation). Returns the role ids by alias.
 */
export async function seedTenantRoles(
  trx: Kysely<DB>,
  tenantId: string,
  index: CatalogueIndex,
  opts: { backfill?: boolean; only?: readonly string[] } = {},
): Promise<{ roleIds: Map<string, string>; created: string[] }> {
  const platform = tenantId === PLATFORM_TENANT_ID;
  const defs = ROLE_DEFS.filter((d) => (platform || !d.platformOnly) && (!opts.only || opts.only.includes(d.alias)));
  const existing = await liveRolesOf(trx, tenantId, defs);
  const roleIds = new Map(existing.map((r) => [r.role_alias, String(r.id)]));
  let ungranted = new Set<string>();
  if (opts.backfill && existing.length) {
    const granted = await sql<{ role_id: string }>`
      select role_id::text from role_menu where tenant_id = ${tenantId}
      union select role_id::text from role_scope where tenant_id = ${tenantId}
      union select role_id::text from role_top_menu where tenant_id = ${tenantId}`.execute(trx);
    const has = new Set(granted.rows.map((r) => r.role_id));
    ungranted = new Set(existing.map((r) => String(r.id)).filter((id) => !has.has(id)));
  }
  const created: string[] = [];
  for (const def of defs) {
    let id = roleIds.get(def.alias);
    if (!id) {
      id = nextId();
      roleIds.set(def.alias, id);
      await trx
        .insertInto('role')
        .values({ tenant_id: tenantId, id, role_name: def.name, role_alias: def.alias, sort: def.sort })
        .execute();
      created.push(def.alias);
    } else if (!ungranted.has(id)) {
      continue;
    }
    const grants = roleGrants(def, tenantId, index);
    await writeRoleGrants(trx, tenantId, id, grants);
    await recordOffers(trx, tenantId, id, grantEntries(grants, index).keys());
  }
  return { roleIds, created };
}
