import { describe, expect, it } from 'vitest';
import '@sprout/api/contexts';
import { catalogueMenus, flattenCatalog, TOP_MENUS } from './catalog';

const API_PATTERN = /^(\*|GET|POST|PUT|DELETE|PATCH) \/api\/[A-Za-z0-9_\-/*.:]+$/;

describe('menu catalogue', () => {
  const all = flattenCatalog();

  it('has a unique code for every menu and button', () => {
    const codes = all.map((e) => e.def.code);
    const dupes = codes.filter((c, i) => codes.indexOf(c) !== i);
    expect(dupes).toEqual([]);
  });

  it('names every entry in both languages', () => {
    for (const { def } of all) {
      expect(def.name.trim(), def.code).not.toBe('');
      expect(def.nameEn.trim(), def.code).not.toBe('');
      expect(def.name, def.code).not.toBe(def.nameEn);
    }
  });

  it('gives every menu a unique absolute path', () => {
    const paths = all.filter((e) => e.category === 1).map((e) => (e.def as { path: string }).path);
    expect(paths.every((p) => p.startsWith('/'))).toBe(true);
    expect(paths.filter((p, i) => paths.indexOf(p) !== i)).toEqual([]);
  });

  it('writes API scopes as METHOD /api/... patterns', () => {
    for (const { def } of all) for (const a of def.api ?? []) expect(a, def.code).toMatch(API_PATTERN);
  });

  it('puts only existing root menus under top menus', () => {
    const roots = new Set(catalogueMenus().map((m) => m.code));
    for (const t of TOP_MENUS) for (const m of t.menus) expect(roots.has(m), `${t.code} → ${m}`).toBe(true);
  });

  it('has the button codes other issues rely on', () => {
    const codes = new Set(all.map((e) => e.def.code));
    for (const c of [
      'week_add',
      'week_review',
      'week_submit',
      'observation_excellent',
      'work_todo_handle',
      'user_add',
      'role_grant',
    ])
      expect(codes.has(c), c).toBe(true);
  });
});
