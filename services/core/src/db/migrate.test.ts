import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, migrationFiles, migrationFolders } from './migrate';

describe('migration folders', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** A repository of `files` (path → text) in a fresh temporary folder; answers its `migrations/`. */
  function repo(files: Record<string, string>) {
    const root = mkdtempSync(path.join(tmpdir(), 'sprout-migrations-'));
    made.push(root);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    return path.join(root, 'migrations');
  }

  it('finds the top-level folder and every context’s, and orders their files by name across folders', () => {
    const top = repo({
      'migrations/20260101_0001_core.ts': '',
      'migrations/20260103_0003_more.ts': '',
      'migrations/notes.md': '',
      'services/api/src/modules/param/migrations/20260102_0002_param.ts': '',
      'services/api/src/modules/param/index.ts': '',
      'services/api/src/modules/week/routes.ts': '',
      'services/worker/src/modules/jobs/migrations/20260104_0004_jobs.ts': '',
    });
    const root = path.dirname(top);
    expect(migrationFolders(top)).toEqual([
      top,
      path.join(root, 'services/api/src/modules/param/migrations'),
      path.join(root, 'services/worker/src/modules/jobs/migrations'),
    ]);
    expect(migrationFiles(migrationFolders(top)).map((f) => path.relative(root, f))).toEqual([
      'migrations/20260101_0001_core.ts',
      'services/api/src/modules/param/migrations/20260102_0002_param.ts',
      'migrations/20260103_0003_more.ts',
      'services/worker/src/modules/jobs/migrations/20260104_0004_jobs.ts',
    ]);
  });

  it('refuses one name in two folders', () => {
    const top = repo({
      'migrations/20260101_0001_core.ts': '',
      'services/api/src/modules/a/migrations/20260101_0001_core.ts': '',
    });
    expect(() => migrationFiles(migrationFolders(top))).toThrow(/20260101_0001_core\.ts is in both/);
  });

  it('includes the contexts’ migrations of this repository (the parameter table)', () => {
    expect(migrationFiles().map((f) => path.basename(f))).toContain('20261125_0017_param.ts');
    expect(migrationFolders()[0]).toBe(MIGRATIONS_DIR);
  });
});
