import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Kysely, Migration, MigrationProvider, MigrationResultSet } from 'kysely';
import { Migrator, sql } from 'kysely';

/** The repository's top-level `migrations/` folder. */
export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../migrations');

/** A migration file's name: `<yyyymmdd>_<nnnn>_<name>.ts`. */
const MIGRATION_FILE = /^\d{8}_\d{4}_[a-z0-9_]+\.ts$/;

/**
 * Every folder that holds migrations: the top-level `migrations/`, then each context's own
 * (`services/<pkg>/src/modules/<ctx>/migrations`), found on disk — core never imports a
 * context. Their files run as one list ordered by name, so names are unique across folders.
 */
export function migrationFolders(root: string = MIGRATIONS_DIR): string[] {
  const services = path.resolve(root, '../services');
  const found: string[] = [];
  for (const pkg of existsSync(services) ? readdirSync(services).sort() : []) {
    const modules = path.join(services, pkg, 'src/modules');
    if (!existsSync(modules)) continue;
    for (const ctx of readdirSync(modules).sort()) {
      const folder = path.join(modules, ctx, 'migrations');
      if (existsSync(folder)) found.push(folder);
    }
  }
  return [root, ...found];
}

/** The migration files of `folders` (full paths), ordered by name; a name in two folders throws. */
export function migrationFiles(folders: readonly string[] = migrationFolders()): string[] {
  const byName = new Map<string, string>();
  for (const folder of folders)
    for (const file of readdirSync(folder).filter((f) => MIGRATION_FILE.test(f))) {
      const other = byName.get(file);
      if (other) throw new Error(`migration ${file} is in both ${path.dirname(other)} and ${folder}`);
      byName.set(file, path.join(folder, file));
    }
  return [...byName.keys()].sort().map((name) => byName.get(name) as string);
}

/**
 * Reads `<date>_<seq>_<name>.ts` files from the folders (default: every migration folder).
 * Our own import (not Kysely's FileMigrationProvider) so the TypeScript loader in use (tsx,
 * vitest) handles `.ts`.
 */
export class FolderMigrationProvider implements MigrationProvider {
  private readonly folders: readonly string[];
  constructor(folders: string | readonly string[] = migrationFolders()) {
    this.folders = typeof folders === 'string' ? [folders] : folders;
  }
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const file of migrationFiles(this.folders)) {
      const mod = (await import(pathToFileURL(file).href)) as Migration;
      const name = path.basename(file, '.ts');
      if (typeof mod.up !== 'function') throw new Error(`migration ${name} exports no up()`);
      out[name] = { up: mod.up, down: mod.down };
    }
    return out;
  }
}

let bundled: Record<string, Migration> | undefined;

/**
 * The compiled server (scripts/build-server.mjs) registers every migration it was built with
 * here: it reads no `.ts` file at run time. Same names, same order as the folders.
 */
export function useBundledMigrations(migrations: Record<string, Migration>) {
  bundled = migrations;
}

export function migrator(db: Kysely<unknown>, folders?: string | readonly string[]) {
  const provider: MigrationProvider =
    folders === undefined && bundled
      ? { getMigrations: async () => ({ ...bundled }) }
      : new FolderMigrationProvider(folders ?? migrationFolders());
  return new Migrator({
    db,
    provider,
    migrationTableName: 'kysely_migration',
    migrationLockTableName: 'kysely_migration_lock',
  });
}

/** The names of the migrations this code would run (the bundled ones, else the files'), without importing them. */
function knownMigrationNames(): string[] {
  return bundled ? Object.keys(bundled) : migrationFiles().map((f) => path.basename(f, '.ts'));
}

/** The migrations the database has recorded, or undefined when it has no migration table yet. */
async function recordedMigrations(db: Kysely<unknown>): Promise<Set<string> | undefined> {
  const table = await sql<{ t: string | null }>`select to_regclass('kysely_migration')::text as t`.execute(db);
  if (!table.rows[0]?.t) return undefined;
  const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  return new Set(rows.rows.map((r) => r.name));
}

function check(result: MigrationResultSet, what: string) {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const err = new Error(`${what} failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(result.error)}`);
    (err as Error & { cause?: unknown }).cause = result.error;
    throw err;
  }
  return result.results ?? [];
}

/**
 * Applies what is missing. A rolling upgrade leaves old replicas running (and restarting)
 * beside a newer release whose migrations are applied: when the database holds migrations this
 * code does not know but every migration this code knows is applied, the schema is a newer
 * release's (expand-only, docs/OPERATIONS.md) and there is nothing to do; Kysely alone would
 * refuse to start ("corrupted migrations"). Unknown ones with some of ours missing still fail.
 */
export async function migrateToLatest(db: Kysely<unknown>) {
  // Every migration this code knows is recorded: nothing to do. Read straight from the table,
  // because Kysely's Migrator first reads the columns of every table to see whether its table
  // exists (0.2 s of each embedded start, issue 22's warm start).
  const done = await recordedMigrations(db);
  if (done && knownMigrationNames().every((name) => done.has(name))) return [];
  const m = migrator(db);
  const known = await m.getMigrations();
  if (known.some((x) => !x.executedAt)) return check(await m.migrateToLatest(), 'migration');
  return [];
}

export async function migrateDown(db: Kysely<unknown>) {
  return check(await migrator(db).migrateDown(), 'migration down');
}
