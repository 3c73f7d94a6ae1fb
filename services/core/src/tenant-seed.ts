import type { Kysely } from 'kysely';
import type { DB } from './db';

/**
 * Rows a context gives every tenant (its own copy of a lookup, a default): run for each live
 * tenant by the seed at every start, and for a new tenant as the tenant call creates it (under
 * that tenant's row-level-security setting). Must create only what is missing, so a second
 * run changes nothing and what a tenant removed stays removed.
 */
export type TenantSeeder = (trx: Kysely<DB>, tenantId: string) => Promise<void>;

const tenantSeeders = new Map<string, TenantSeeder>();

/** A context's tenant rows (once per context name). */
export function registerTenantSeed(context: string, seeder: TenantSeeder): void {
  tenantSeeders.set(context, seeder);
}

/** Gives `tenantId` what every installed context seeds for each tenant, in registration order. */
export async function seedTenantRows(trx: Kysely<DB>, tenantId: string): Promise<void> {
  for (const seeder of tenantSeeders.values()) await seeder(trx, tenantId);
}
