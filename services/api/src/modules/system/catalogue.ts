import { sql } from 'kysely';
import { type Database, readInTenant, type TenantContext } from '@sprout/core/db';
import type { Lang } from '@sprout/core/i18n';
import { PLATFORM_TENANT_ID } from '@sprout/core/permissions/constants';
import type { UserPermissions } from '@sprout/core/permissions/cache';
import { live } from '../../http/query';

export interface MenuRow {
  id: string;
  parent_id: string;
  code: string;
  name: string;
  name_en: string;
  alias: string;
  path: string | null;
  source: string | null;
  sort: number;
  category: number;
  action: number;
  is_open: number;
  platform_only: boolean;
  hidden: boolean;
  resource_code: string | null;
  remark: string | null;
}

export interface ApiScopeRow {
  id: string;
  menu_id: string;
  resource_code: string;
  scope_name: string;
  scope_path: string;
  scope_type: number;
  remark: string | null;
}

export interface DataScopeRow {
  id: string;
  menu_id: string;
  code: string | null;
  resource_code: string;
  scope_name: string;
  scope_field: string;
  scope_column: string;
  scope_type: number;
  scope_value: string | null;
  remark: string | null;
}

export interface Catalogue {
  menus: MenuRow[];
  apiScopes: ApiScopeRow[];
  dataScopes: DataScopeRow[];
}

/** A menu's name in the caller's language (the catalogue keeps zh and en). */
export const menuName = (m: Pick<MenuRow, 'name' | 'name_en'>, lang: Lang) =>
  lang === 'en' && m.name_en ? m.name_en : m.name;

const byOrder = (a: MenuRow, b: MenuRow) => a.sort - b.sort || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The live catalogue as the caller's tenant sees it, in one round trip: menus and buttons
 * (ordered by sort), API and data scopes. Platform-only menus (and scopes under them) are
 * left out for every tenant but the platform (unless asked for, to name them in a refusal).
 */
export async function loadCatalogue(
  database: Database,
  ctx: TenantContext,
  opts: { withPlatformOnly?: boolean } = {},
): Promise<Catalogue> {
  const platform = ctx.tenantId === PLATFORM_TENANT_ID || Boolean(opts.withPlatformOnly);
  const [row] = await readInTenant<{
    menus: MenuRow[] | string | null;
    api: ApiScopeRow[] | string | null;
    data: DataScopeRow[] | string | null;
  }>(
    database,
    ctx,
    sql`
      with m as (
        select id::text, parent_id::text, code, name, name_en, alias, path, source, sort, category, action, is_open,
          platform_only, hidden, resource_code, remark
        from menu where ${live()} and (${platform} or not platform_only)
      )
      select
        (select json_agg(m order by m.sort, m.id::bigint) from m) as menus,
        (select json_agg(json_build_object('id', a.id::text, 'menu_id', a.menu_id::text, 'resource_code', a.resource_code,
            'scope_name', a.scope_name, 'scope_path', a.scope_path, 'scope_type', a.scope_type, 'remark', a.remark) order by a.id)
          from scope_api a where ${live('a')} and a.menu_id::text in (select id from m)) as api,
        (select json_agg(json_build_object('id', d.id::text, 'menu_id', d.menu_id::text, 'code', d.code,
            'resource_code', d.resource_code, 'scope_name', d.scope_name, 'scope_field', d.scope_field,
            'scope_column', d.scope_column, 'scope_type', d.scope_type, 'scope_value', d.scope_value, 'remark', d.remark) order by d.id)
          from scope_data d where ${live('d')} and d.menu_id::text in (select id from m)) as data`.compile(database.db),
  );
  const json = <T>(v: T[] | string | null | undefined): T[] =>
    typeof v === 'string' ? (JSON.parse(v) as T[]) : (v ?? []);
  return {
    menus: json(row?.menus).sort(byOrder),
    apiScopes: json(row?.api),
    dataScopes: json(row?.data),
  };
}

/** The ids of `ids` and all their ancestors. */
export function withAncestors(ids: Iterable<string>, menus: MenuRow[]): Set<string> {
  const parent = new Map(menus.map((m) => [m.id, m.parent_id]));
  const out = new Set<string>();
  for (const id of ids) {
    let at: string | undefined = id;
    while (at && at !== '0' && !out.has(at) && parent.has(at)) {
      out.add(at);
      at = parent.get(at);
    }
  }
  return out;
}

/** The ids of `ids` and everything below them. */
export function withDescendants(ids: Iterable<string>, menus: MenuRow[]): Set<string> {
  const children = new Map<string, string[]>();
  for (const m of menus) children.set(m.parent_id, [...(children.get(m.parent_id) ?? []), m.id]);
  const out = new Set<string>();
  const stack = [...ids];
  while (stack.length) {
    const id = stack.pop() as string;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}

/** What the caller may grant to a role: the menus, buttons and scopes they hold themselves. */
export interface Grantable {
  menuIds: Set<string>;
  dataScopeIds: Set<string>;
  apiScopeIds: Set<string>;
}

/**
 * You cannot grant what you do not hold: the menus and buttons the caller holds (and their
 * ancestors, which only make a screen's place in the tree visible), the data scopes of
 * those screens, and the API scopes the caller holds. The platform administrator may grant
 * the whole catalogue.
 */
export function grantable(cat: Catalogue, perms: UserPermissions, heldApiScopeIds: Iterable<string>): Grantable {
  if (perms.isPlatformAdministrator) {
    return {
      menuIds: new Set(cat.menus.map((m) => m.id)),
      dataScopeIds: new Set(cat.dataScopes.map((d) => d.id)),
      apiScopeIds: new Set(cat.apiScopes.map((a) => a.id)),
    };
  }
  const buttons = new Set(perms.grants.buttons);
  const heldMenus = new Set(perms.grants.menuIds);
  const held = cat.menus.filter((m) => (m.category === 1 ? heldMenus.has(m.id) : buttons.has(m.code))).map((m) => m.id);
  const menuIds = withAncestors(held, cat.menus);
  const apiHeld = new Set(heldApiScopeIds);
  return {
    menuIds,
    dataScopeIds: new Set(cat.dataScopes.filter((d) => heldMenus.has(d.menu_id)).map((d) => d.id)),
    apiScopeIds: new Set(cat.apiScopes.filter((a) => apiHeld.has(a.id)).map((a) => a.id)),
  };
}

/** The API scope ids the caller's roles hold (for `grantable`). */
export async function heldApiScopeIds(database: Database, ctx: TenantContext, roleIds: string[]): Promise<string[]> {
  if (!roleIds.length) return [];
  const rows = await readInTenant<{ scope_id: string }>(
    database,
    ctx,
    sql`select distinct scope_id::text from role_scope
        where tenant_id = ${ctx.tenantId} and scope_category = 2 and role_id in (${sql.join(roleIds)})`.compile(
      database.db,
    ),
  );
  return rows.map((r) => r.scope_id);
}
