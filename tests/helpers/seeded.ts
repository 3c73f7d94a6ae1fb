import { randomBytes } from 'node:crypto';
import { adminQuery, cloneDatabase, testDatabaseUrl } from '@sprout/core/testing/pg';
import { testPostgresUrl } from '@sprout/core/testing/services';
import { startSprout } from './server';

/**
 * Browser tests on PostgreSQL (server mode, as production runs): the run migrates and seeds one
 * database (tests/setup/e2e-global.ts) and every test file's server runs on a clone of it.
 * A clone is a file copy inside PostgreSQL (`create database … template …`), well under a
 * second; the native server answers the screens at a fraction of the CPU the embedded
 * WebAssembly PostgreSQL spends, which is what a 2-core CI machine runs out of.
 */
export interface SeededDatabase {
  /** The seeded database every clone copies. */
  name: string;
  /** What every server on a clone is started with, besides its DATABASE_URL. */
  env: Record<string, string>;
}

/** Server mode as the embedded default behaves: the demo data, the public API docs; no Redis (jobs in the process). */
const SERVER_ENV = {
  JWT_SECRET: 'sprout-e2e-jwt-secret-0123456789abcdef0123456789',
  DEMO_SEED: 'true',
  API_DOCS_PUBLIC: 'true',
};

/** Migrates and seeds a fresh database with a real Sprout process; undefined when no PostgreSQL answers. */
export async function seedDatabase(): Promise<SeededDatabase | undefined> {
  const name = `sprout_e2e_seed_${randomBytes(4).toString('hex')}`;
  try {
    await adminQuery(`create database ${name}`);
  } catch (err) {
    console.warn(
      `[e2e] no PostgreSQL at ${await testPostgresUrl()} (${(err as Error).message}): browser tests run embedded`,
    );
    return undefined;
  }
  const server = await startSprout({ ...SERVER_ENV, DATABASE_URL: await testDatabaseUrl(name) });
  await server.stop('SIGTERM');
  return { name, env: SERVER_ENV };
}

export async function dropSeededDatabase(seeded: SeededDatabase): Promise<void> {
  await adminQuery(`drop database if exists ${seeded.name} with (force)`);
}

/** A clone of the seeded database for one server: the env to start it with, and how to drop it. */
export async function cloneSeeded(
  seeded: SeededDatabase,
): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const { url, drop } = await cloneDatabase(seeded.name, 'sprout_e2e');
  return { env: { ...seeded.env, DATABASE_URL: url }, drop };
}
