import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../db';
import { migrateToLatest, migrationFiles } from '../db/migrate';
import { testPostgresUrl } from './services';

/** The template database name changes whenever a migration file (of any migration folder) changes. */
export function templateName(): string {
  const h = createHash('sha256');
  for (const f of migrationFiles()) h.update(basename(f)).update(readFileSync(f));
  return `sprout_tpl_${h.digest('hex').slice(0, 12)}`;
}

function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: await testPostgresUrl() });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Runs one statement on the test server's admin connection (create or drop a second database, a role …). */
export async function adminQuery(q: string): Promise<void> {
  await admin((c) => c.query(q));
}

/** The URL of a database on the test server. */
export async function testDatabaseUrl(name: string): Promise<string> {
  return withDatabase(await testPostgresUrl(), name);
}

/**
 * A copy of `template` on the test server (`create database … template …`, a file copy well
 * under a second), named `prefix` and a unique tail. Files cloning the same template at the
 * same instant are refused by PostgreSQL ("being accessed by other users"): it tries again.
 */
export async function cloneDatabase(
  template: string,
  prefix = 'sprout_t',
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  for (let i = 0; ; i++) {
    try {
      await adminQuery(`create database ${name} template ${template}`);
      break;
    } catch (err) {
      if (i >= 30 || !/being accessed by other users/.test(String(err))) throw err;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  return {
    name,
    url: await testDatabaseUrl(name),
    drop: () => adminQuery(`drop database if exists ${name} with (force)`),
  };
}

/** Creates and migrates the template once per run (vitest globalSetup). */
export async function ensureTemplate(): Promise<string> {
  const name = templateName();
  const base = await testPostgresUrl();
  const exists = await admin(
    async (c) => (await c.query('select 1 from pg_database where datname = $1', [name])).rowCount,
  );
  if (!exists) {
    const building = `${name}_build_${randomBytes(3).toString('hex')}`;
    await admin((c) => c.query(`create database ${building}`));
    const database = await openDatabase({ url: withDatabase(base, building), poolSize: 2 });
    try {
      await migrateToLatest(database.db as never);
    } finally {
      await database.close();
    }
    // Rename into place; a concurrent run that won the race leaves ours to drop.
    await admin(async (c) => {
      try {
        await c.query(`alter database ${building} rename to ${name}`);
      } catch {
        await c.query(`drop database if exists ${building}`);
      }
    });
  }
  return name;
}

export interface TestDatabase {
  url: string;
  name: string;
  database: Database;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file, cloned from the template. */
export async function createTestDatabase(poolSize = 5): Promise<TestDatabase> {
  const { name, url, drop } = await cloneDatabase(await ensureTemplate());
  const database = await openDatabase({ url, poolSize });
  return {
    url,
    name,
    database,
    async drop() {
      await database.close();
      await drop();
    },
  };
}

/** An empty database on the test server (a school group's new data source); the caller drops it by name. */
export async function emptyTestDatabase(poolSize = 4): Promise<{ name: string; database: Database }> {
  const name = `sprout_ds_${randomBytes(4).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const database = await openDatabase({ url: await testDatabaseUrl(name), poolSize });
  return { name, database };
}
