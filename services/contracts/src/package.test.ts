import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The package stays browser-safe: the web app bundles it. */
const dir = new URL('.', import.meta.url);
const sources = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
const importsOf = (file: string) =>
  [...readFileSync(new URL(file, dir), 'utf8').matchAll(/^(import|export)\s+(type\s+)?[^'"]*from\s+'([^']+)'/gm)].map(
    (m) => ({ module: m[3] as string, typeOnly: Boolean(m[2]) }),
  );

describe('@sprout/contracts', () => {
  it('depends on zod and yjs only', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', dir), 'utf8')) as { dependencies: object };
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['yjs', 'zod']);
  });

  it('imports nothing but its own modules, zod and yjs (no node:, no database, no server)', () => {
    for (const file of sources)
      for (const { module } of importsOf(file))
        expect(module.startsWith('./') || module === 'zod' || module === 'yjs', `${file}: ${module}`).toBe(true);
  });

  it('keeps zod out of the modules the browser loads at runtime', () => {
    const runtime = ['doc-name', 'records', 'rich-sanitize', 'rich-text', 'week-api', 'week-doc', 'week-fields'];
    const reach = (file: string, seen = new Set<string>()): Set<string> => {
      for (const { module, typeOnly } of importsOf(file))
        if (!typeOnly && !seen.has(module)) {
          seen.add(module);
          if (module.startsWith('./')) reach(`${module.slice(2)}.ts`, seen);
        }
      return seen;
    };
    for (const file of runtime) expect([...reach(`${file}.ts`)], file).not.toContain('zod');
  });
});
