import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextId } from '../ids';
import { createTestDatabase, type TestDatabase } from '../testing/pg';
import { migrateToLatest } from './migrate';
import { type Database, inSystem, openDatabase, readInTenant, scriptInTenant } from './index';

/**
 * A prepared statement can vanish from the connection a script reaches (DISCARD ALL, or a
 * transaction-mode pooler handing each script another server connection). The call must
 * still answer, by running its values inlined, never fail or run half.
 */
describe('prepared statements that are gone from the connection', () => {
  let pgTest: TestDatabase;
  let lite: Database;

  beforeAll(async () => {
    pgTest = await createTestDatabase(1); // one connection: what is deallocated is what the next call reaches
    lite = await openDatabase({ dataDir: 'memory://' });
    await migrateToLatest(lite.db as never);
  });
  afterAll(async () => {
    await pgTest?.drop();
    await lite?.close();
  });

  async function scenario(database: Database) {
    const id = nextId();
    await inSystem(database, (trx) =>
      trx
        .insertInto('post')
        .values({ tenant_id: '100001', id, category: 1, post_code: 'p', post_name: '岗位', sort: 0 })
        .execute(),
    );
    const read = () =>
      readInTenant<{ post_name: string }>(
        database,
        { tenantId: '100001' },
        database.db.selectFrom('post').select('post_name').where('id', '=', id).compile(),
        { prepared: true },
      );
    expect(await read()).toEqual([{ post_name: '岗位' }]);
    await database.script('deallocate all');
    expect(await read()).toEqual([{ post_name: '岗位' }]);
    // A write: applied exactly once.
    const write = () =>
      scriptInTenant(
        database,
        { tenantId: '100001' },
        [
          database.db
            .updateTable('post')
            .set({ sort: (eb) => eb('sort', '+', 1) })
            .where('id', '=', id)
            .compile(),
        ],
        { prepared: true },
      );
    await write();
    await database.script('deallocate all');
    await write();
    const [row] = await readInTenant<{ sort: number }>(
      database,
      { tenantId: '100001' },
      database.db.selectFrom('post').select('sort').where('id', '=', id).compile(),
    );
    expect(row?.sort).toBe(2);
  }

  it('on PostgreSQL', async () => scenario(pgTest.database));
  it('on PGlite', async () => scenario(lite));
});
