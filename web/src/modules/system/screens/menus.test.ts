import { describe, expect, it } from 'vitest';
import { actionBody, actionInitial } from '../../../kit/crud/actions';
import { formColumns, searchColumns, validateForm } from '../../../kit/crud/define';
import { formUnder, searchParams, treeParams } from '../../../kit/crud/relations';
import { menuIcon } from '../../layout';
import { menus } from './menus';
import { tenants } from './tenants';

describe('menus screen', () => {
  it('reads the catalogue one level at a time, searches the whole tree, buttons by menu code', () => {
    expect(menus.resource).toBe('/blade-system/menu');
    expect(menus.buttons).toEqual({ add: 'menu_add', edit: 'menu_edit', delete: 'menu_delete', view: 'menu_view' });
    expect(menus.tree).toMatchObject({ path: 'lazy-list', param: 'parentId', search: 'list' });
    expect(treeParams(menus, { id: '7' })).toEqual({ parentId: '7' });
    expect(searchColumns(menus).map((c) => c.prop)).toEqual(['name', 'code', 'alias', 'category']);
    expect(searchParams(menus, { name: ' 菜单 ', code: '', category: 2 })).toEqual({ name: '菜单', category: '2' });
  });

  it('has the fields the server takes; a new row under a menu is a menu of it', () => {
    expect(formColumns(menus).map((c) => c.prop)).toEqual([
      'name',
      'nameEn',
      'code',
      'alias',
      'path',
      'source',
      'category',
      'action',
      'sort',
      'isOpen',
      'parentId',
      'remark',
    ]);
    expect(formUnder(menus, { id: '7' })).toMatchObject({ parentId: '7', category: 1, sort: 0, isOpen: 1, action: 0 });
    const good = { name: '测试', code: 'e2e_menu', category: 1, sort: 1 };
    expect(validateForm(menus, good)).toEqual({});
    expect(Object.keys(validateForm(menus, { ...good, code: '1bad' }))).toEqual(['code']);
    expect(Object.keys(validateForm(menus, { ...good, name: '' }))).toEqual(['name']);
  });

  it('picks icons by BladeX name, each shown as the menu shows it; buttons have their own badge', () => {
    const source = menus.columns.find((c) => c.prop === 'source');
    expect(source?.type).toBe('icon');
    expect(source?.icons?.length).toBeGreaterThan(20);
    for (const c of source?.icons ?? []) {
      expect(c.value).toMatch(/^iconfont \S+$/);
      expect(menuIcon(c.value)).toBe(c.icon);
    }
    const category = menus.columns.find((c) => c.prop === 'category');
    expect(category?.badges?.['2']).not.toBe(category?.badges?.['1']);
  });
});

describe('tenants: licence settings and data source', () => {
  const [setting, datasource] = tenants.formActions ?? [];

  it('sets the licence of the selected tenants (ids), the one tenant’s values first', () => {
    expect(setting).toMatchObject({ path: 'setting', button: 'tenant_setting', scope: 'selection', idParam: 'ids' });
    const row = { tenantId: '100001', accountNumber: -1, expireTime: '' };
    expect(actionInitial(tenants, setting as never, [row])).toEqual({ accountNumber: -1, expireTime: '' });
    expect(
      actionBody(tenants, setting as never, [row, { tenantId: '100002' }], {
        accountNumber: 30,
        expireTime: '2030-01-01',
      }),
    ).toEqual({ ids: '100001,100002', accountNumber: 30, expireTime: '2030-01-01' });
  });

  it('binds one tenant’s data source by id (empty unbinds)', () => {
    expect(datasource).toMatchObject({
      path: 'datasource',
      button: 'tenant_datasource',
      scope: 'row',
      idParam: 'tenantId',
    });
    expect(actionBody(tenants, datasource as never, [{ tenantId: '100001' }], { datasourceId: null })).toEqual({
      tenantId: '100001',
    });
  });
});
