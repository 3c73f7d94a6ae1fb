import { type Kysely, sql } from 'kysely';
import { hashPassword, md5 } from './auth/password';
import { type Database, type DB, inSystem } from './db';
import { nextId } from './ids';
import { DEMO_TENANT_ID, seedDemoTenant } from './permissions/demo';
import { ROLE_DEFS } from './permissions/roles';
import { offerCatalogueEntries, seedCatalogue, seedTenantRoles } from './permissions/seed';
import { seedTenantRows } from './tenant-seed';

export const PLATFORM_TENANT = '000000';

export interface SeedOptions {
  /** Also seed the demo kindergarten (tenant 100001) when it does not exist. */
  demo: boolean;
}

export interface SeedReport {
  created: string[];
}

/**
 * Idempotent: creates what is missing and never overwrites what exists, so a second start
 * (or a second replica) keeps every change an administrator made.
 */
export async function seed(database: Database, opts: SeedOptions): Promise<SeedReport> {
  const created: string[] = [];
  await inSystem(database, async (trx) => {
    // One seeder at a time across replicas.
    await sql`select pg_advisory_xact_lock(4242001)`.execute(trx);
    await seedPlatform(trx, created);
    const catalogue = await seedCatalogue(trx);
    if (catalogue.created) created.push(`catalogue (${catalogue.created} menus and buttons)`);
    // The platform always keeps its administrator; the other seeded roles (and every
    // existing tenant's roles) are created when the catalogue is first written. Later
    // starts leave roles alone: a role an administrator removed stays removed.
    const first = catalogue.created > 0;
    const platformRoles = await seedTenantRoles(trx, PLATFORM_TENANT, catalogue.index, {
      backfill: first,
      only: first ? undefined : ['administrator'],
    });
    if (platformRoles.created.length) created.push(`roles of ${PLATFORM_TENANT}: ${platformRoles.created.join(', ')}`);
    await grantAdministrator(trx, platformRoles.roleIds.get('administrator') as string);
    if (first) {
      const tenants = await trx
        .selectFrom('tenant')
        .select('tenant_id')
        .where('tenant_id', '!=', PLATFORM_TENANT)
        .where('is_deleted', '=', 0)
        .execute();
      for (const t of tenants) {
        const r = await seedTenantRoles(trx, t.tenant_id, catalogue.index, { backfill: true });
        if (r.created.length) created.push(`roles of ${t.tenant_id}: ${r.created.join(', ')}`);
      }
    }
    // Catalogue entries added since a tenant was seeded reach its seeded roles (once: what an
    // administrator revoked stays revoked). Skipped when nothing is new and every seeded role
    // has its offers recorded.
    if (catalogue.fresh.size || (await someRoleWithoutOffers(trx))) {
      const tenants = await trx.selectFrom('tenant').select('tenant_id').where('is_deleted', '=', 0).execute();
      for (const t of tenants) {
        const granted = await offerCatalogueEntries(trx, t.tenant_id, catalogue.index, catalogue.fresh);
        for (const [alias, entries] of granted)
          created.push(`grants of ${t.tenant_id} ${alias}: ${entries.length} new catalogue entries`);
      }
    }
    if (opts.demo) {
      const demo = await trx
        .selectFrom('tenant')
        .select('tenant_id')
        .where('tenant_id', '=', DEMO_TENANT_ID)
        .executeTakeFirst();
      if (!demo) {
        await seedDemoTenant(trx, catalogue.index);
        created.push(`demo tenant ${DEMO_TENANT_ID}`);
      }
    }
    // What the contexts give every tenant (lookups, …), for tenants made before they did; each
    // seeder adds only what is missing.
    const tenants = await trx.selectFrom('tenant').select('tenant_id').where('is_deleted', '=', 0).execute();
    for (const t of tenants) await seedTenantRows(trx, t.tenant_id);
  });
  return { created };
}

/** Is there a live seeded role without any offer recorded (seeded before offers were kept)? */
async function someRoleWithoutOffers(trx: Kysely<DB>) {
  const row = await trx
    .selectFrom('role as r')
    .select('r.id')
    .where('r.is_deleted', '=', 0)
    .where(
      'r.role_alias',
      'in',
      ROLE_DEFS.map((d) => d.alias),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('role_catalogue_offer as o')
            .select('o.entry')
            .whereRef('o.tenant_id', '=', 'r.tenant_id')
            .whereRef('o.role_id', '=', 'r.id'),
        ),
      ),
    )
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}

async function seedPlatform(trx: Kysely<DB>, created: string[]) {
  const tenant = await trx
    .selectFrom('tenant')
    .select('tenant_id')
    .where('tenant_id', '=', PLATFORM_TENANT)
    .executeTakeFirst();
  if (!tenant) {
    await trx
      .insertInto('tenant')
      .values({ tenant_id: PLATFORM_TENANT, tenant_name: '管理组', account_number: -1 })
      .execute();
    created.push('tenant 000000');
  }

  const client = await trx
    .selectFrom('client')
    .select('id')
    .where('tenant_id', '=', PLATFORM_TENANT)
    .where('client_id', '=', 'saber')
    .executeTakeFirst();
  if (!client) {
    await trx
      .insertInto('client')
      .values({
        tenant_id: PLATFORM_TENANT,
        id: nextId(),
        client_id: 'saber',
        client_secret_hash: await hashPassword('saber_secret'),
        authorized_grant_types: 'password,refresh_token,captcha,social',
        access_token_validity: 3600,
        refresh_token_validity: 604800,
      })
      .execute();
    created.push('client saber');
  }

  const admin = await trx
    .selectFrom('app_user')
    .select('id')
    .where('tenant_id', '=', PLATFORM_TENANT)
    .where('account', '=', 'admin')
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  if (!admin) {
    await trx
      .insertInto('app_user')
      .values({
        tenant_id: PLATFORM_TENANT,
        id: nextId(),
        account: 'admin',
        // The web app sends md5(password); we store argon2id of what it sends.
        password_hash: await hashPassword(md5('admin')),
        name: '管理员',
        real_name: '管理员',
      })
      .execute();
    created.push('user admin');
  }
}

/** The platform's `admin` account holds the administrator role when it holds no role at all (never locked out). */
async function grantAdministrator(trx: Kysely<DB>, roleId: string) {
  const admin = await trx
    .selectFrom('app_user')
    .select('id')
    .where('tenant_id', '=', PLATFORM_TENANT)
    .where('account', '=', 'admin')
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  if (!admin) return;
  const any = await trx
    .selectFrom('user_role')
    .select('role_id')
    .where('tenant_id', '=', PLATFORM_TENANT)
    .where('user_id', '=', admin.id)
    .executeTakeFirst();
  if (any) return;
  await trx
    .insertInto('user_role')
    .values({ tenant_id: PLATFORM_TENANT, user_id: admin.id, role_id: roleId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}
