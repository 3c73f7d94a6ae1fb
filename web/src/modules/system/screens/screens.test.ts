import { describe, expect, it } from 'vitest';
import { type CrudDefinition, formColumns, searchColumns, validateForm } from '../../../kit/crud/define';
import { childDefinition, formUnder, treeParams } from '../../../kit/crud/relations';
import { en } from '../i18n/en';
import { zhCN } from '../i18n/zh-CN';
import { children } from './children';
import { classes } from './classes';
import { params } from './params';
import { posts } from './posts';
import { apiScopes, dataScopes } from './scopes';
import { securityLog } from './securityLog';
import { tenants } from './tenants';
import { topMenus } from './topMenus';
import { clients, GRANT_TYPES } from './clients';
import { bizDicts, bizDictsVertical, systemDicts } from './dicts';
import { regions } from './regions';
import { depts } from './depts';
import { roles } from './roles';
import { menus } from './menus';

/** The text of a `system.<path>` key in a catalogue, or undefined. */
function text(catalogue: unknown, key: string): unknown {
  const [ns, ...path] = key.split('.');
  if (ns !== 'system') return undefined;
  return path.reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogue);
}

const keysOf = (def: CrudDefinition): string[] => [
  def.name,
  ...(def.title ? [def.title] : []),
  ...(def.actions ?? []).flatMap((a) => [a.label, a.confirm]),
  ...(def.children ? keysOf(def.children.definition) : []),
  ...(def.formActions ?? []).flatMap((a) => [a.label, ...keysOf({ ...def, formActions: [], columns: a.columns })]),
  ...def.columns.flatMap((c) => [
    c.label,
    ...(c.rules?.required ? [c.rules.required] : []),
    ...(c.rules?.pattern ? [c.rules.pattern[1]] : []),
    ...(c.options ?? []).flatMap((o) => (o.label ? [o.label] : [])),
  ]),
];

/** Every screen of the system context, by name. */
const SCREENS = {
  posts,
  params,
  'top menus': topMenus,
  tenants,
  classes,
  children,
  'data scopes': dataScopes,
  'API scopes': apiScopes,
  'security log': securityLog,
  'system dictionaries': systemDicts,
  'business dictionaries': bizDicts,
  regions,
  depts,
  clients,
  roles,
  menus,
};

describe('system screens', () => {
  it.each(Object.entries(SCREENS))('%s: every label and message is a text in both languages', (_name, def) => {
    for (const key of keysOf(def)) {
      expect(typeof text(zhCN, key), key).toBe('string');
      expect(typeof text(en, key), key).toBe('string');
    }
  });

  it('parameters: the spec’s fields, searches and required messages (spec §3, §5)', () => {
    expect(params.resource).toBe('/blade-system/param');
    expect(formColumns(params).map((c) => c.prop)).toEqual(['paramName', 'paramKey', 'paramValue', 'remark']);
    expect(searchColumns(params).map((c) => c.prop)).toEqual(['paramName', 'paramKey']);
    expect(params.columns.find((c) => c.prop === 'paramValue')?.type).toBe('textarea');
    const problems = validateForm(params, { paramName: '', paramKey: ' ', paramValue: null, remark: '' });
    expect(Object.values(problems).map((p) => text(zhCN, p.key ?? ''))).toEqual([
      '请输入参数名称',
      '请输入参数键名',
      '请输入参数键值',
    ]);
    expect(params.dialogWidth).toBe(880);
  });

  it('posts: the API’s fields, a category select, the code as the server accepts it', () => {
    expect(posts.resource).toBe('/blade-system/post');
    expect(formColumns(posts).map((c) => c.prop)).toEqual(['category', 'postCode', 'postName', 'sort', 'remark']);
    const category = posts.columns.find((c) => c.prop === 'category');
    expect(category?.type).toBe('select');
    expect(category?.options?.map((o) => o.value)).toEqual([1, 2, 3, 4]);
    const good = { category: 3, postCode: 'head_teacher', postName: '班主任', sort: 1, remark: '' };
    expect(validateForm(posts, good)).toEqual({});
    expect(Object.keys(validateForm(posts, { ...good, postCode: '1abc' }))).toEqual(['postCode']);
  });

  it.each(Object.entries(SCREENS))(
    '%s: valid — unique fields, a width for most columns, selects with options or a source',
    (_name, def) => {
      const props = def.columns.map((c) => c.prop);
      expect(new Set(props).size).toBe(props.length);
      expect(def.dialogWidth).toBe(880);
      expect(def.testId).toMatch(/-page$/);
      for (const c of def.columns) {
        if (c.type === 'select') expect(Boolean(c.options?.length || c.optionsFrom || c.dict), c.prop).toBe(true);
      }
      // Every button code is the catalogue's `<menu>_<action>`.
      for (const code of Object.values(def.buttons)) expect(code).toMatch(/^[a-z_]+_(add|edit|delete|view)$/);
    },
  );

  it('children: the API’s own call names, the class a select, required fields', () => {
    expect(children.resource).toBe('/student/student');
    expect(children.paths).toEqual({
      list: 'listStudents',
      submit: 'saveStudent',
      update: 'updateStudent',
      remove: 'removeStudent',
    });
    expect(children.columns.find((c) => c.prop === 'classId')?.optionsFrom?.url).toBe('/clazz/classinfo/list');
    const problems = validateForm(children, { name: '', gender: null, classId: '', guardianPhone: '123' });
    expect(Object.keys(problems).sort()).toEqual(['classId', 'gender', 'guardianPhone', 'name']);
  });

  it('classes: a school year as the server takes it; the teachers kept on edit', () => {
    const good = {
      name: '小一班',
      grade: 2,
      schoolYear: '2025-2026',
      deptId: '',
      room: '',
      capacity: null,
      remark: '',
    };
    expect(validateForm(classes, good)).toEqual({});
    expect(Object.keys(validateForm(classes, { ...good, schoolYear: '2025' }))).toEqual(['schoolYear']);
    expect(classes.keep).toEqual(['headTeacherId', 'teacherIds', 'caregiverId']);
  });

  it('tenants: keyed by tenantId, the server gives it; quota and expiry in the form', () => {
    expect(tenants.rowKey).toBe('tenantId');
    expect(formColumns(tenants).map((c) => c.prop)).not.toContain('tenantId');
    expect(formColumns(tenants).map((c) => c.prop)).toEqual(
      expect.arrayContaining(['accountNumber', 'expireTime', 'domain']),
    );
    const good = { tenantName: '新园', accountNumber: -1, expireTime: '2027-01-01 00:00:00', domain: 'a.example.com' };
    expect(validateForm(tenants, good)).toEqual({});
    expect(Object.keys(validateForm(tenants, { ...good, expireTime: '2027/1/1' }))).toEqual(['expireTime']);
  });

  it('security log: read only (no buttons), filters the API takes', () => {
    expect(securityLog.buttons).toEqual({});
    expect(searchColumns(securityLog).map((c) => c.prop)).toEqual(['event', 'result', 'account', 'ip']);
  });

  it('scopes: listed and filed by menu', () => {
    for (const def of [dataScopes, apiScopes]) {
      expect(searchColumns(def)[0]?.prop).toBe('menuId');
      expect(formColumns(def)[0]?.rules?.required).toBe('system.scope.rules.menuId');
    }
    expect(validateForm(apiScopes, { menuId: '1', scopeName: 'x', scopePath: 'GET /api/x/**', scopeType: 2 })).toEqual(
      {},
    );
  });

  it('dictionaries: the spec’s parent and child columns and messages (§2, §5), both layouts', () => {
    expect(systemDicts.resource).toBe('/blade-system/dict');
    expect(bizDicts.resource).toBe('/blade-system/dict-biz');
    expect(bizDicts.listPath).toBe('parent-list');
    expect(Object.values(bizDicts.buttons)).toEqual([
      'dict_biz_add',
      'dict_biz_edit',
      'dict_biz_delete',
      'dict_biz_view',
    ]);
    expect(systemDicts.buttons.add).toBe('dict_add');
    expect(bizDicts.children?.layout).toBe('horizontal');
    expect(bizDictsVertical.children?.layout).toBe('vertical');
    expect(bizDicts.sealed).toBe('isSealed');
    expect(bizDicts.dialogWidth).toBe(880);
    expect(formColumns(bizDicts).map((c) => c.prop)).toEqual(['code', 'dictValue', 'sort', 'isSealed', 'remark']);
    const problems = validateForm(bizDicts, { code: '', dictValue: '', sort: null, isSealed: null });
    expect(Object.values(problems).map((p) => text(zhCN, p.key ?? ''))).toEqual([
      '请输入字典编号',
      '请输入字典名称',
      '请输入字典排序',
      '请选择封存',
    ]);
    const child = childDefinition(bizDicts, { id: '7', code: 'ethnic', dictValue: '民族' });
    expect(child.listPath).toBe('child-list');
    expect(formColumns(child).map((c) => c.prop)).toEqual([
      'parentId',
      'code',
      'dictKey',
      'dictValue',
      'sort',
      'isSealed',
      'remark',
    ]);
    expect(child.columns.filter((c) => c.editable === false).map((c) => c.prop)).toEqual(['parentId', 'code']);
    expect(
      validateForm(child, { parentId: '7', code: 'ethnic', dictKey: '', dictValue: 'x', sort: 1, isSealed: 0 }),
    ).toEqual({ dictKey: { key: 'system.dict.rules.dictKey' } });
  });

  it('regions: a lazy tree by parentCode, adding under a row', () => {
    expect(regions.tree).toEqual({ path: 'lazy-tree', param: 'parentCode', prefill: { parentCode: 'id' } });
    expect(formColumns(regions).map((c) => c.prop)).toEqual(['code', 'name', 'parentCode', 'sort', 'remark']);
    expect(Object.keys(validateForm(regions, { code: '4', name: 'x', parentCode: '44' }))).toEqual(['code']);
  });

  it('depts: a lazy tree by parentId, a child under a row, the top level without a parent', () => {
    expect(depts.resource).toBe('/blade-system/dept');
    expect(depts.buttons).toEqual({ add: 'dept_add', edit: 'dept_edit', delete: 'dept_delete', view: 'dept_view' });
    expect(depts.tree).toEqual({ path: 'lazy-list', param: 'parentId', prefill: { parentId: 'id' } });
    expect(treeParams(depts, null)).toEqual({});
    expect(treeParams(depts, { id: '12', deptName: '保教部' })).toEqual({ parentId: '12' });
    expect(formUnder(depts, { id: '12', deptName: '保教部' })).toMatchObject({
      parentId: '12',
      deptCategory: 3,
      sort: 0,
    });
    expect(formUnder(depts, null).parentId).toBe('');
    expect(formColumns(depts).map((c) => c.prop)).toEqual([
      'deptName',
      'fullName',
      'deptCategory',
      'sort',
      'parentId',
      'remark',
    ]);
    expect(validateForm(depts, { deptName: ' ', deptCategory: 3, sort: 0 })).toEqual({
      deptName: { key: 'system.dept.rules.deptName' },
    });
  });

  it('clients: the seven grant types as a multi-select, the secret shown once on add and on reset', () => {
    const grants = clients.columns.find((c) => c.prop === 'authorizedGrantTypes');
    expect(grants?.type).toBe('multiselect');
    expect(grants?.options?.map((o) => o.value)).toEqual([...GRANT_TYPES]);
    expect(clients.revealOnAdd).toEqual({ prop: 'clientSecret', title: 'clientId' });
    expect(clients.actions?.map((a) => [a.path, a.button, a.reveals])).toEqual([
      ['reset-secret', 'client_secret', 'clientSecret'],
    ]);
    const good = {
      clientId: 'e2e_app',
      clientSecret: '',
      authorizedGrantTypes: 'password,refresh_token',
      scope: 'all',
      accessTokenValidity: 3600,
      refreshTokenValidity: 604800,
    };
    expect(validateForm(clients, good)).toEqual({});
    expect(validateForm(clients, { ...good, clientSecret: '******' })).toEqual({});
    expect(Object.keys(validateForm(clients, { ...good, clientSecret: 'short' }))).toEqual(['clientSecret']);
  });

  it('roles: the whole tree from role/list, searched by name and alias, a role under a row', () => {
    expect(roles.resource).toBe('/blade-system/role');
    expect(roles.buttons).toEqual({ add: 'role_add', edit: 'role_edit', delete: 'role_delete', view: 'role_view' });
    expect(roles.tree).toMatchObject({ path: 'list', whole: true, prefill: { parentId: 'id' } });
    expect(searchColumns(roles).map((c) => c.prop)).toEqual(['roleName', 'roleAlias']);
    expect(formUnder(roles, { id: '7', roleName: '教师' })).toMatchObject({ parentId: '7', sort: 0 });
    expect(Object.keys(validateForm(roles, { roleName: '', roleAlias: '9x', sort: 0 }))).toEqual([
      'roleName',
      'roleAlias',
    ]);
    // The grant dialogs' texts, in both languages.
    for (const key of [
      'role.grant.button',
      'role.grant.title',
      'role.grant.menu',
      'role.grant.dataScope',
      'role.grant.apiScope',
      'topmenu.grant.button',
      'topmenu.grant.title',
      'topmenu.grant.menu',
    ]) {
      expect(typeof text(zhCN, `system.${key}`), key).toBe('string');
      expect(typeof text(en, `system.${key}`), key).toBe('string');
    }
  });
});
