#!/usr/bin/env node
// `npm run build:server`: compiles the server once into plain JavaScript (esbuild), so
// production processes start without a TypeScript loader: `node dist/server/main.mjs`
// (every service, SERVICES picks) and `node dist/server/migrate.mjs [up|down|status]`.
// Sprout's own workspaces (@sprout/*) are bundled in; every npm dependency stays an import
// of node_modules. Migrations are compiled in too (listed here as the folders hold them),
// so nothing reads a `.ts` file at run time.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const MIGRATION_FILE = /^\d{8}_\d{4}_[a-z0-9_]+\.ts$/;

/** Every migration file: `migrations/`, then each context's `modules/<ctx>/migrations` (as core's migrate.ts finds them). */
function migrationFiles() {
  const folders = [join(root, 'migrations')];
  for (const pkg of readdirSync(join(root, 'services')).sort()) {
    const modules = join(root, 'services', pkg, 'src/modules');
    if (!existsSync(modules)) continue;
    for (const ctx of readdirSync(modules).sort()) {
      const folder = join(modules, ctx, 'migrations');
      if (existsSync(folder)) folders.push(folder);
    }
  }
  const files = folders.flatMap((f) =>
    readdirSync(f)
      .filter((n) => MIGRATION_FILE.test(n))
      .map((n) => join(f, n)),
  );
  return files.sort((a, b) => (basename(a) < basename(b) ? -1 : basename(a) > basename(b) ? 1 : 0));
}

/**
 * An entry: Node's compile cache on (V8's compiled code kept between starts: 0.15–0.3 s of a
 * warm start, issue 22), then the program. Everything else loads after that, dynamically.
 */
function entry(name) {
  return `import module from 'node:module';
// NODE_COMPILE_CACHE names the folder; else the system's temporary folder. Where none can be
// written the start is only slower.
module.enableCompileCache?.();
await import(${JSON.stringify(`program:${name}`)});
`;
}

/** A program: register the compiled migrations, then run it. */
function program(path) {
  const files = migrationFiles();
  const imports = files.map((f, i) => `import * as m${i} from ${JSON.stringify(f)};`).join('\n');
  const table = files.map((f, i) => `${JSON.stringify(basename(f, '.ts'))}: m${i}`).join(',\n  ');
  return `${imports}
import { useBundledMigrations } from '@sprout/core/db/migrate';
useBundledMigrations({
  ${table}
});
await import(${JSON.stringify(path)});
`;
}

/**
 * npm packages compiled into the bundle: pure ESM split into hundreds of small files that Node
 * otherwise finds and reads one by one at every start (kysely alone: 0.14 s of a warm start,
 * issue 22). Only a package no other external package imports: a second copy would break
 * `instanceof` across them.
 */
const COMPILED_IN = new Set(['kysely']);

const programs = {
  main: join(root, 'services/api/src/main.ts'),
  migrate: join(root, 'scripts/migrate.ts'),
  'projections-rebuild': join(root, 'scripts/projections-rebuild.ts'),
};

const started = Date.now();
const outdir = join(root, 'dist/server');
const result = await build({
  entryPoints: Object.keys(programs).map((name) => ({ in: `entry:${name}`, out: name })),
  outdir,
  // Written below, file by file, so that a server running from dist/server keeps working.
  write: false,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  // A dynamic import (`await import('./bullmq')`) becomes its own chunk, loaded when it runs: without
  // splitting, the npm packages it imports would load at every start (bullmq and ioredis in
  // embedded mode).
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  target: 'node22',
  sourcemap: 'linked',
  // Stack traces need the mappings, not the sources: a third of the size, parsed at every start.
  sourcesContent: false,
  logLevel: 'warning',
  plugins: [
    {
      name: 'sprout',
      setup(b) {
        b.onResolve({ filter: /^entry:/ }, (args) => ({ path: args.path.slice(6), namespace: 'entry' }));
        b.onLoad({ filter: /.*/, namespace: 'entry' }, (args) => ({
          contents: entry(args.path),
          resolveDir: root,
          loader: 'js',
        }));
        b.onResolve({ filter: /^program:/ }, (args) => ({ path: args.path.slice(8), namespace: 'program' }));
        b.onLoad({ filter: /.*/, namespace: 'program' }, (args) => ({
          contents: program(programs[args.path]),
          resolveDir: root,
          loader: 'js',
        }));
        // npm packages stay imports of node_modules; only Sprout's workspaces are compiled in, and
        // the packages in COMPILED_IN.
        b.onResolve({ filter: /^[^./]/ }, (args) => {
          if (args.path.startsWith('@sprout/') || (args.namespace === 'program' && args.path.startsWith('/')))
            return undefined;
          if (COMPILED_IN.has(args.path.split('/')[0])) return undefined;
          return { path: args.path, external: true };
        });
      },
    },
  ],
});
/**
 * A server already running from dist/server (an `npm start` while the tests build) imports its
 * chunks lazily, by their hashed names: a build must neither delete them nor let it read a
 * half-written file. So each output is written beside and renamed into place (unchanged ones
 * are left alone), and a chunk no longer built is removed only once it is a week old.
 */
const written = new Set();
let changed = 0;
for (const file of result.outputFiles) {
  written.add(file.path);
  if (existsSync(file.path) && Buffer.compare(readFileSync(file.path), file.contents) === 0) continue;
  mkdirSync(dirname(file.path), { recursive: true });
  const tmp = `${file.path}.${process.pid}.tmp`;
  writeFileSync(tmp, file.contents);
  renameSync(tmp, file.path);
  changed++;
}
// The programs carry the build's time, unchanged or not: `npm start` compiles when a source is newer.
const now = new Date();
for (const name of Object.keys(programs)) utimesSync(join(outdir, `${name}.mjs`), now, now);
const WEEK_MS = 7 * 24 * 3600 * 1000;
for (const name of readdirSync(join(outdir, 'chunks'))) {
  const path = join(outdir, 'chunks', name);
  if (!written.has(path) && Date.now() - statSync(path).mtimeMs > WEEK_MS) rmSync(path, { force: true });
}
console.log(
  `[sprout] server compiled into dist/server in ${((Date.now() - started) / 1000).toFixed(1)} s (${changed} of ${written.size} files changed)`,
);
