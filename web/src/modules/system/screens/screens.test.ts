import { describe, expect, it } from 'vitest';
import { formColumns, searchColumns, validateForm } from '../../../kit/crud/define';
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

/** The text of a `system.<path>` key in a catalogue, or undefined. */
function text(catalogue: unknown, key: string): unknown {
  const [ns, ...path] = key.split('.');
  if (ns !== 'system') return undefined;
  return path.reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogue);
}

const keysOf = (def: typeof posts) => [
  def.name,
  ...def.columns.flatMap((c) => [
    c.label,
    ...(c.rules?.required ? [c.rules.required] : []),
    ...(c.rules?.pattern ? [c.rules.pattern[1]] : []),
    ...(c.options ?? []).flatMap((o) => (o.label ? [o.label] : [])),
  ]),
];

describe('system screens', () => {
  it.each([
    ['posts', posts],
    ['params', params],
    ['top menus', topMenus],
    ['tenants', tenants],
    ['classes', classes],
    ['children', children],
    ['data scopes', dataScopes],
    ['API scopes', apiScopes],
    ['security log', securityLog],
  ])('%s: every label and message is a text in both languages', (_name, def) => {
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

  it.each([
    ['top menus', topMenus],
    ['tenants', tenants],
    ['classes', classes],
    ['children', children],
    ['data scopes', dataScopes],
    ['API scopes', apiScopes],
    ['security log', securityLog],
  ])('%s: valid — unique fields, a width for most columns, selects with options or a source', (_name, def) => {
    const props = def.columns.map((c) => c.prop);
    expect(new Set(props).size).toBe(props.length);
    expect(def.dialogWidth).toBe(880);
    expect(def.testId).toMatch(/-page$/);
    for (const c of def.columns) {
      if (c.type === 'select') expect(Boolean(c.options?.length || c.optionsFrom || c.dict), c.prop).toBe(true);
    }
    // Every button code is the catalogue's `<menu>_<action>`.
    for (const code of Object.values(def.buttons)) expect(code).toMatch(/^[a-z_]+_(add|edit|delete|view)$/);
  });

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
});
