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

/** Creates and migrates the template once per run (vitest globalSetup). */
/** Runs one statement on the test server's admin connection (create or drop a second database, a role …). */
export async function adminQuery(q: string): Promise<void> {
  await admin((c) => c.query(q));
}

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
  const template = await ensureTemplate();
  const name = `sprout_t_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  for (let i = 0; ; i++) {
    try {
      await admin((c) => c.query(`create database ${name} template ${template}`));
      break;
    } catch (err) {
      // Another file cloning the template at the same instant: try again shortly.
      if (i >= 20 || !/being accessed by other users/.test(String(err))) throw err;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  const url = withDatabase(await testPostgresUrl(), name);
  const database = await openDatabase({ url, poolSize });
  return {
    url,
    name,
    database,
    async drop() {
      await database.close();
      await admin((c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}
