#!/usr/bin/env node
// `npm run build:server`: compiles the server once into plain JavaScript (esbuild), so
// production processes start without a TypeScript loader: `node dist/server/main.mjs`
// (every service, SERVICES picks) and `node dist/server/migrate.mjs [up|down|status]`.
// Sprout's own workspaces (@sprout/*) are bundled in; every npm dependency stays an import
// of node_modules. Migrations are compiled in too (listed here as the folders hold them),
// so nothing reads a `.ts` file at run time.
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
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

/** An entry: register the compiled migrations, then run the program. */
function entry(program) {
  const files = migrationFiles();
  const imports = files.map((f, i) => `import * as m${i} from ${JSON.stringify(f)};`).join('\n');
  const table = files.map((f, i) => `${JSON.stringify(basename(f, '.ts'))}: m${i}`).join(',\n  ');
  return `${imports}
import { useBundledMigrations } from '@sprout/core/db/migrate';
useBundledMigrations({
  ${table}
});
await import(${JSON.stringify(program)});
`;
}

const programs = {
  main: join(root, 'services/api/src/main.ts'),
  migrate: join(root, 'scripts/migrate.ts'),
  'projections-rebuild': join(root, 'scripts/projections-rebuild.ts'),
};

const started = Date.now();
await build({
  entryPoints: Object.keys(programs).map((name) => ({ in: `entry:${name}`, out: name })),
  outdir: join(root, 'dist/server'),
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [
    {
      name: 'sprout',
      setup(b) {
        b.onResolve({ filter: /^entry:/ }, (args) => ({ path: args.path.slice(6), namespace: 'entry' }));
        b.onLoad({ filter: /.*/, namespace: 'entry' }, (args) => ({
          contents: entry(programs[args.path]),
          resolveDir: root,
          loader: 'js',
        }));
        // npm packages stay imports of node_modules; only Sprout's workspaces are compiled in.
        b.onResolve({ filter: /^[^./]/ }, (args) => {
          if (args.path.startsWith('@sprout/') || (args.namespace === 'entry' && args.path.startsWith('/')))
            return undefined;
          return { path: args.path, external: true };
        });
      },
    },
  ],
});
console.log(`[sprout] server compiled into dist/server in ${((Date.now() - started) / 1000).toFixed(1)} s`);
