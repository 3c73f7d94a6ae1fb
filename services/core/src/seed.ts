import { type Kysely, sql } from 'kysely';
import { md5, hashPassword } from './auth/password';
import { type Database, type DB, inSystem } from './db';
import { nextId } from './ids';

export const PLATFORM_TENANT = '000000';

export interface SeedOptions {
  /** Also seed the demo kindergarten (tenant 100001). */
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
  });
  void opts; // the demo kindergarten (tenant 100001) is seeded with roles and classes (issue 5)
  return { created };
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
        grant_types: ['password', 'refresh_token', 'captcha', 'social'],
        access_token_validity: 3600,
        refresh_token_validity: 604800,
      })
      .execute();
    created.push('client saber');
  }

  let role = await trx
    .selectFrom('role')
    .select('id')
    .where('tenant_id', '=', PLATFORM_TENANT)
    .where('role_alias', '=', 'administrator')
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  if (!role) {
    role = { id: nextId() };
    await trx
      .insertInto('role')
      .values({
        tenant_id: PLATFORM_TENANT,
        id: role.id,
        role_name: '超级管理员',
        role_alias: 'administrator',
        sort: 1,
      })
      .execute();
    created.push('role administrator');
  }

  const admin = await trx
    .selectFrom('app_user')
    .select('id')
    .where('tenant_id', '=', PLATFORM_TENANT)
    .where('account', '=', 'admin')
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  if (!admin) {
    const id = nextId();
    await trx
      .insertInto('app_user')
      .values({
        tenant_id: PLATFORM_TENANT,
        id,
        account: 'admin',
        // The web app sends md5(password); we store argon2id of what it sends.
        password_hash: await hashPassword(md5('admin')),
        name: '管理员',
        real_name: '管理员',
      })
      .execute();
    await trx.insertInto('user_role').values({ tenant_id: PLATFORM_TENANT, user_id: id, role_id: role.id }).execute();
    created.push('user admin');
  }
}
