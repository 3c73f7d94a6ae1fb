import '@sprout/api/contexts';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextId } from '../ids';
import { seed } from '../seed';
import { testPostgresUrl } from '../testing/services';
import { migrateToLatest } from './migrate';
import { type Database, inSystem, inTenant, openDatabase } from './index';

/**
 * Managed PostgreSQL gives the app an owner account that is not a superuser. Migrations,
 * seeding and system lookups must work for it, and requests must still be confined.
 */
describe('a non-superuser database owner', () => {
  const suffix = randomBytes(4).toString('hex');
  const owner = `sprout_owner_${suffix}`;
  const dbName = `sprout_own_${suffix}`;
  let adminUrl: string;
  let database: Database;

  const admin = async (text: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(text);
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    adminUrl = await testPostgresUrl();
    await admin(`create role ${owner} login nosuperuser nocreaterole nocreatedb`);
    await admin(`create database ${dbName} owner ${owner}`);
    // What a DBA does once: the app role exists and the owner may switch to it.
    await admin(`do $$ begin create role sprout_app nologin; exception when duplicate_object then null; end $$`);
    await admin(`grant sprout_app to ${owner}`);
    const u = new URL(adminUrl);
    u.username = owner;
    u.pathname = `/${dbName}`;
    database = await openDatabase({ url: u.toString(), poolSize: 2 });
    await migrateToLatest(database.db as never);
    await seed(database, { demo: false });
  });
  afterAll(async () => {
    await database?.close();
    await admin(`drop database if exists ${dbName} with (force)`);
    await admin(`drop owned by ${owner} cascade`).catch(() => undefined);
    await admin(`drop role if exists ${owner}`);
  });

  it('sees every tenant in system work and only its own tenant in a request', async () => {
    await inSystem(database, (trx) =>
      trx
        .insertInto('app_user')
        .values({ tenant_id: '100001', id: nextId(), account: 'alice', password_hash: 'x' })
        .execute(),
    );
    const client = await inSystem(database, (trx) =>
      trx.selectFrom('client').select('client_id').where('client_id', '=', 'saber').executeTakeFirst(),
    );
    expect(client?.client_id).toBe('saber');
    const everyone = await inSystem(database, (trx) =>
      trx.selectFrom('app_user').select('account').orderBy('account').execute(),
    );
    expect(everyone.map((u) => u.account)).toEqual(['admin', 'alice']);
    const inA = await inTenant(database, { tenantId: '100001' }, (trx) =>
      trx.selectFrom('app_user').select('account').execute(),
    );
    expect(inA).toEqual([{ account: 'alice' }]);
  });
});
