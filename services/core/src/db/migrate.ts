import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Kysely, Migration, MigrationProvider, MigrationResultSet } from 'kysely';
import { Migrator } from 'kysely';

/** The repository's top-level `migrations/` folder. */
export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../migrations');

/**
 * Reads `<date>_<seq>_<name>.ts` files from the folder. Our own import (not Kysely's
 * FileMigrationProvider) so the TypeScript loader in use (tsx, vitest) handles `.ts`.
 */
export class FolderMigrationProvider implements MigrationProvider {
  constructor(private readonly folder: string) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    const files = (await readdir(this.folder)).filter((f) => /^\d{8}_\d{4}_[a-z0-9_]+\.ts$/.test(f)).sort();
    for (const file of files) {
      const mod = (await import(pathToFileURL(path.join(this.folder, file)).href)) as Migration;
      if (typeof mod.up !== 'function') throw new Error(`migration ${file} exports no up()`);
      out[file.replace(/\.ts$/, '')] = { up: mod.up, down: mod.down };
    }
    return out;
  }
}

export function migrator(db: Kysely<unknown>, folder = MIGRATIONS_DIR) {
  return new Migrator({
    db,
    provider: new FolderMigrationProvider(folder),
    migrationTableName: 'kysely_migration',
    migrationLockTableName: 'kysely_migration_lock',
  });
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

export async function migrateToLatest(db: Kysely<unknown>) {
  return check(await migrator(db).migrateToLatest(), 'migration');
}

export async function migrateDown(db: Kysely<unknown>) {
  return check(await migrator(db).migrateDown(), 'migration down');
}
