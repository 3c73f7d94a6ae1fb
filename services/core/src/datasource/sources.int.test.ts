import '@sprout/api/contexts';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, inSystem, inTenant, openDatabase, readInTenant, routerOf, tenantRouter } from '../db';
import { migrateDown } from '../db/migrate';
import type { AppError } from '../errors';
import { nextId } from '../ids';
import { seed } from '../seed';
import { adminQuery, createTestDatabase, type TestDatabase } from '../testing/pg';
import { testPostgresUrl } from '../testing/services';
import { moveTenant } from './move';
import { bindDataSources, closeDataSources, parseDataSourceUrl } from './sources';

/**
 * What a start does with bound tenants (issue 21): their databases opened, migrated to the
 * main one's version (one left behind by an upgrade is brought up), routed; one that cannot be
 * reached leaves its tenants refused with a 503, never served from the main database.
 */
describe('bound data sources at start', () => {
  const B = '100002';
  let main: TestDatabase;
  let second: Database;
  let secondName = '';
  const restarts: Database[] = [];
  const pgUrl = async (name: string) => {
    const u = new URL(await testPostgresUrl());
    u.pathname = `/${name}`;
    return u;
  };
  const admin = adminQuery;
  const codes = async (database: Database) =>
    (
      await readInTenant<{ post_code: string }>(
        database,
        { tenantId: B },
        sql<{ post_code: string }>`select post_code from post order by post_code`.compile(database.db),
      )
    ).map((r) => r.post_code);
  /** A new process's view of the main database (a restart). */
  const restart = async () => {
    const db = await openDatabase({ url: main.url, poolSize: 4 });
    restarts.push(db);
    return db;
  };

  beforeAll(async () => {
    main = await createTestDatabase(6);
    await seed(main.database, { demo: false });
    await inSystem(main.database, (trx) =>
      trx.insertInto('tenant').values({ tenant_id: B, tenant_name: '二园' }).execute(),
    );
    for (const code of ['p1', 'p2', 'p3'])
      await inTenant(main.database, { tenantId: B }, (trx) =>
        trx.insertInto('post').values({ tenant_id: B, id: nextId(), post_code: code, post_name: code }).execute(),
      );
    secondName = `sprout_ds_${randomBytes(4).toString('hex')}`;
    await admin(`create database ${secondName}`);
    second = await openDatabase({ url: (await pgUrl(secondName)).toString(), poolSize: 4 });
    await moveTenant({ router: tenantRouter(main.database), tenantId: B, to: second });
    const u = await pgUrl(secondName);
    await inSystem(main.database, async (trx) => {
      await sql`insert into datasource (id, name, url, username)
        values (1, '二号库', ${`jdbc:postgresql://${u.hostname}:${u.port || 5432}/${secondName}`}, ${u.username || 'postgres'})`.execute(
        trx,
      );
      await sql`update tenant set datasource_id = 1 where tenant_id = ${B}`.execute(trx);
    });
  }, 120_000);
  afterAll(async () => {
    for (const db of restarts) {
      await closeDataSources(db).catch(() => undefined);
      await db.close().catch(() => undefined);
    }
    await second?.close();
    await admin(`drop database if exists ${secondName} with (force)`).catch(() => undefined);
    await main?.drop();
  });

  it('reads data-source URLs as BladeX and PostgreSQL write them, never with a user inside', () => {
    expect(parseDataSourceUrl('jdbc:postgresql://db.example.com:5432/sprout?sslmode=require')?.host).toBe(
      'db.example.com:5432',
    );
    expect(parseDataSourceUrl('postgres://10.0.0.5/kg')?.pathname).toBe('/kg');
    for (const bad of ['mysql://h/db', 'jdbc:postgresql://u:p@h/db', 'postgresql://h', 'postgresql://h/a/b', 'x'])
      expect([bad, parseDataSourceUrl(bad)]).toEqual([bad, undefined]);
  });

  it('serves a bound tenant from its database after a restart, migrating one an upgrade left behind', async () => {
    // The platform was upgraded while the data source was behind: its newest migration undone.
    await migrateDown(second.db as never);
    const behind = await inSystem(second, async (trx) =>
      Number((await sql<{ n: string }>`select count(*) as n from kysely_migration`.execute(trx)).rows[0]?.n),
    );
    const db = await restart();
    const logged: string[] = [];
    expect(await bindDataSources(db, { poolSize: 2 }, (m) => logged.push(m))).toEqual({ bound: [B], down: [] });
    expect(logged).toEqual([`data source 二号库: serving tenants ${B}`]);
    const after = await inSystem(second, async (trx) =>
      Number((await sql<{ n: string }>`select count(*) as n from kysely_migration`.execute(trx)).rows[0]?.n),
    );
    expect(after).toBe(behind + 1);
    expect(await codes(db)).toEqual(['p1', 'p2', 'p3']);
    expect(routerOf(db)?.databaseOf(B)).not.toBe(db);
    // The platform's own calls stay on the main database.
    expect(routerOf(db)?.databaseOf('000000')).toBe(db);
  }, 120_000);

  it('refuses a bound tenant with a 503 when its database cannot be reached, never serving the main one', async () => {
    await inSystem(main.database, (trx) =>
      sql`update datasource set url = 'jdbc:postgresql://127.0.0.1:1/nowhere' where id = 1`.execute(trx),
    );
    const db = await restart();
    const logged: string[] = [];
    expect(await bindDataSources(db, { poolSize: 2 }, (m) => logged.push(m))).toEqual({ bound: [], down: [B] });
    expect(logged[0]).toMatch(/^data source 二号库 cannot serve \(.*ECONNREFUSED.*\): tenants 100002 answer 503$/);
    const err = (await codes(db).catch((e: unknown) => e)) as AppError;
    expect(err.status).toBe(503);
    expect(err.messageKey).toBe('error.tenantDataSourceDown');
    const platform = await readInTenant<{ n: number }>(
      db,
      { tenantId: '000000' },
      sql<{ n: number }>`select count(*)::int as n from tenant`.compile(db.db),
    );
    expect(platform[0]?.n).toBeGreaterThanOrEqual(2);
  }, 60_000);
});
