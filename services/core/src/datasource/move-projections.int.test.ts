import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, inSystem, tenantRouter } from '../db';
import type { AppError } from '../errors';
import { AsyncProjector, ensureReadModels } from '../events';
import { type ProjectionDefinition, registerProjection, unregisterProjection } from '../events/projections/registry';
import { adminQuery, createTestDatabase, emptyTestDatabase, type TestDatabase } from '../testing/pg';
import { moveTenant } from './move';

/**
 * A move and the worker's async projections: the tenant's gate stops its calls, not a
 * projector, so the move waits until every projection a worker leads has processed the
 * tenant's last events (else it would write rows into the source after they were copied).
 */
describe('a tenant move waits for the projections a worker leads', () => {
  const A = '100001';
  let main: TestDatabase;
  const extra: Array<{ name: string; database: Database }> = [];

  /** Counts each tenant's probe events: an async read model with a tenant_id column. */
  const probes: ProjectionDefinition = {
    name: 'probe_tally',
    kind: 'async',
    eventTypes: ['Probed'],
    async createTable(trx, table) {
      await sql`create table ${sql.table(table)} (tenant_id varchar(12) not null, stream_id varchar(64) not null, version integer not null)`.execute(
        trx,
      );
    },
    async handle(trx, events, ctx) {
      for (const e of events) {
        // A probe marked `hold` keeps the leader inside its batch until the test releases it.
        if ((e.data as { hold?: boolean }).hold) await new Promise<void>((resolve) => held.resolve(resolve));
        await sql`insert into ${sql.table(ctx.table)} (tenant_id, stream_id, version)
          values (${e.tenantId}, ${e.streamId}, ${e.streamVersion})`.execute(trx);
      }
    },
  };

  async function emptyDatabase(): Promise<Database> {
    const made = await emptyTestDatabase();
    extra.push(made);
    return made.database;
  }
  /** The handler's hold: `resolve` is called with the release of the batch it holds. */
  const holdPoint = () => {
    let resolve: (release: () => void) => void = () => undefined;
    const promise = new Promise<() => void>((r) => {
      resolve = r;
    });
    return { promise, resolve };
  };
  let held = holdPoint();
  let version = 0;
  const probe = (data: { hold?: boolean } = {}) =>
    inSystem(main.database, async (trx) => {
      version++;
      await sql`insert into events (tenant_id, stream_type, stream_id, stream_version, type, data, metadata)
        values (${A}, 'probe', 'p-1', ${version}, 'Probed', ${JSON.stringify(data)}::jsonb, '{}'::jsonb)`.execute(trx);
    });
  const tally = (database: Database) =>
    inSystem(database, async (trx) => {
      const r = await sql<{ n: number }>`select count(*)::int as n from probe_tally where tenant_id = ${A}`.execute(
        trx,
      );
      return r.rows[0]?.n ?? 0;
    });
  const caughtUp = async (projector: AsyncProjector) => {
    await expect.poll(async () => (await projector.measureLag()).behind, { timeout: 20_000 }).toBe(0);
  };

  beforeAll(async () => {
    registerProjection(probes);
    main = await createTestDatabase(8);
    await ensureReadModels(main.database);
    await inSystem(main.database, (trx) =>
      trx.insertInto('tenant').values({ tenant_id: A, tenant_name: '第一幼儿园' }).execute(),
    );
    for (let i = 0; i < 3; i++) await probe();
  }, 120_000);

  afterAll(async () => {
    unregisterProjection(probes.name);
    for (const e of extra) {
      await e.database.close().catch(() => undefined);
      await adminQuery(`drop database if exists ${e.name} with (force)`).catch(() => undefined);
    }
    await main?.drop();
  });

  it('refuses, nothing moved, while a leading projector has not processed the tenant’s last event', async () => {
    const live = new AsyncProjector(main.database, probes, { idleMs: 20 });
    live.start();
    let release: (() => void) | undefined;
    try {
      await caughtUp(live);
      expect(await tally(main.database)).toBe(3);
      // The leader takes the tenant's next event and stays inside that batch.
      held = holdPoint();
      await probe({ hold: true });
      release = await held.promise;
      const target = await emptyDatabase();
      const router = tenantRouter(main.database);
      const err = (await moveTenant({ router, tenantId: A, to: target, projectionTimeoutMs: 500 }).catch(
        (e: unknown) => e,
      )) as AppError;
      expect(err.messageKey).toBe('datasource.projectionsBehind');
      expect(router.databaseOf(A)).toBe(main.database);
      expect(await tally(target)).toBe(0);
      // Released, the batch commits in the source, where the tenant still is: nothing lost.
      release();
      await caughtUp(live);
      expect(await tally(main.database)).toBe(4);
    } finally {
      release?.();
      await live.stop();
    }
  });

  it('moves once the projection has processed them, every read-model row with it', async () => {
    const live = new AsyncProjector(main.database, probes, { idleMs: 20 });
    live.start();
    try {
      await probe();
      const target = await emptyDatabase();
      const router = tenantRouter(main.database);
      await moveTenant({ router, tenantId: A, to: target });
      expect(router.databaseOf(A)).toBe(target);
      // Every event of the tenant had been processed before the copy: its rows moved with it.
      expect(await tally(target)).toBe(version);
      expect(await tally(main.database)).toBe(0);
    } finally {
      await live.stop();
    }
  });
});
