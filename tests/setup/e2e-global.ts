import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startSprout } from '../helpers/server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A data directory Sprout has migrated and seeded once this run (startE2E copies it). */
    seededDataDir: string;
  }
}

const ROOT = resolve(import.meta.dirname, '../..');
let dir: string | undefined;

/**
 * Once per run: a server started on a fresh data directory migrates and seeds it, then stops.
 * Each browser test file starts its own server on a copy, skipping the migrations and the demo
 * seed (about half of a server's start).
 */
export async function setup(project: TestProject) {
  // The browser tests run the compiled server, as production does (scripts/build-server.mjs).
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-server.mjs')], { stdio: 'inherit' });
  const server = await startSprout();
  await server.stop('SIGTERM');
  dir = server.dataDir;
  project.provide('seededDataDir', dir);
}

export async function teardown() {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
