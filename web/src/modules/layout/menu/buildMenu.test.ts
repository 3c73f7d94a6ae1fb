import { describe, expect, it } from 'vitest';
import { buildMenu, leafEntries, leafRoutePath, routeTable, searchMenus } from './buildMenu';
import type { MenuNode } from './types';

const node = (code: string, path: string, extra: Partial<MenuNode> = {}): MenuNode => ({
  id: code,
  code,
  name: code,
  path,
  source: 'File',
  sort: 1,
  category: 1,
  isOpen: 1,
  children: [],
  meta: { i18n: `menu.${code}` },
  ...extra,
});

const tree: MenuNode[] = [
  node('system', '/system', {
    sort: 90,
    children: [
      node('user', '/system/user', { sort: 2 }),
      node('role', '/system/role', { sort: 1, meta: { i18n: 'menu.role', roles: ['administrator'] } }),
    ],
  }),
  node('desk', '/wel', { sort: 1, children: [node('desk_home', '/wel/index')] }),
  node('docs', 'https://docs.example.com/guide', { sort: 50 }),
  node('portal', 'http://portal.example.com', { sort: 51, isOpen: 2 }),
  node('secret', '/secret', { sort: 60, children: [node('s1', '/secret/a', { meta: { roles: ['root'] } })] }),
];

describe('leafRoutePath', () => {
  it('appends /index once', () => {
    expect(leafRoutePath('/system/user')).toBe('/system/user/index');
    expect(leafRoutePath('/system/user/')).toBe('/system/user/index');
    expect(leafRoutePath('/wel/index')).toBe('/wel/index');
  });
});

describe('buildMenu', () => {
  it('sorts, appends /index to leaves and keeps folders as they are', () => {
    const menu = buildMenu(tree, ['administrator']);
    expect(menu.map((m) => m.code)).toEqual(['desk', 'docs', 'portal', 'system']);
    const system = menu.find((m) => m.code === 'system');
    expect(system?.path).toBe('/system');
    expect(system?.children.map((c) => [c.code, c.path])).toEqual([
      ['role', '/system/role/index'],
      ['user', '/system/user/index'],
    ]);
    expect(system?.children[0]?.parents).toEqual(['/system']);
  });

  it('filters by meta.roles and drops folders left empty', () => {
    const menu = buildMenu(tree, ['teacher']);
    const system = menu.find((m) => m.code === 'system');
    expect(system?.children.map((c) => c.code)).toEqual(['user']);
    expect(menu.find((m) => m.code === 'secret')).toBeUndefined();
  });

  it('sends http(s) paths to the iframe route, or a new window when isOpen is 2', () => {
    const menu = buildMenu(tree, []);
    const docs = menu.find((m) => m.code === 'docs');
    expect(docs).toMatchObject({ path: '/myiframe/docs', url: 'https://docs.example.com/guide', newWindow: false });
    expect(menu.find((m) => m.code === 'portal')).toMatchObject({ url: 'http://portal.example.com', newWindow: true });
  });

  it('uses meta.i18n, else menu.<code>, for labels', () => {
    const [entry] = buildMenu([{ ...node('x', '/x'), meta: undefined }]);
    expect(entry?.i18nKey).toBe('menu.x');
  });

  it('survives junk from the server', () => {
    expect(buildMenu(null)).toEqual([]);
    expect(buildMenu([{ id: '1', code: 'a', name: 'A', path: '/a', children: undefined }])[0]?.path).toBe('/a/index');
  });
});

describe('routeTable and searchMenus', () => {
  const menu = buildMenu(tree, ['administrator']);
  it('maps every leaf route to its entry', () => {
    const table = routeTable(menu);
    expect([...table.keys()]).toEqual([
      '/wel/index',
      '/myiframe/docs',
      '/myiframe/portal',
      '/system/role/index',
      '/system/user/index',
    ]);
  });

  it('matches leaf labels by prefix, case-insensitively', () => {
    const labels: Record<string, string> = {
      desk_home: 'Home',
      docs: 'Docs',
      portal: 'Portal',
      role: 'Roles',
      user: 'Users',
    };
    const leaves = leafEntries(menu);
    const label = (e: { code: string }) => labels[e.code] ?? e.code;
    expect(searchMenus(leaves, 'us', label).map((e) => e.code)).toEqual(['user']);
    expect(searchMenus(leaves, 'RO', label).map((e) => e.code)).toEqual(['role']);
    expect(searchMenus(leaves, 'sers', label)).toEqual([]); // prefix, not substring
    expect(searchMenus(leaves, '  ', label)).toHaveLength(5);
  });
});
