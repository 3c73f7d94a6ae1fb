import { describe, expect, it } from 'vitest';
import { actionBody, actionInitial, type CrudFormAction, rowActions, selectionActions } from './actions';
import { defineCrud } from './define';
import { cellText, filterIcons, iconComponent, iconOf } from './fields';

const setting: CrudFormAction = {
  key: 'setting',
  path: 'setting',
  button: 'tenant_setting',
  label: 't.setting',
  scope: 'selection',
  idParam: 'ids',
  columns: [
    { prop: 'accountNumber', label: 't.accountNumber', type: 'number', initial: -1 },
    { prop: 'expireTime', label: 't.expireTime' },
  ],
};
const datasource: CrudFormAction = { ...setting, key: 'ds', scope: 'row', idParam: 'tenantId', columns: [] };
const def = defineCrud({
  resource: '/blade-system/tenant',
  name: 't.name',
  rowKey: 'tenantId',
  columns: [{ prop: 'tenantName', label: 't.tenantName' }],
  formActions: [setting, datasource],
});

describe('form actions', () => {
  it('splits row buttons from toolbar ones', () => {
    expect(rowActions(def).map((a) => a.key)).toEqual(['ds']);
    expect(selectionActions(def).map((a) => a.key)).toEqual(['setting']);
  });

  it('starts from the one row’s values, else from each field’s initial', () => {
    const row = { tenantId: '100001', accountNumber: 20, expireTime: '2099-12-31 00:00:00' };
    expect(actionInitial(def, setting, [row])).toEqual({ accountNumber: 20, expireTime: '2099-12-31 00:00:00' });
    expect(actionInitial(def, setting, [row, { ...row, tenantId: '100002' }])).toEqual({
      accountNumber: -1,
      expireTime: '',
    });
  });

  it('sends the rows’ ids under its parameter with the trimmed fields, empty numbers left out', () => {
    const rows = [{ tenantId: '100001' }, { tenantId: '100002' }];
    expect(actionBody(def, setting, rows, { accountNumber: 5, expireTime: ' 2030-01-01 ' })).toEqual({
      ids: '100001,100002',
      accountNumber: 5,
      expireTime: '2030-01-01',
    });
    expect(actionBody(def, setting, rows.slice(0, 1), { accountNumber: null, expireTime: '' })).toEqual({
      ids: '100001',
      expireTime: '',
    });
  });
});

describe('icon choices', () => {
  const Dot = () => null;
  const icons = [
    { value: 'iconfont iconicon_setting', name: 'iconicon_setting', keywords: 'Settings', icon: Dot },
    { value: 'iconfont icon-canshu', name: 'icon-canshu', keywords: 'LayoutNavbar', icon: Dot },
  ];

  it('finds icons by name, stored value or keyword, ignoring case; all for no search', () => {
    expect(filterIcons(icons, '').length).toBe(2);
    expect(filterIcons(icons, 'SETTINGS').map((c) => c.name)).toEqual(['iconicon_setting']);
    expect(filterIcons(icons, 'canshu').map((c) => c.name)).toEqual(['icon-canshu']);
    expect(filterIcons(icons, 'nothing')).toEqual([]);
  });

  it('knows the choice of a stored value', () => {
    expect(iconOf(icons, ' iconfont icon-canshu ')?.name).toBe('icon-canshu');
    expect(iconOf(icons, 'Book')).toBeUndefined();
  });
});

describe('cells', () => {
  const Dot = () => null;
  const Other = () => null;
  const column = {
    prop: 'source',
    label: 'm.source',
    type: 'icon' as const,
    icons: [{ value: 'iconfont a', name: 'a', icon: Dot }],
    iconFor: (v: string) => (v === 'Book' ? Other : undefined),
  };

  it('shows a chosen icon, else what the column makes of the value, else nothing', () => {
    expect(iconComponent(column, 'iconfont a')).toBe(Dot);
    expect(iconComponent(column, 'Book')).toBe(Other);
    expect(iconComponent(column, 'x')).toBeUndefined();
    expect(iconComponent(column, '')).toBeUndefined();
  });

  it('shows a localized field in its language when the row has it', () => {
    const name = { prop: 'name', label: 'm.name', localized: { en: 'nameEn' } };
    expect(cellText(name, { name: '菜单管理', nameEn: 'Menus' }, 'en')).toBe('Menus');
    expect(cellText(name, { name: '菜单管理', nameEn: 'Menus' }, 'zh-CN')).toBe('菜单管理');
    expect(cellText(name, { name: '菜单管理', nameEn: ' ' }, 'en')).toBe('菜单管理');
  });
});
