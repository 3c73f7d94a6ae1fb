import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PAGE_SIZE,
  defineCrud,
  emptyForm,
  FIRST_PAGE,
  formColumns,
  formOf,
  isEditable,
  joinIds,
  listParams,
  PAGE_SIZES,
  pageSizeOf,
  searchColumns,
  serverFieldProblems,
  sortRecords,
  submitBody,
  tableColumns,
  validateField,
  validateForm,
} from './define';

const def = defineCrud({
  resource: '/blade-system/param/',
  name: 'p.one',
  buttons: { add: 'param_add' },
  columns: [
    { prop: 'paramName', label: 'p.name', search: true, rules: { required: 'p.nameRequired' } },
    { prop: 'paramKey', label: 'p.key', search: true, editable: false, rules: { required: 'p.keyRequired', max: 5 } },
    { prop: 'kind', label: 'p.kind', type: 'select', initial: 3, options: [{ value: 3, label: 'p.three' }] },
    { prop: 'sort', label: 'p.sort', type: 'number' },
    { prop: 'code', label: 'p.code', rules: { pattern: [/^[a-z]+$/, 'p.codeFormat'] } },
    { prop: 'remark', label: 'p.remark', type: 'textarea', hide: true },
    { prop: 'createTime', label: 'p.created', form: false },
  ],
});

describe('defineCrud', () => {
  it('fills the defaults: the 880 dialog (spec §9), the id key, a resource without a trailing slash', () => {
    expect(def.dialogWidth).toBe(880);
    expect(def.rowKey).toBe('id');
    expect(def.resource).toBe('/blade-system/param');
    expect(defineCrud({ resource: '/x', name: 'x', columns: [], buttons: {}, dialogWidth: 600 }).dialogWidth).toBe(600);
  });

  it('derives the table, search and form columns from the definition', () => {
    expect(tableColumns(def).map((c) => c.prop)).toEqual([
      'paramName',
      'paramKey',
      'kind',
      'sort',
      'code',
      'createTime',
    ]);
    expect(searchColumns(def).map((c) => c.prop)).toEqual(['paramName', 'paramKey']);
    expect(formColumns(def).map((c) => c.prop)).toEqual(['paramName', 'paramKey', 'kind', 'sort', 'code', 'remark']);
  });

  it('keeps a field that is not editable read-only when editing and viewing, open when adding', () => {
    const key = def.columns[1];
    const name = def.columns[0];
    if (!key || !name) throw new Error('columns');
    expect([isEditable(key, 'add'), isEditable(key, 'edit'), isEditable(key, 'view')]).toEqual([true, false, false]);
    expect([isEditable(name, 'add'), isEditable(name, 'edit'), isEditable(name, 'view')]).toEqual([true, true, false]);
  });
});

describe('form rules', () => {
  const [name, key, , , code] = def.columns;
  if (!name || !key || !code) throw new Error('columns');

  it('answers the required message of the definition for a blank value', () => {
    for (const blank of ['', '   ', null, undefined])
      expect(validateField(name, blank)).toEqual({ key: 'p.nameRequired' });
    expect(validateField(name, '站点名称')).toBeNull();
  });

  it('checks the length and the pattern only when there is a value', () => {
    expect(validateField(key, 'abcdef')).toEqual({ key: 'crud.validation.max', values: { max: 5 } });
    expect(validateField(key, ' abcde ')).toBeNull();
    expect(validateField(code, '')).toBeNull();
    expect(validateField(code, 'Abc')).toEqual({ key: 'p.codeFormat' });
    expect(validateField(code, 'abc')).toBeNull();
  });

  it('names every broken field of a form, and none of a good one', () => {
    expect(Object.keys(validateForm(def, emptyForm(def)))).toEqual(['paramName', 'paramKey']);
    expect(validateForm(def, { ...emptyForm(def), paramName: 'a', paramKey: 'b' })).toEqual({});
  });

  it('starts a new record from each field’s initial value', () => {
    expect(emptyForm(def)).toEqual({ paramName: '', paramKey: '', kind: 3, sort: null, code: '', remark: '' });
  });

  it('reads a record into the form’s fields only', () => {
    expect(formOf(def, { id: '9', paramName: 'n', sort: 2, createTime: 'x', kind: 1 })).toEqual({
      ...emptyForm(def),
      paramName: 'n',
      sort: 2,
      kind: 1,
    });
  });

  it('sends trimmed values, the id only when editing, and no empty number', () => {
    const values = { ...emptyForm(def), paramName: ' n ', paramKey: 'k' };
    expect(submitBody(def, values)).toEqual({ paramName: 'n', paramKey: 'k', kind: 3, code: '', remark: '' });
    expect(submitBody(def, { ...values, sort: 4 }, '42')).toMatchObject({ id: '42', sort: 4 });
  });

  it('takes the fields the server names (its words), only those of the form', () => {
    const body = {
      fields: [
        { field: 'paramKey', message: '已存在' },
        { field: 'tenantId', message: 'x' },
      ],
    };
    expect(serverFieldProblems(def, body)).toEqual({ paramKey: { text: '已存在' } });
    expect(serverFieldProblems(def, { msg: 'no fields' })).toEqual({});
    expect(serverFieldProblems(def, null)).toEqual({});
  });
});

describe('paging and lists', () => {
  it('offers the spec’s page sizes and starts on page 1 of 10 (spec §9)', () => {
    expect(PAGE_SIZES).toEqual([10, 30, 50, 100, 200]);
    expect(DEFAULT_PAGE_SIZE).toBe(10);
    expect(FIRST_PAGE).toEqual({ current: 1, size: 10 });
    expect(pageSizeOf(30)).toBe(30);
    expect(pageSizeOf(25)).toBe(10);
    expect(pageSizeOf('abc')).toBe(10);
  });

  it('sends paging and the search fields that hold something, trimmed', () => {
    expect(listParams(def, {}, FIRST_PAGE)).toEqual({ current: 1, size: 10 });
    expect(
      listParams(def, { paramName: ' 站 ', paramKey: '  ', remark: 'not a search field' }, { current: 3, size: 50 }),
    ).toEqual({
      current: 3,
      size: 50,
      paramName: '站',
    });
    expect(listParams(def, {}, { current: 0, size: 7 })).toEqual({ current: 1, size: 10 });
  });

  it('joins the selected rows’ ids for remove (spec §7: ids=a,b)', () => {
    expect(joinIds([{ id: '1' }, { id: 22 }, { id: '' }, { name: 'x' }])).toBe('1,22');
    expect(joinIds([{ key: 'a' }, { key: 'b' }], 'key')).toBe('a,b');
    expect(joinIds([])).toBe('');
  });

  it('sorts a page by a column: numbers as numbers, text by the language, blanks last', () => {
    const rows = [
      { n: 10, s: 'b' },
      { n: 9, s: '' },
      { n: 100, s: 'a10' },
      { n: 1, s: 'a9' },
    ];
    expect(sortRecords(rows, 'n', 'asc').map((r) => r.n)).toEqual([1, 9, 10, 100]);
    expect(sortRecords(rows, 'n', 'desc').map((r) => r.n)).toEqual([100, 10, 9, 1]);
    expect(sortRecords(rows, 's', 'asc').map((r) => r.s)).toEqual(['a9', 'a10', 'b', '']);
    expect(sortRecords(rows, 's', 'desc').map((r) => r.s)).toEqual(['b', 'a10', 'a9', '']);
    expect(rows[0]?.n).toBe(10); // the page itself is left as it came
  });
});
