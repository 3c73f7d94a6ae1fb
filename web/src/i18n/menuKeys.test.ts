import { describe, expect, it } from 'vitest';
import '../../../services/api/src/contexts';
import { catalogueMenus, type MenuDef, TOP_MENUS } from '../../../services/core/src/permissions/catalog';
import { en } from './locales/en';
import { zhCN } from './locales/zh-CN';

function codes(menus: MenuDef[]): string[] {
  return menus.flatMap((m) => [m.code, ...codes(m.children ?? [])]);
}

describe('menu labels', () => {
  it('exist in both languages for every catalogue menu and top menu (menu.<code>)', () => {
    const all = [...codes(catalogueMenus()), ...TOP_MENUS.map((t) => t.code)];
    const zh = zhCN.menu as Record<string, string>;
    const english = en.menu as Record<string, string>;
    expect(all.filter((code) => !zh[code])).toEqual([]);
    expect(all.filter((code) => !english[code])).toEqual([]);
  });
});
