import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, findAll, ROOT, specifiers } from './imports';

const at = (rel: string) => join(ROOT, rel);

describe('the import rules', () => {
  it('hold across the whole tree', () => {
    const { files, imports, findings } = findAll();
    console.log(`import rules: ${files} files, ${imports} imports, ${findings.length} broken`);
    expect(files).toBeGreaterThan(300);
    expect(findings.map((f) => `${f.file}: '${f.spec}' — ${f.rule}`)).toEqual([]);
  });

  it('refuse a deliberately wrong import of each kind', () => {
    // core reaching up into the API
    expect(check(at('services/core/src/db/index.ts'), '@sprout/api/app')).toHaveLength(1);
    // the web app importing a server package
    expect(check(at('web/src/modules/week/api.ts'), '@sprout/collab/week-doc')).toHaveLength(1);
    // one context reaching into another's internals, and the same through its index
    expect(check(at('services/api/src/modules/week/week-routes.ts'), '../system/user-routes')[0]?.rule).toMatch(
      /internals/,
    );
    expect(check(at('services/api/src/modules/week/week-routes.ts'), '../records')).toEqual([]);
    // platform code depending on a context
    expect(check(at('services/api/src/plugins/auth.ts'), '../modules/week/week-routes')[0]?.rule).toMatch(/platform/);
    // a web kit reaching a context (its index or its internals), and a context using the kit
    expect(check(at('web/src/kit/crud/CrudPage.tsx'), '../../modules/layout')[0]?.rule).toMatch(/kit/);
    expect(check(at('web/src/kit/crud/CrudPage.tsx'), '../../modules/week/api')[0]?.rule).toMatch(/kit/);
    expect(check(at('web/src/modules/system/screens/posts.ts'), '../../../kit/crud')).toEqual([]);
    // core importing a record family
    expect(check(at('services/core/src/seed.ts'), './records/families/week')[0]?.rule).toMatch(/family/);
    // contracts stay browser-safe: nothing of Sprout's below them
    expect(check(at('services/contracts/src/index.ts'), '@sprout/core/db')).toHaveLength(1);
  });

  it('reads every form of import', () => {
    const text = [
      "import a from './a';",
      "import type { B } from '../b';",
      "export { c } from './c';",
      "import './d';",
      "const e = await import('./e');",
      'import {\n  f,\n} from "./f";',
    ].join('\n');
    expect(specifiers(text)).toEqual(['./a', '../b', './c', './d', './e', './f']);
  });
});
