import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/password';
import { nextId } from '../ids';
import { createTestDatabase, type TestDatabase } from '../testing/pg';
import { migrateToLatest } from './migrate';
import { type Database, inSystem, inTenant, openDatabase, readInTenant, scriptInTenant } from './index';

/**
 * The same statements under row-level security must behave the same on PGlite (embedded
 * mode) and on PostgreSQL (server mode).
 */
describe('row-level security on PGlite and PostgreSQL', () => {
  let pgTest: TestDatabase;
  let lite: Database;
  let hash: string;

  beforeAll(async () => {
    hash = await hashPassword('x');
    pgTest = await createTestDatabase();
    lite = await openDatabase({ dataDir: 'memory://' });
    await migrateToLatest(lite.db as never);
  });
  afterAll(async () => {
    await pgTest?.drop();
    await lite?.close();
  });

  async function scenario(database: Database) {
    const ids = { a: nextId(), b: nextId() };
    await inSystem(database, async (trx) => {
      await trx
        .insertInto('app_user')
        .values([
          { tenant_id: '100001', id: ids.a, account: 'alice', password_hash: hash, name: 'Alice' },
          { tenant_id: '100002', id: ids.b, account: 'bob', password_hash: hash, name: 'Bob' },
        ])
        .execute();
    });
    const out: Record<string, unknown> = {};
    out.seenByA = await inTenant(database, { tenantId: '100001' }, (trx) =>
      trx.selectFrom('app_user').select(['account', 'tenant_id']).orderBy('account').execute(),
    );
    out.countByB = await inTenant(database, { tenantId: '100002' }, async (trx) =>
      Number(
        (
          await trx
            .selectFrom('app_user')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    );
    // Updating or deleting another tenant's row touches nothing.
    out.updateOther = await inTenant(database, { tenantId: '100001' }, async (trx) =>
      Number(
        (await trx.updateTable('app_user').set({ name: 'hacked' }).where('id', '=', ids.b).executeTakeFirst())
          .numUpdatedRows,
      ),
    );
    out.deleteOther = await inTenant(database, { tenantId: '100001' }, async (trx) =>
      Number((await trx.deleteFrom('app_user').where('id', '=', ids.b).executeTakeFirst()).numDeletedRows),
    );
    // Writing a row for another tenant is refused by the policy's check.
    out.insertOther = await inTenant(database, { tenantId: '100001' }, (trx) =>
      trx
        .insertInto('app_user')
        .values({ tenant_id: '100002', id: nextId(), account: 'mallory', password_hash: hash })
        .execute()
        .then(
          () => 'inserted',
          (e: Error) => (/row-level security/.test(e.message) ? 'refused by RLS' : e.message),
        ),
    );
    // No tenant set: nothing is visible.
    out.noTenant = await database.db.connection().execute(async (conn) => {
      await conn.executeQuery(CompiledQuery.raw('begin; set local role sprout_app'));
      const n = await conn
        .selectFrom('app_user')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      await conn.executeQuery(CompiledQuery.raw('commit'));
      return Number(n.n);
    });
    // The one-round-trip read path sees exactly what the transaction path sees.
    out.readOnceByA = await readInTenant(
      database,
      { tenantId: '100001' },
      database.db.selectFrom('app_user').select(['account', 'tenant_id']).orderBy('account').compile(),
    );
    out.readOnceWrite = await readInTenant(
      database,
      { tenantId: '100001' },
      database.db.updateTable('app_user').set({ name: 'x' }).returning('id').compile(),
    ).then(
      () => 'written',
      (e: Error) => (/read-only/.test(e.message) ? 'refused: read-only' : e.message),
    );
    // Prepared reads and writes (parsed and planned once per connection; a generic plan
    // after five runs) stay confined to the tenant of each run, alternating on one connection.
    const accounts = (tenantId: string) =>
      readInTenant(
        database,
        { tenantId },
        database.db.selectFrom('app_user').select(['account', 'tenant_id']).where('is_deleted', '=', 0).compile(),
        { prepared: true },
      );
    const seen = new Set<string>();
    for (let i = 0; i < 7; i++) {
      seen.add(JSON.stringify(await accounts('100001')));
      seen.add(JSON.stringify(await accounts('100002')));
    }
    out.preparedReads = [...seen].sort();
    out.preparedOther = await readInTenant(
      database,
      { tenantId: '100001' },
      database.db.selectFrom('app_user').select('account').where('id', '=', ids.b).compile(),
      { prepared: true },
    );
    out.preparedInsertOther = await scriptInTenant(
      database,
      { tenantId: '100001' },
      [
        database.db
          .insertInto('app_user')
          .values({ tenant_id: '100002', id: nextId(), account: 'mallory', password_hash: hash })
          .compile(),
      ],
      { prepared: true },
    ).then(
      () => 'inserted',
      (e: Error) => (/row-level security/.test(e.message) ? 'refused by RLS' : e.message),
    );
    out.afterFailedRead = await inTenant(database, { tenantId: '100001' }, async (trx) =>
      Number(
        (
          await trx
            .selectFrom('app_user')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    );
    out.bobIntact = await inSystem(database, (trx) =>
      trx.selectFrom('app_user').select('name').where('id', '=', ids.b).executeTakeFirstOrThrow(),
    );
    return out;
  }

  it('isolates tenants identically in both modes', async () => {
    const onPg = await scenario(pgTest.database);
    const onLite = await scenario(lite);
    expect(onPg).toEqual({
      seenByA: [{ account: 'alice', tenant_id: '100001' }],
      countByB: 1,
      updateOther: 0,
      deleteOther: 0,
      insertOther: 'refused by RLS',
      noTenant: 0,
      readOnceByA: [{ account: 'alice', tenant_id: '100001' }],
      readOnceWrite: 'refused: read-only',
      preparedReads: [
        JSON.stringify([{ account: 'alice', tenant_id: '100001' }]),
        JSON.stringify([{ account: 'bob', tenant_id: '100002' }]),
      ],
      preparedOther: [],
      preparedInsertOther: 'refused by RLS',
      afterFailedRead: 1,
      bobIntact: { name: 'Bob' },
    });
    expect(onLite).toEqual(onPg);
  });

  it('rolls back the whole transaction when the work fails', async () => {
    for (const database of [pgTest.database, lite]) {
      const id = nextId();
      await expect(
        inTenant(database, { tenantId: '100003' }, async (trx) => {
          await trx
            .insertInto('app_user')
            .values({ tenant_id: '100003', id, account: 'carol', password_hash: hash })
            .execute();
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      const found = await inTenant(database, { tenantId: '100003' }, (trx) =>
        trx.selectFrom('app_user').select('id').where('id', '=', id).execute(),
      );
      expect(found).toEqual([]);
    }
  });
});
