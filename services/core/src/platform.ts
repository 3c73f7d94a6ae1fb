import type { Config } from './config';
import { type FleetRoutes, startFleet } from './datasource/fleet';
import { bindDataSources, closeDataSources } from './datasource/sources';
import { type Database, databaseOptions, openDatabase } from './db';
import { migrateToLatest } from './db/migrate';
import { setIdNode } from './ids';
import { keyWrapperFromConfig, rewrapSecrets, setKeyWrapper } from './keys';
import { type KeyValueStore, openKeyValueStore } from './kv';
import { openQueue } from './queue';
import type { JobQueue } from './queue/types';
import { seed } from './seed';

export interface Platform {
  config: Config;
  database: Database;
  queue: JobQueue;
  /** Shared short-lived state (captcha codes, lockouts, revocations, caches): Redis or memory. */
  kv: KeyValueStore;
  close(): Promise<void>;
}

/** Opens the database and the queue, migrates and seeds: what every service process needs. */
export async function openPlatform(config: Config, log: (msg: string) => void = () => {}): Promise<Platform> {
  if (config.ID_NODE !== undefined) setIdNode(config.ID_NODE);
  // Stored secrets (erasure keys, provider client secrets) are wrapped under MASTER_KEY.
  setKeyWrapper(keyWrapperFromConfig(config));
  const database = await openDatabase({
    ...databaseOptions(config),
    onIdleError: (err) => log(`database: an idle connection was dropped (${err.message}); reconnecting on demand`),
  });
  let queue: JobQueue | undefined;
  let kv: KeyValueStore | undefined;
  let fleet: FleetRoutes | undefined;
  try {
    log(`database: ${database.dialect === 'pg' ? 'PostgreSQL' : `PGlite (${config.DATA_DIR})`}`);
    // Start-up work is not a request: migrations (and a replica waiting on their lock) may take
    // longer than DATABASE_STATEMENT_TIMEOUT_MS, so on PostgreSQL it runs on a connection of its
    // own without the request bounds. PGlite is one connection with no other caller yet.
    const setup =
      database.dialect === 'pg'
        ? await openDatabase({
            ...databaseOptions(config),
            // Behind a transaction-mode pooler the start-up work runs on the direct connection.
            url: config.DATABASE_SESSION_URL ?? config.DATABASE_URL,
            sessionUrl: undefined,
            poolSize: 1,
            waitTimeoutMs: 0,
            statementTimeoutMs: 0,
          })
        : database;
    try {
      const applied = await migrateToLatest(setup.db as never);
      if (applied.length) log(`migrations applied: ${applied.map((m) => m.migrationName).join(', ')}`);
      const { created } = await seed(setup, { demo: config.DEMO_SEED });
      if (created.length) log(`seeded: ${created.join(', ')}`);
      // Secrets stored unwrapped (before migration 0015) or under a previous master key.
      const rewrapped = await rewrapSecrets(setup);
      if (rewrapped.subjectKeys || rewrapped.providerSecrets)
        log(
          `secrets wrapped under the master key: ${rewrapped.subjectKeys} erasure keys, ${rewrapped.providerSecrets} provider secrets`,
        );
      if (rewrapped.unreadable)
        log(
          `secrets no configured master key unwraps: ${rewrapped.unreadable} (set MASTER_KEY_PREVIOUS to the key they were wrapped under)`,
        );
    } finally {
      if (setup !== database) await setup.close();
    }
    kv = await openKeyValueStore(config);
    // Every process joins the fleet's gate before it reads the bindings (issue 21): a move
    // under way now finds its gate closed, and one that ends later makes it read them again.
    fleet = await startFleet(database, kv, { openOptions: databaseOptions(config), log });
    // Tenants bound to their own databases (issue 21): each migrated, mirrored and routed.
    const { down } = await bindDataSources(database, databaseOptions(config), log);
    if (down.length) log(`tenants refused until their data source is reachable: ${down.join(', ')}`);
    fleet.ready();
    queue = await openQueue(config);
    log(`queue: ${queue.kind === 'bullmq' ? 'BullMQ (Redis)' : 'in-process'}`);
  } catch (err) {
    await fleet?.stop().catch(() => undefined);
    await kv?.close().catch(() => undefined);
    await queue?.close().catch(() => undefined);
    await closeDataSources(database).catch(() => undefined);
    await database.close().catch(() => undefined);
    throw err;
  }
  const q = queue;
  const store = kv;
  const member = fleet;
  return {
    config,
    database,
    queue: q,
    kv: store,
    async close() {
      await member.stop().catch(() => undefined);
      await q.close().catch(() => undefined);
      await store.close().catch(() => undefined);
      await closeDataSources(database);
      await database.close();
    },
  };
}
