// The import rules of the house (docs/ARCHITECTURE.md "Layers that point one way"): which
// package may import which, and that a context reaches another only through its index.ts.
// Read as text (every `import … from`, `export … from`, `import(…)` and bare `import '…'`),
// so the check needs no compiler and runs in a second.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

/** Where a file sits: its package, and for feature code its context. */
export interface Place {
  pkg: 'contracts' | 'core' | 'api' | 'collab' | 'worker' | 'web' | 'other';
  /** `services/api/src/modules/<ctx>/` or `web/src/modules/<ctx>/`. */
  context?: string;
  /** The context's own index.ts (its public face). */
  isIndex?: boolean;
  /** Under core's record families (a family's code, which core itself must never import). */
  family?: boolean;
  test: boolean;
}

const PACKAGES = ['contracts', 'core', 'api', 'collab', 'worker'] as const;

export function placeOf(path: string): Place {
  const rel = relative(ROOT, path).split('\\').join('/');
  const test = /\.(test|int\.test|e2e\.test|property\.int\.test)\.tsx?$/.test(rel) || /\/testing(\.ts|\/)/.test(rel);
  for (const pkg of PACKAGES) {
    if (!rel.startsWith(`services/${pkg}/`)) continue;
    const m = pkg === 'api' ? /^services\/api\/src\/modules\/([^/]+)\/(.*)$/.exec(rel) : null;
    return {
      pkg,
      test,
      ...(m ? { context: m[1], isIndex: m[2] === 'index.ts' } : {}),
      ...(pkg === 'core' && rel.startsWith('services/core/src/records/families/') ? { family: true } : {}),
    };
  }
  if (rel.startsWith('web/')) {
    const m = /^web\/src\/modules\/([^/]+)\/(.*)$/.exec(rel);
    return { pkg: 'web', test, ...(m ? { context: m[1], isIndex: /^index\.tsx?$/.test(m[2] as string) } : {}) };
  }
  return { pkg: 'other', test };
}

const isWebKit = (path: string) => relative(ROOT, path).split('\\').join('/').startsWith('web/src/kit/');

/** Which packages each package may import (besides itself). */
const MAY_IMPORT: Record<Place['pkg'], ReadonlyArray<Place['pkg']>> = {
  contracts: [],
  core: ['contracts'],
  collab: ['core', 'contracts'],
  worker: ['core', 'contracts'],
  // The API process assembles the others (main.ts starts collab and the worker).
  api: ['core', 'contracts', 'collab', 'worker'],
  web: ['contracts'],
  other: ['contracts', 'core', 'api', 'collab', 'worker', 'web', 'other'],
};

const SPEC = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

/** The module specifiers a source text imports. */
export function specifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SPEC)) out.push(m[1] as string);
  return out;
}

/** The file a specifier names, as a path under ROOT (without checking it exists), or null for a package outside Sprout. */
export function target(from: string, spec: string): string | null {
  if (spec.startsWith('.')) return resolve(dirname(from), spec);
  const m = /^@sprout\/([^/]+)(?:\/(.*))?$/.exec(spec);
  if (!m) return null;
  const base = m[1] === 'web' ? join(ROOT, 'web/src') : join(ROOT, 'services', m[1] as string, 'src');
  return m[2] ? join(base, m[2]) : join(base, 'index.ts');
}

/** A broken rule: the importing file, the specifier, and why. */
export interface Finding {
  file: string;
  spec: string;
  rule: string;
}

/** The rules one import breaks (none when it is allowed). */
export function check(from: string, spec: string): Finding[] {
  const to = target(from, spec);
  if (!to) return [];
  const a = placeOf(from);
  const b = placeOf(to.endsWith('.ts') || to.endsWith('.tsx') ? to : `${to}.ts`);
  const bIndex = placeOf(join(to, 'index.ts'));
  const found: Finding[] = [];
  const file = relative(ROOT, from);
  // Tests may assemble anything (a collab test serves the whole app); shipped code may not.
  if (!a.test && a.pkg !== b.pkg && !MAY_IMPORT[a.pkg].includes(b.pkg)) {
    found.push({ file, spec, rule: `${a.pkg} may not import ${b.pkg} (layers point one way)` });
  }
  if (a.pkg === 'core' && !a.family && b.family) {
    found.push({
      file,
      spec,
      rule: 'core never imports a record family (the family registers itself through its context)',
    });
  }
  // A context reaches another only through that context's index.ts (its manifest and public API).
  const other = b.context ?? bIndex.context;
  if (!a.test && a.context && other && other !== a.context && !(b.isIndex || bIndex.isIndex)) {
    found.push({ file, spec, rule: `context ${a.context} imports ${other}'s internals (use modules/${other}/index)` });
  }
  // The web kits (`web/src/kit/`) are platform: contexts build on them, they know no context.
  if (!a.test && isWebKit(from) && other) {
    found.push({ file, spec, rule: `the web kit imports context ${other} (contexts import kits, never the reverse)` });
  }
  // Platform code (plugins, shared HTTP helpers, routes) never depends on a feature context.
  if (!a.test && a.pkg === 'api' && !a.context && other && !/services\/api\/src\/(contexts|app|main)\.ts$/.test(from)) {
    found.push({ file, spec, rule: `platform code imports context ${other} (only the assembly list may)` });
  }
  return found;
}

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Every finding in the tree: services/*, web/src, and what scripts, bench and tests import. */
export function findAll(): { files: number; imports: number; findings: Finding[] } {
  const roots = [join(ROOT, 'services'), join(ROOT, 'web/src')];
  const files = roots.flatMap((r) => sources(r));
  let imports = 0;
  const findings: Finding[] = [];
  for (const f of files) {
    for (const spec of specifiers(readFileSync(f, 'utf8'))) {
      imports++;
      findings.push(...check(f, spec));
    }
  }
  return { files: files.length, imports, findings };
}
