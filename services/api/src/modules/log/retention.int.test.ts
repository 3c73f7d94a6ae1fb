import '../../contexts';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveTenant } from '@sprout/core/datasource/move';
import { type Database, inSystem, openDatabase, tenantRouter } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import { seed } from '@sprout/core/seed';
import { adminQuery, createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { testPostgresUrl } from '@sprout/core/testing/services';
import { purgeExpiredAuthDataEverywhere } from '@sprout/worker/housekeeping';
import { purgeOldLogsEverywhere } from './retention';

/**
 * Retention on every database serving tenants (issue 21): a tenant bound to its own data
 * source writes its logs, sessions and security log there, so the purges run there too, with
 * the platform's parameters read from the main database.
 */
describe('log retention and housekeeping on bound data sources', () => {
  const A = '100001'; // on the main database
  const B = '100002'; // bound to the second one
  const day = 86_400_000;
  const now = new Date('2026-11-26T12:00:00Z');
  const ago = (days: number) => new Date(now.getTime() - days * day);
  let main: TestDatabase;
  let second: Database;
  let secondName = '';

  const admin = adminQuery;
  const logRow = (tenant: string, daysAgo: number, uri: string) => ({
    tenant_id: tenant,
    id: nextId(),
    request_uri: uri,
    create_time: ago(daysAgo),
  });
  const uris = (database: Database) =>
    inSystem(database, async (trx) =>
      (
        await sql<{ u: string }>`select tenant_id || ' ' || request_uri as u from api_log union all
          select tenant_id || ' ' || request_uri from usual_log order by 1`.execute(trx)
      ).rows.map((r) => r.u),
    );

  beforeAll(async () => {
    main = await createTestDatabase(6);
    await seed(main.database, { demo: false });
    await inSystem(main.database, (trx) =>
      trx.insertInto('tenant').values({ tenant_id: B, tenant_name: '二园' }).execute(),
    );
    secondName = `sprout_ds_${randomBytes(4).toString('hex')}`;
    await admin(`create database ${secondName}`);
    const u = new URL(await testPostgresUrl());
    u.pathname = `/${secondName}`;
    second = await openDatabase({ url: u.toString(), poolSize: 3 });
    await moveTenant({ router: tenantRouter(main.database), tenantId: B, to: second });
  }, 120_000);

  afterAll(async () => {
    await second?.close().catch(() => undefined);
    await admin(`drop database if exists ${secondName} with (force)`).catch(() => undefined);
    await main?.drop();
  });

  it('prunes the logs on the main database and on the bound one, by the tenant’s or the platform’s days', async () => {
    await inSystem(main.database, async (trx) => {
      await trx
        .insertInto('api_log' as never)
        .values([logRow(A, 40, '/old'), logRow(A, 5, '/kept')] as never)
        .execute();
      // The platform keeps API logs 10 days: a bound tenant without its own setting follows it.
      await sql`insert into param (tenant_id, id, param_name, param_key, param_value)
                values ('000000', ${nextId()}, 'API log days', 'log.retentionDays.api', '10')`.execute(trx);
    });
    await inSystem(second, async (trx) => {
      await trx
        .insertInto('api_log' as never)
        .values([logRow(B, 15, '/old'), logRow(B, 5, '/kept')] as never)
        .execute();
      await trx
        .insertInto('usual_log' as never)
        .values([logRow(B, 7, 'usual-old'), logRow(B, 3, 'usual-kept')] as never)
        .execute();
      // The bound tenant keeps its usual log 5 days (its parameter moved with it).
      await sql`insert into param (tenant_id, id, param_name, param_key, param_value)
                values (${B}, ${nextId()}, 'Usual log days', 'log.retentionDays.usual', '5')`.execute(trx);
    });
    const errors: Error[] = [];
    const report = await purgeOldLogsEverywhere(main.database, now, (e) => errors.push(e));
    expect(errors).toEqual([]);
    expect(report).toEqual({ api: 2, error: 0, usual: 1 });
    expect(await uris(main.database)).toEqual([`${A} /kept`]);
    expect(await uris(second)).toEqual([`${B} /kept`, `${B} usual-kept`]);
  });

  it('purges expired sessions, refresh tokens and old security-log rows on the bound database too', async () => {
    const session = (tenant: string, expire: Date) => ({
      tenant_id: tenant,
      id: nextId(),
      user_id: '1',
      client_id: 'saber',
      grant_type: 'password',
      create_time: ago(10),
      expire_time: expire,
    });
    const live = session(B, ago(0.5));
    for (const [database, tenant] of [
      [main.database, A],
      [second, B],
    ] as const)
      await inSystem(database, async (trx) => {
        await trx
          .insertInto('auth_session')
          .values(session(tenant, ago(2)))
          .execute();
        await trx
          .insertInto('security_log')
          .values({ tenant_id: tenant, id: nextId(), event: 'login', result: 'ok', create_time: ago(200) })
          .execute();
      });
    await inSystem(second, (trx) => trx.insertInto('auth_session').values(live).execute());
    const report = await purgeExpiredAuthDataEverywhere(main.database, 180, now);
    expect(report).toEqual({ refreshTokens: 0, sessions: 2, securityLog: 2, exports: 0 });
    const left = await inSystem(second, async (trx) => ({
      sessions: (await trx.selectFrom('auth_session').select('id').execute()).map((r) => String(r.id)),
      security: (await trx.selectFrom('security_log').select('id').execute()).length,
    }));
    expect(left).toEqual({ sessions: [String(live.id)], security: 0 });
  });
});
