import { describe, expect, it } from 'vitest';
import { type CrudColumn, defineCrud, dictSource, emptyForm, isEditable, listParams, submitBody } from './define';
import {
  childDefinition,
  flattenTree,
  formUnder,
  hasChildren,
  isSealedRow,
  joinValues,
  revealedSecret,
  searchParams,
  SECRET_MASK,
  splitValues,
  treeParams,
} from './relations';

const entries = defineCrud({
  resource: '/blade-system/dict-biz',
  listPath: 'child-list',
  name: 'd.entry',
  title: 'd.entriesOf',
  sealed: 'isSealed',
  buttons: { add: 'dict_biz_add' },
  columns: [
    { prop: 'parentId', label: 'd.parent', type: 'select', hide: true },
    { prop: 'code', label: 'd.code', hide: true },
    { prop: 'dictKey', label: 'd.key', rules: { required: 'd.keyRequired' } },
    { prop: 'dictValue', label: 'd.value', search: true },
  ],
});
const dicts = defineCrud({
  resource: '/blade-system/dict-biz',
  listPath: 'parent-list',
  name: 'd.one',
  sealed: 'isSealed',
  buttons: { add: 'dict_biz_add' },
  children: { definition: entries, param: 'parentId', prefill: { parentId: 'id', code: 'code' }, title: 'dictValue' },
  columns: [{ prop: 'code', label: 'd.code', search: true }],
});
const ethnic = { id: '1866', code: 'ethnic', dictValue: '民族', isSealed: 1 };

describe('the kit’s parent and child tables', () => {
  it('lists a parent’s children with the parent in every call, after the paging', () => {
    const child = childDefinition(dicts, ethnic);
    expect(child.listPath).toBe('child-list');
    expect(listParams(child, { dictValue: ' 汉 ' }, { current: 2, size: 30 })).toEqual({
      parentId: '1866',
      current: 2,
      size: 30,
      dictValue: '汉',
    });
    expect(child.titleValues).toEqual({ name: '民族' });
  });

  it('starts a new child with its parent’s id and code, which it cannot change; the parent select names the parent', () => {
    const child = childDefinition(dicts, ethnic);
    expect(emptyForm(child)).toEqual({ parentId: '1866', code: 'ethnic', dictKey: '', dictValue: '' });
    const parent = child.columns.find((c) => c.prop === 'parentId');
    expect(parent?.editable).toBe(false);
    expect(isEditable(parent as CrudColumn, 'add')).toBe(false);
    expect(isEditable(child.columns.find((c) => c.prop === 'dictKey') as CrudColumn, 'add')).toBe(true);
    expect(parent?.options).toEqual([{ value: '1866', text: '民族' }]);
    expect(child.columns.find((c) => c.prop === 'code')?.options).toBeUndefined();
    expect(submitBody(child, { ...emptyForm(child), dictKey: ' 58 ', dictValue: '测试' })).toEqual({
      parentId: '1866',
      code: 'ethnic',
      dictKey: '58',
      dictValue: '测试',
    });
  });

  it('refuses a definition without children', () => {
    expect(() => childDefinition(entries, ethnic)).toThrow(/no children/);
  });

  it('knows a sealed row (isSealed 1, as a number or a text) only when the definition names the field', () => {
    expect(isSealedRow(dicts, ethnic)).toBe(true);
    expect(isSealedRow(dicts, { ...ethnic, isSealed: '1' })).toBe(true);
    expect(isSealedRow(dicts, { ...ethnic, isSealed: 0 })).toBe(false);
    expect(isSealedRow({ ...dicts, sealed: undefined }, ethnic)).toBe(false);
  });
});

describe('the kit’s lazy tree', () => {
  const regions = defineCrud({
    resource: '/blade-system/region',
    name: 'r.one',
    buttons: {},
    tree: { path: 'lazy-tree', param: 'parentCode', prefill: { parentCode: 'id' } },
    columns: [
      { prop: 'title', label: 'r.title', form: false },
      { prop: 'code', label: 'r.code', hide: true },
      { prop: 'parentCode', label: 'r.parent', hide: true, initial: '00' },
    ],
  });
  const guangdong = { id: '44', title: '广东省', hasChildren: true };

  it('asks for the top level with no parent, a level below with the parent’s code', () => {
    expect(treeParams(regions, null)).toEqual({});
    expect(treeParams(regions, guangdong)).toEqual({ parentCode: '44' });
  });

  it('adds under a row with the row as parent, at the top with the initial parent', () => {
    expect(formUnder(regions, guangdong)).toEqual({ code: '', parentCode: '44' });
    expect(formUnder(regions, null)).toEqual({ code: '', parentCode: '00' });
  });

  it('expands only rows the server says have children', () => {
    expect(hasChildren(guangdong)).toBe(true);
    expect(hasChildren({ ...guangdong, hasChildren: false })).toBe(false);
    expect(hasChildren({ id: '4401' })).toBe(false);
  });
});

describe('the kit’s selects, multi-selects and secrets', () => {
  it('reads a system dictionary by a code, a business one by { code, biz }', () => {
    expect(dictSource('yes_no')).toEqual({ path: '/blade-system/dict/dictionary', code: 'yes_no' });
    expect(dictSource({ code: 'ethnic', biz: true })).toEqual({
      path: '/blade-system/dict-biz/dictionary',
      code: 'ethnic',
    });
    expect(dictSource({ code: 'ethnic' })).toEqual({ path: '/blade-system/dict/dictionary', code: 'ethnic' });
    expect(dictSource(undefined)).toBeNull();
  });

  it('sends several options as one text and reads them back', () => {
    expect(splitValues('password, refresh_token,,')).toEqual(['password', 'refresh_token']);
    expect(splitValues(null)).toEqual([]);
    expect(joinValues(['password', 'captcha', 'password'])).toEqual('password,captcha');
  });

  it('shows a secret only when the answer carries it in plain', () => {
    expect(revealedSecret({ clientSecret: 'x'.repeat(32) }, 'clientSecret')).toBe('x'.repeat(32));
    expect(revealedSecret({ clientSecret: SECRET_MASK }, 'clientSecret')).toBeNull();
    expect(revealedSecret({ clientSecret: '' }, 'clientSecret')).toBeNull();
    expect(revealedSecret(null, 'clientSecret')).toBeNull();
  });
});

describe('a whole tree', () => {
  const roles = [
    { id: '1', roleName: 'a', children: [{ id: '2', roleName: 'b', children: [{ id: '3', roleName: 'c' }] }] },
    { id: '4', roleName: 'd', children: [] },
  ];

  it('shows its rows depth first with their levels, none under a folded row', () => {
    const all = flattenTree(roles, new Set());
    expect(all.map((r) => [r.id, r.__depth, r.__hasChildren])).toEqual([
      ['1', 0, true],
      ['2', 1, true],
      ['3', 2, false],
      ['4', 0, false],
    ]);
    expect(flattenTree(roles, new Set(['2'])).map((r) => r.id)).toEqual(['1', '2', '4']);
    expect(flattenTree(roles, new Set(['1'])).map((r) => r.id)).toEqual(['1', '4']);
  });

  it('sends the search fields that hold something, trimmed, without paging', () => {
    const def = defineCrud({
      code: 'role',
      texts: 'system.role',
      tree: { path: 'list', param: 'parentId', prefill: { parentId: 'id' }, whole: true },
      columns: [{ prop: 'roleName', search: true }, { prop: 'roleAlias', search: true }, { prop: 'sort' }],
    });
    expect(searchParams(def, { roleName: ' 教 ', roleAlias: '', sort: 3 })).toEqual({ roleName: '教' });
  });
});
