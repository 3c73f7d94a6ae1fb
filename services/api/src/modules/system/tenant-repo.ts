import { randomInt } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { containsPattern, type DB, type NewTenant } from '@sprout/core/db';
import { AppError } from '@sprout/core/errors';
import type { PageQuery } from '@sprout/core/http/paging';
import { createTimeRange, live, writeRow } from '../../http/query';

/** The filters of the tenant list, as the API takes them (with a page's create-time range). */
export const TenantFilterSchema = z.object({
  tenantId: z.string().trim().max(12).optional(),
  tenantName: z.string().trim().max(100).optional(),
});
type TenantFilter = z.output<typeof TenantFilterSchema> & Pick<PageQuery, 'createTime_dategt' | 'createTime_datelt'>;

/** The live tenants of a filter, by id. */
export function tenantList(db: Kysely<DB>, f: TenantFilter, tz: string) {
  let base = db.selectFrom('tenant').where(live());
  if (f.tenantId) base = base.where('tenant_id', 'like', containsPattern(f.tenantId));
  if (f.tenantName) base = base.where('tenant_name', 'like', containsPattern(f.tenantName));
  return createTimeRange(base, f, tz).selectAll().orderBy('tenant_id');
}

export const findTenant = (db: Kysely<DB>, tenantId: string) =>
  db.selectFrom('tenant').selectAll().where('tenant_id', '=', tenantId).where(live()).executeTakeFirst();

/** What a tenant's add or update writes. */
export type TenantValues = Pick<
  NewTenant,
  | 'tenant_name'
  | 'domain'
  | 'background_url'
  | 'contact_person'
  | 'contact_number'
  | 'address'
  | 'account_number'
  | 'expire_time'
  | 'update_user'
> & { update_time: Date };

/** Updates a live tenant; answers it as stored, or undefined when there is none. */
export const updateTenant = (db: Kysely<DB>, tenantId: string, values: TenantValues) =>
  db
    .updateTable('tenant')
    .set(values)
    .where('tenant_id', '=', tenantId)
    .where(live())
    .returningAll()
    .executeTakeFirst();

/** Adds a tenant under a free random six-digit id; answers it as stored. */
export async function insertTenant(db: Kysely<DB>, values: TenantValues) {
  const tenantId = await freeTenantId(db);
  return db
    .insertInto('tenant')
    .values({ tenant_id: tenantId, ...values, create_user: values.update_user })
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function freeTenantId(db: Kysely<DB>): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const id = String(randomInt(100000, 1000000));
    const taken = await db.selectFrom('tenant').select('tenant_id').where('tenant_id', '=', id).executeTakeFirst();
    if (!taken) return id;
  }
  throw new AppError('conflict', 'error.conflict');
}

/** Runs `fn` with the transaction's tenant setting switched to `tenantId` (row-level security), then back. */
export async function asTenant<T>(db: Kysely<DB>, tenantId: string, back: string, fn: () => Promise<T>): Promise<T> {
  await sql`select set_config('app.tenant_id', ${tenantId}, true)`.execute(db);
  const out = await fn();
  await sql`select set_config('app.tenant_id', ${back}, true)`.execute(db);
  return out;
}

/** A new tenant's root dept (named as the tenant) and its `admin` account holding `roleId`. */
export async function addTenantAdmin(
  db: Kysely<DB>,
  tenantId: string,
  tenantName: string,
  passwordHash: string,
  roleId: string,
) {
  const root = { ancestors: [], dept_category: 1, dept_name: tenantName, full_name: tenantName, sort: 1 };
  const deptId = await writeRow(db, 'dept', tenantId, undefined, root);
  const admin = { account: 'admin', password_hash: passwordHash, name: '管理员', real_name: '管理员', dept_id: deptId };
  const adminId = await writeRow(db, 'app_user', tenantId, undefined, admin);
  await db.insertInto('user_role').values({ tenant_id: tenantId, user_id: adminId, role_id: roleId }).execute();
}

/** The ids of `ids` naming live tenants (locked, when `lock`). */
export async function liveTenantIds(db: Kysely<DB>, ids: string[], lock = false) {
  const query = db.selectFrom('tenant').select('tenant_id').where('tenant_id', 'in', ids).where(live());
  const rows = await (lock ? query.forUpdate() : query).execute();
  return rows.map((t) => t.tenant_id);
}

/**
 * Sets columns of the live tenants of `ids`, stamped with who changed them and when; answers
 * how many there were.
 */
export async function updateTenants(
  db: Kysely<DB>,
  ids: string[],
  by: string | null,
  set: Partial<Pick<NewTenant, 'is_deleted' | 'account_number' | 'expire_time' | 'datasource_id'>>,
) {
  const updated = await db
    .updateTable('tenant')
    .set({ ...set, update_user: by, update_time: new Date() })
    .where('tenant_id', 'in', ids)
    .where(live())
    .executeTakeFirst();
  return Number(updated.numUpdatedRows);
}

/** Revokes every live session of a tenant; answers their ids (the caller's transaction set to that tenant). */
export async function revokeTenantSessions(db: Kysely<DB>, tenantId: string) {
  const rows = await db
    .updateTable('auth_session')
    .set({ revoke_time: new Date(), revoke_reason: 'tenant_removed' })
    .where('tenant_id', '=', tenantId)
    .where('revoke_time', 'is', null)
    .returning('id')
    .execute();
  return rows.map((s) => String(s.id));
}
