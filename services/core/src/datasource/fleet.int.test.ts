import '@sprout/api/contexts';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, inSystem, inTenant, openDatabase, readInTenant, type TenantRouter } from '../db';
import type { AppError } from '../errors';
import { nextId } from '../ids';
import { RedisStore } from '../kv/redis';
import { seed } from '../seed';
import { adminQuery, createTestDatabase, type TestDatabase } from '../testing/pg';
import { testPostgresUrl, testRedisUrl } from '../testing/services';
import { type FleetOptions, type FleetRoutes, startFleet } from './fleet';
import { moveTenant } from './move';
import { bindDataSources, closeDataSources, dataSourceDatabase, findDataSource } from './sources';

/**
 * The cluster-wide gate and route (issue 21): "processes" in one test, each with its own
 * pool on the main database and its own Redis connection and bus, as api, worker and collab
 * processes have. A move run from one closes every process's gate, waits for each to drain,
 * and every process serves the tenant from the new database afterwards.
 */
describe('a tenant move across a fleet of processes', () => {
  const A = '100001';
  const prefix = `fleet${randomBytes(4).toString('hex')}`;
  let main: TestDatabase;
  let secondName = '';
  let second: Database;
  const processes: Process[] = [];
  const stores: RedisStore[] = [];

  interface Process {
    database: Database;
    kv: RedisStore;
    fleet: FleetRoutes;
    router: TenantRouter;
  }

  const admin = adminQuery;

  /** A process starting as openPlatform starts one: join the fleet, read the bindings, ready. */
  async function start(id: string, opts: Partial<FleetOptions> = {}): Promise<Process> {
    const database = await openDatabase({ url: main.url, poolSize: 4 });
    const kv = new RedisStore(await testRedisUrl(), prefix);
    const fleet = await startFleet(database, kv, { id, openOptions: { poolSize: 4 }, ...opts });
    await bindDataSources(database, { poolSize: 4 });
    fleet.ready();
    const p = { database, kv, fleet, router: fleet.router };
    processes.push(p);
    return p;
  }

  const addPost = (database: Database, code: string) =>
    inTenant(database, { tenantId: A }, (trx) =>
      trx.insertInto('post').values({ tenant_id: A, id: nextId(), post_code: code, post_name: code }).execute(),
    );
  const postCodes = async (database: Database) =>
    (
      await readInTenant<{ post_code: string }>(
        database,
        { tenantId: A },
        sql<{ post_code: string }>`select post_code from post order by post_code`.compile(database.db),
      )
    ).map((r) => r.post_code);
  /** The tenant's posts in one database, read as its owner (no routing). */
  const ownerCodes = (database: Database) =>
    inSystem(database, async (trx) =>
      (await sql<{ c: string }>`select post_code as c from post where tenant_id = ${A} order by 1`.execute(trx)).rows
        .map((r) => r.c)
        .sort(),
    );
  const bindingOf = (database: Database, datasourceId: number | null) => () =>
    inSystem(database, (trx) =>
      sql`update tenant set datasource_id = ${datasourceId} where tenant_id = ${A}`.execute(trx),
    ).then(() => undefined);

  /** A writer through one process: a post a call until stopped; each code once it is stored. */
  function writer(database: Database, tag: string) {
    const w = { written: [] as string[], failures: [] as unknown[], stop: false, done: Promise.resolve() };
    w.done = (async () => {
      for (let i = 0; !w.stop; i++) {
        const code = `${tag}-${String(i).padStart(5, '0')}`;
        try {
          await addPost(database, code);
          w.written.push(code);
        } catch (err) {
          w.failures.push(err);
          break;
        }
      }
    })();
    return w;
  }

  beforeAll(async () => {
    main = await createTestDatabase(8);
    await seed(main.database, { demo: true });
    for (let i = 0; i < 5; i++) await addPost(main.database, `seed-${i}`);
    secondName = `sprout_ds_${randomBytes(4).toString('hex')}`;
    await admin(`create database ${secondName}`);
    const u = new URL(await testPostgresUrl());
    u.pathname = `/${secondName}`;
    second = await openDatabase({ url: u.toString(), poolSize: 2 });
    await inSystem(main.database, (trx) =>
      sql`insert into datasource (id, name, url, username)
        values (1, '二号库', ${`jdbc:postgresql://${u.hostname}:${u.port || 5432}/${secondName}`}, ${u.username || 'postgres'})`.execute(
        trx,
      ),
    );
  }, 120_000);

  afterAll(async () => {
    for (const p of processes) {
      await p.fleet.stop().catch(() => undefined);
      await p.kv.close().catch(() => undefined);
      await closeDataSources(p.database).catch(() => undefined);
      await p.database.close().catch(() => undefined);
    }
    for (const s of stores) await s.close().catch(() => undefined);
    await second?.close().catch(() => undefined);
    await admin(`drop database if exists ${secondName} with (force)`).catch(() => undefined);
    await main?.drop();
  });

  it('a move run from process A closes B’s gate, B’s writer waits, then writes to the new database; nothing lost, nothing left on the old one', async () => {
    const a = await start('A');
    const b = await start('B');
    const row = await findDataSource(a.database, '1');
    if (!row) throw new Error('no data source row');
    const target = await dataSourceDatabase(a.database, row, { poolSize: 4 });
    const seeded = await ownerCodes(main.database);

    const w = writer(b.database, 'b');
    await expect.poll(() => w.written.length + w.failures.length * 100).toBeGreaterThan(5);
    expect(w.failures).toEqual([]);

    let late: Process | undefined;
    const seen: Record<string, unknown> = {};
    await moveTenant({
      router: a.router,
      gate: a.fleet,
      tenantId: A,
      to: target,
      onSwitch: bindingOf(a.database, 1),
      afterCopy: async () => {
        // Copied and not yet switched: B's gate is closed and its writer waits at it.
        seen.bClosed = b.router.moving(A);
        await expect.poll(() => b.router.waiting(A)).toBeGreaterThan(0);
        seen.writtenDuringCopy = w.written.length;
        // A process that starts now finds the gate closed.
        late = await start('C');
        seen.cClosed = late.router.moving(A);
      },
    });
    expect(seen).toMatchObject({ bClosed: true, cClosed: true });
    const atSwitch = w.written.length;
    // B's waiting call went on after the switch, then more.
    await expect.poll(() => w.written.length + w.failures.length * 100).toBeGreaterThan(atSwitch + 5);
    w.stop = true;
    await w.done;
    expect(w.failures).toEqual([]);

    // Nothing lost: every seeded and written post is on the new database, once.
    const there = await ownerCodes(target);
    expect(seeded).toContain('seed-4');
    expect(there).toEqual([...seeded, ...w.written].sort());
    // Nothing served from both: the old database holds none of the tenant's posts (the move's
    // cleanup removed them; a write of B that landed there after the switch would show).
    expect(await ownerCodes(main.database)).toEqual([]);
    // Every process routes the tenant to the new database and reads the same rows.
    expect(b.router.databaseOf(A)).not.toBe(b.database);
    expect(b.router.moving(A)).toBe(false);
    expect((await postCodes(b.database)).sort()).toEqual(there);
    if (!late) throw new Error('C never started');
    expect((await postCodes(late.database)).sort()).toEqual(there);
    expect(late.router.databaseOf(A)).not.toBe(late.database);
  }, 120_000);

  it('a process that cannot acknowledge in time aborts the move: rolled back, every gate open, the tenant where it was', async () => {
    const b = processes.find((p) => p.fleet.id === 'B');
    if (!b) throw new Error('no B');
    const d = await start('D', { ackTimeoutMs: 1_000, resendMs: 200 });
    // A live process that never answers (hung, or partitioned from the bus).
    const ghost = new RedisStore(await testRedisUrl(), prefix);
    stores.push(ghost);
    await ghost.join('tenant-route-processes', 'ghost', 120_000);
    const before = await postCodes(b.database);

    const err = (await moveTenant({
      router: d.router,
      gate: d.fleet,
      tenantId: A,
      to: d.database,
      drainTimeoutMs: 500,
      onSwitch: bindingOf(d.database, null),
    }).catch((e: unknown) => e)) as AppError;
    expect(err.messageKey).toBe('datasource.notAcknowledged');
    expect(err.params).toMatchObject({ processes: 'ghost', ms: 1_500 });
    // Every gate opens again; the tenant stays on its data source, nothing copied home.
    for (const p of processes) await expect.poll(() => p.router.moving(A)).toBe(false);
    await addPost(b.database, 'after-abort');
    expect((await postCodes(d.database)).sort()).toEqual([...before, 'after-abort'].sort());
    expect(await ownerCodes(main.database)).toEqual([]);

    // The ghost gone, the same move goes through: home again, every process following.
    await ghost.leave('tenant-route-processes', 'ghost');
    const home = await moveTenant({
      router: d.router,
      gate: d.fleet,
      tenantId: A,
      to: d.database,
      onSwitch: bindingOf(d.database, null),
    });
    expect(home.leftovers).toBeUndefined();
    for (const p of processes) await expect.poll(() => p.router.databaseOf(A) === p.database).toBe(true);
    expect(await ownerCodes(main.database)).toEqual([...before, 'after-abort'].sort());
    expect((await postCodes(b.database)).sort()).toEqual([...before, 'after-abort'].sort());
  }, 120_000);

  it('a process whose calls do not drain refuses, naming itself and why; a dead process (heartbeat lapsed) blocks nothing', async () => {
    const b = processes.find((p) => p.fleet.id === 'B');
    const a = processes.find((p) => p.fleet.id === 'A');
    if (!a || !b) throw new Error('no A or B');
    // A call of the tenant on B that runs until released.
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let entered!: () => void;
    const inside = new Promise<void>((r) => {
      entered = r;
    });
    const running = inTenant(b.database, { tenantId: A }, async () => {
      entered();
      await held;
    });
    await inside;
    const row = await findDataSource(a.database, '1');
    if (!row) throw new Error('no data source row');
    const target = await dataSourceDatabase(a.database, row, { poolSize: 4 });
    const err = (await moveTenant({
      router: a.router,
      gate: a.fleet,
      tenantId: A,
      to: target,
      drainTimeoutMs: 300,
      onSwitch: bindingOf(a.database, 1),
    }).catch((e: unknown) => e)) as AppError;
    expect(err.messageKey).toBe('datasource.drainFailed');
    expect(err.params).toMatchObject({ process: 'B' });
    expect(String(err.params?.reason)).toMatch(/calls still running/);
    release();
    await running;
    for (const p of processes) await expect.poll(() => p.router.moving(A)).toBe(false);
    expect(await ownerCodes(target)).toEqual([]);

    // A process that died without leaving: its heartbeat lapses and the move does not wait for it.
    const dead = new RedisStore(await testRedisUrl(), prefix);
    stores.push(dead);
    await dead.join('tenant-route-processes', 'dead', 200);
    await expect.poll(async () => (await dead.members('tenant-route-processes')).includes('dead')).toBe(false);
    await moveTenant({ router: a.router, gate: a.fleet, tenantId: A, to: target, onSwitch: bindingOf(a.database, 1) });
    for (const p of processes) await expect.poll(() => p.router.databaseOf(A) === p.database).toBe(false);
    expect(await ownerCodes(main.database)).toEqual([]);
  }, 120_000);
});
