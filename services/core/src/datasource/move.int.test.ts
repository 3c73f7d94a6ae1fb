import '@sprout/api/contexts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, inSystem, inTenant, readInTenant, tenantRouter } from '../db';
import { AppError } from '../errors';
import { nextId } from '../ids';
import { seed } from '../seed';
import { adminQuery, createTestDatabase, emptyTestDatabase, type TestDatabase } from '../testing/pg';
import { countTenant, moveTenant, prepareDatabase, tenantRelations } from './move';

/**
 * A tenant moved to its own database on the local server while a writer keeps writing
 * (issue 21): every relation counted and checksummed before and after, cross-tenant probes
 * across the two databases, the move back, and bad targets refused with nothing half-done.
 */
describe('moving a tenant to its own database', () => {
  const A = '100001';
  const B = '100002';
  let main: TestDatabase;
  let second: Database;
  const extra: Array<{ name: string; database?: Database }> = [];

  const admin = adminQuery;
  /** An empty database on the local server (a school group's new data source). */
  async function emptyDatabase(): Promise<Database> {
    const made = await emptyTestDatabase();
    extra.push(made);
    return made.database;
  }

  const addPost = (database: Database, tenantId: string, code: string) =>
    inTenant(database, { tenantId }, (trx) =>
      trx.insertInto('post').values({ tenant_id: tenantId, id: nextId(), post_code: code, post_name: code }).execute(),
    );
  const postCodes = async (database: Database, tenantId: string) =>
    (
      await readInTenant<{ post_code: string }>(
        database,
        { tenantId },
        sql<{ post_code: string }>`select post_code from post order by post_code`.compile(database.db),
      )
    ).map((r) => r.post_code);
  const ownerCount = (database: Database, table: string, tenantId: string) =>
    inSystem(database, async (trx) => {
      const r = await sql<{
        n: number;
      }>`select count(*)::int as n from ${sql.table(table)} where tenant_id = ${tenantId}`.execute(trx);
      return r.rows[0]?.n ?? 0;
    });

  beforeAll(async () => {
    main = await createTestDatabase(8);
    await seed(main.database, { demo: true });
    await inSystem(main.database, async (trx) => {
      await trx.insertInto('tenant').values({ tenant_id: B, tenant_name: '第二幼儿园' }).execute();
      // A few log rows for each tenant: the move rewrites their transaction ids, nothing else.
      for (const t of [A, B])
        for (let v = 1; v <= 3; v++)
          await sql`insert into events (tenant_id, stream_type, stream_id, stream_version, type, data, metadata)
            values (${t}, 'probe', ${`s-${t}`}, ${v}, 'Probed', ${JSON.stringify({ v })}::jsonb, '{}'::jsonb)`.execute(
            trx,
          );
    });
    for (let i = 0; i < 5; i++) await addPost(main.database, B, `b-${i}`);
    second = await emptyDatabase();
  }, 120_000);

  afterAll(async () => {
    for (const e of extra) {
      await e.database?.close().catch(() => undefined);
      await admin(`drop database if exists ${e.name} with (force)`).catch(() => undefined);
    }
    await main?.drop();
  });

  it('moves tenant A while a writer keeps writing: nothing lost, nothing served from both, and back again', async () => {
    const router = tenantRouter(main.database);
    const relations = await tenantRelations(main.database);
    expect(relations).toEqual(expect.arrayContaining(['app_user', 'role', 'post', 'events', 'dept']));
    expect(relations).not.toContain('tenant');
    const beforeA = await countTenant(main.database, A, relations);
    const beforeB = await countTenant(main.database, B, relations);
    expect(beforeA.find((c) => c.relation === 'app_user')?.rows).toBeGreaterThan(3);

    // The writer: one post a call for tenant A, through the tenant seam, until told to stop.
    let stop = false;
    const written: string[] = [];
    const failures: unknown[] = [];
    const writer = (async () => {
      for (let i = 0; !stop; i++) {
        const code = `w-${String(i).padStart(5, '0')}`;
        try {
          await addPost(main.database, A, code);
          written.push(code);
        } catch (err) {
          failures.push(err);
          break;
        }
      }
    })();
    await expect.poll(() => written.length + failures.length * 100).toBeGreaterThan(5);
    expect(failures).toEqual([]);
    const phases: string[] = [];
    const result = await moveTenant({
      router,
      tenantId: A,
      to: second,
      onProgress: (p) => {
        if (phases.at(-1) !== p.phase) phases.push(p.phase);
      },
    });
    const atSwitch = written.length;
    await expect.poll(() => written.length + failures.length * 100).toBeGreaterThan(atSwitch + 5);
    stop = true;
    await writer;
    expect(failures).toEqual([]);
    expect(phases).toEqual(['check', 'copy', 'verify', 'switch', 'cleanup', 'done']);
    expect(result.leftovers).toBeUndefined();
    expect(router.databaseOf(A)).toBe(second);

    // Every write of the writer is there, once, on the new database only.
    const codes = await postCodes(main.database, A);
    expect(codes.filter((c) => c.startsWith('w-'))).toEqual(written);
    expect(await ownerCount(second, 'post', A)).toBe(codes.length);
    for (const r of relations) expect([r, await ownerCount(main.database, r, A)]).toEqual([r, 0]);
    // Counted before and after: every relation but the written one is the same, checksums too.
    const afterA = await countTenant(second, A, relations);
    for (const [i, b] of beforeA.entries()) {
      if (b.relation === 'post') expect(afterA[i]?.rows).toBe(b.rows + written.length);
      else expect(afterA[i]).toEqual(b);
    }
    // Tenant B untouched on the main database, absent from the new one.
    expect(await countTenant(main.database, B, relations)).toEqual(beforeB);
    for (const r of relations) expect([r, await ownerCount(second, r, B)]).toEqual([r, 0]);

    // Cross-tenant probes across the two databases: each sees its own posts only.
    expect((await postCodes(main.database, B)).sort()).toEqual(['b-0', 'b-1', 'b-2', 'b-3', 'b-4']);
    expect(codes.some((c) => c.startsWith('b-'))).toBe(false);
    // A's users (sign-in reads them through the seam) are served from the new database.
    const users = await readInTenant<{ n: number }>(
      main.database,
      { tenantId: A },
      sql<{ n: number }>`select count(*)::int as n from app_user`.compile(main.database.db),
    );
    expect(users[0]?.n).toBe(beforeA.find((c) => c.relation === 'app_user')?.rows);
    // The catalogue the tenant's grants join is mirrored there.
    expect(await ownerCount(second, 'menu', '000000')).toBe(await ownerCount(main.database, 'menu', '000000'));
    // The log continues on the new database after the copied positions.
    await addPost(main.database, A, 'after-move');
    await inTenant(main.database, { tenantId: A }, (trx) =>
      sql`insert into events (tenant_id, stream_type, stream_id, stream_version, type, data, metadata)
        values (${A}, 'probe', ${`s-${A}`}, 4, 'Probed', '{}'::jsonb, '{}'::jsonb)`.execute(trx),
    );

    // Rolled back: the same job brings it home, counted the same.
    const beforeBack = await countTenant(second, A, relations);
    await moveTenant({ router, tenantId: A, to: main.database });
    expect(router.databaseOf(A)).toBe(main.database);
    expect(await countTenant(main.database, A, relations)).toEqual(beforeBack);
    for (const r of relations) expect([r, await ownerCount(second, r, A)]).toEqual([r, 0]);
    expect(await postCodes(main.database, A)).toContain('after-move');
  }, 120_000);

  it('a failed verification deletes the copy and leaves the tenant where it was', async () => {
    const router = tenantRouter(main.database);
    const relations = await tenantRelations(main.database);
    const before = await countTenant(main.database, A, relations);
    const err = await moveTenant({
      router,
      tenantId: A,
      to: second,
      afterCopy: (target) =>
        inSystem(target, async (trx) => {
          await sql`delete from post where tenant_id = ${A} and post_code = 'after-move'`.execute(trx);
        }).then(() => undefined),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).messageKey).toBe('datasource.verifyFailed');
    expect((err as AppError).params).toMatchObject({ table: 'post' });
    expect(router.databaseOf(A)).toBe(main.database);
    expect(router.moving(A)).toBe(false);
    expect(await countTenant(main.database, A, relations)).toEqual(before);
    for (const r of relations) expect([r, await ownerCount(second, r, A)]).toEqual([r, 0]);
    await addPost(main.database, A, 'still-home');
  }, 60_000);

  it('refuses a database at another schema version, or one already holding the tenant, writing nothing', async () => {
    const router = tenantRouter(main.database);
    const relations = await tenantRelations(main.database);
    const before = await countTenant(main.database, A, relations);
    const ahead = await emptyDatabase();
    await prepareDatabase(main.database, ahead);
    // A newer platform's database (a migration this one does not know): refused, never downgraded.
    await inSystem(ahead, (trx) =>
      sql`insert into kysely_migration (name, timestamp) values ('29991231_9999_future', now()::text)`.execute(trx),
    );
    const err = await moveTenant({ router, tenantId: A, to: ahead }).catch((e: unknown) => e);
    expect((err as AppError).messageKey).toBe('datasource.schemaVersion');
    expect((err as AppError).status).toBe(400);
    expect(String((err as AppError).params?.want)).toMatch(/^\d{8}_\d{4}_/);

    // A database with tables but no migrations (somebody else's) is refused too.
    const foreign = await emptyDatabase();
    await inSystem(foreign, (trx) => sql`create table theirs (id int)`.execute(trx));
    expect(((await moveTenant({ router, tenantId: A, to: foreign }).catch((e) => e)) as AppError).messageKey).toBe(
      'datasource.schemaVersion',
    );

    // One that already holds rows of the tenant: refused before the gate closes.
    const dirty = await emptyDatabase();
    await prepareDatabase(main.database, dirty);
    await inSystem(dirty, (trx) =>
      trx.insertInto('post').values({ tenant_id: A, id: nextId(), post_code: 'x', post_name: 'x' }).execute(),
    );
    const taken = (await moveTenant({ router, tenantId: A, to: dirty }).catch((e) => e)) as AppError;
    expect(taken.messageKey).toBe('datasource.targetHasTenant');
    expect(taken.params).toMatchObject({ tenantId: A, table: 'post' });

    expect(router.databaseOf(A)).toBe(main.database);
    expect(await countTenant(main.database, A, relations)).toEqual(before);
    expect(await ownerCount(dirty, 'post', A)).toBe(1);
  }, 120_000);

  it('makes a tenant call wait at a closed gate, then a clear 503 past the bound', async () => {
    const router = tenantRouter(main.database);
    router.waitMs = 200;
    const open = await router.close(B);
    const err = await addPost(main.database, B, 'late').catch((e: unknown) => e);
    expect((err as AppError).status).toBe(503);
    expect((err as AppError).messageKey).toBe('error.tenantMoving');
    // Tenant A is not held up by B's move.
    await addPost(main.database, A, 'not-held');
    router.waitMs = 30_000;
    const waiting = addPost(main.database, B, 'waited');
    open();
    await waiting;
    expect(await postCodes(main.database, B)).toContain('waited');
    expect(await postCodes(main.database, B)).not.toContain('late');
  });
});
