import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { dropSeededDatabase, type SeededDatabase, seedDatabase } from '../helpers/seeded';
import { startSprout } from '../helpers/server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A data directory Sprout has migrated and seeded once this run (startE2E copies it). */
    seededDataDir: string;
    /** A PostgreSQL database Sprout has migrated and seeded once this run (startE2E clones it); absent without a server. */
    seededDatabase: SeededDatabase | undefined;
  }
}

const ROOT = resolve(import.meta.dirname, '../..');
let dir: string | undefined;
let database: SeededDatabase | undefined;

/**
 * Once per run: a server started on a fresh data directory migrates and seeds it, then stops;
 * the same on a fresh PostgreSQL database when a server is reachable. Each browser test file
 * starts its own server on a copy (a clone of the database, else a copy of the directory),
 * skipping the migrations and the demo seed (about half of a server's start).
 */
export async function setup(project: TestProject) {
  // The browser tests run the compiled server, as production does (scripts/build-server.mjs).
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-server.mjs')], { stdio: 'inherit' });
  const [server, seeded] = await Promise.all([startSprout(), seedDatabase()]);
  await server.stop('SIGTERM');
  dir = server.dataDir;
  database = seeded;
  project.provide('seededDataDir', dir);
  project.provide('seededDatabase', database);
}

export async function teardown() {
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (database) await dropSeededDatabase(database);
}
