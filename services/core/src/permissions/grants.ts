import { sql } from 'kysely';
import { type Database, readInTenant } from '../db';
import { PLATFORM_TENANT_ID } from './constants';
import type { DataScopeGrant, Grants } from './ability';

interface GrantsRow {
  active: boolean;
  dept_id: string | null;
  role_ids: string[] | null;
  role_aliases: string[] | null;
  menu_ids: string[] | null;
  buttons: string[] | null;
  api: string[] | null;
  data: DataScopeGrant[] | string | null;
  subtree: string[] | null;
  class_ids: string[] | null;
  /** The tenant's and the catalogue's permission versions (permission_version), same snapshot as the grants. */
  tv: string | null;
  cv: string | null;
}

/**
 * Everything a user's ability needs, in one statement (one round trip): the user's roles,
 * their menu and button grants, API and data scopes, the user's dept subtree and classes.
 * A disabled, pending or removed user gets nothing. Platform-only menus (and the API
 * scopes under them) count only in the platform tenant, whatever a grant row says.
 */
export function grantsQuery(database: Database, tenantId: string, userId: string) {
  const platform = tenantId === PLATFORM_TENANT_ID;
  return sql<GrantsRow>`
    with u as (
      select id, dept_id from app_user
      where tenant_id = ${tenantId} and id = ${userId} and is_deleted = 0 and status = 1
    ), r as (
      select ro.id, ro.role_alias from user_role ur
      join role ro on ro.tenant_id = ur.tenant_id and ro.id = ur.role_id and ro.is_deleted = 0
      where ur.tenant_id = ${tenantId} and ur.user_id = (select id from u)
    ), m as (
      select distinct m.id, m.code, m.category from role_menu rm
      join menu m on m.id = rm.menu_id and m.is_deleted = 0 and (${platform} or not m.platform_only)
      where rm.tenant_id = ${tenantId} and rm.role_id in (select id from r)
    ), s as (
      select distinct rs.scope_category, rs.scope_id from role_scope rs
      where rs.tenant_id = ${tenantId} and rs.role_id in (select id from r)
    )
    select
      exists (select 1 from u) as active,
      (select dept_id::text from u) as dept_id,
      (select array_agg(id::text order by id) from r) as role_ids,
      (select array_agg(role_alias order by id) from r) as role_aliases,
      (select array_agg(id::text order by id) from m where category = 1) as menu_ids,
      (select array_agg(code order by code) from m where category = 2) as buttons,
      (select array_agg(distinct a.scope_path) from s
        join scope_api a on a.id = s.scope_id and a.is_deleted = 0
        join menu am on am.id = a.menu_id and am.is_deleted = 0 and (${platform} or not am.platform_only)
        where s.scope_category = 2) as api,
      (select json_agg(json_build_object('resource', d.resource_code, 'type', d.scope_type,
          'column', d.scope_column, 'field', d.scope_field, 'value', d.scope_value) order by d.id) from s
        join scope_data d on d.id = s.scope_id and d.is_deleted = 0
        join menu dm on dm.id = d.menu_id and dm.is_deleted = 0 and (${platform} or not dm.platform_only)
        where s.scope_category = 1) as data,
      (select array_agg(d.id::text order by d.id) from dept d
        where d.tenant_id = ${tenantId} and d.is_deleted = 0
          and (d.id = (select dept_id from u) or (select dept_id from u) = any(d.ancestors))) as subtree,
      (select array_agg(c.id::text order by c.id) from clazz c
        where c.tenant_id = ${tenantId} and c.is_deleted = 0
          and ((select id from u) in (c.head_teacher_id, c.caregiver_id) or (select id from u) = any(c.teacher_ids))) as class_ids,
      (select version::text from permission_version where scope = ${tenantId}) as tv,
      (select version::text from permission_version where scope = ${PERMISSION_CATALOGUE_SCOPE}) as cv`.compile(
    database.db,
  );
}

/** permission_version's scope of the catalogue (every tenant); a tenant's is its id. */
export const PERMISSION_CATALOGUE_SCOPE = '*';

/** The permission versions grants were read at: the tenant's and the catalogue's. */
export interface PermissionVersions {
  tenant: number;
  catalogue: number;
}

/**
 * The tenant's and the catalogue's permission versions now (one small read-only round trip).
 * Triggers bump them in every transaction that changes grants (migration 0014).
 */
export async function loadPermissionVersions(
  database: Database,
  tenantId: string,
  userId: string,
): Promise<PermissionVersions> {
  const [row] = await readInTenant<{ tv: string | null; cv: string | null }>(
    database,
    { tenantId, userId },
    sql<{ tv: string | null; cv: string | null }>`
      select (select version::text from permission_version where scope = ${tenantId}) as tv,
             (select version::text from permission_version where scope = ${PERMISSION_CATALOGUE_SCOPE}) as cv`.compile(
      database.db,
    ),
  );
  return { tenant: Number(row?.tv ?? 0), catalogue: Number(row?.cv ?? 0) };
}

/** Loads a user's grants (one round trip, read-only, under the tenant's row-level security). */
export async function loadGrants(database: Database, tenantId: string, userId: string): Promise<Grants> {
  return (await loadVersionedGrants(database, tenantId, userId)).grants;
}

/**
 * A user's grants and the permission versions they were read at (one statement, so one
 * snapshot: the grants are exactly those of the versions).
 */
export async function loadVersionedGrants(
  database: Database,
  tenantId: string,
  userId: string,
): Promise<{ grants: Grants; versions: PermissionVersions }> {
  const [row] = await readInTenant<GrantsRow>(database, { tenantId, userId }, grantsQuery(database, tenantId, userId));
  const versions = { tenant: Number(row?.tv ?? 0), catalogue: Number(row?.cv ?? 0) };
  return { grants: grantsOf(row), versions };
}

function grantsOf(row: GrantsRow | undefined): Grants {
  if (!row?.active) {
    return {
      active: false,
      deptId: null,
      roleIds: [],
      roleAliases: [],
      menuIds: [],
      buttons: [],
      apiPatterns: [],
      dataScopes: [],
      deptSubtree: [],
      classIds: [],
    };
  }
  const data = typeof row.data === 'string' ? (JSON.parse(row.data) as DataScopeGrant[]) : (row.data ?? []);
  return {
    active: true,
    deptId: row.dept_id,
    roleIds: row.role_ids ?? [],
    roleAliases: row.role_aliases ?? [],
    menuIds: row.menu_ids ?? [],
    buttons: row.buttons ?? [],
    apiPatterns: row.api ?? [],
    dataScopes: data.map((d) => ({ ...d, type: Number(d.type) })),
    deptSubtree: row.subtree ?? [],
    classIds: row.class_ids ?? [],
  };
}
