import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/pg';
import { migrateDown, migrateToLatest, migrator } from './migrate';

describe('migrations', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t?.drop());

  const tables = async () =>
    (
      await sql<{ tablename: string }>`select tablename from pg_tables where schemaname = 'public' order by 1`.execute(
        t.database.db,
      )
    ).rows.map((r) => r.tablename);

  it('go down one by one to nothing and back up to the same schema', async () => {
    const before = await tables();
    expect(before).toEqual(expect.arrayContaining(['tenant', 'client', 'app_user', 'role', 'user_role']));
    const all = await migrator(t.database.db as never).getMigrations();
    for (let i = 0; i < all.length; i++) await migrateDown(t.database.db as never);
    expect((await tables()).filter((n) => !n.startsWith('kysely_'))).toEqual([]);
    await migrateToLatest(t.database.db as never);
    expect(await tables()).toEqual(before);
  });

  it('file names are date-prefixed so they sort in the order they were written', async () => {
    const all = await migrator(t.database.db as never).getMigrations();
    for (const m of all) expect(m.name).toMatch(/^\d{8}_\d{4}_[a-z0-9_]+$/);
  });

  it('an older release starts on a newer schema (a rolling upgrade): nothing to apply, no error', async () => {
    await sql`insert into kysely_migration (name, timestamp) values ('29991231_9999_from_a_newer_release', now())`.execute(
      t.database.db,
    );
    try {
      expect(await migrateToLatest(t.database.db as never)).toEqual([]);
    } finally {
      await sql`delete from kysely_migration where name = '29991231_9999_from_a_newer_release'`.execute(t.database.db);
    }
  });
});
