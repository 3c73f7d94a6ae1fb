import { describe, expect, it } from 'vitest';
import { actionShows, defineCrud, formColumns, submitBody, validateForm } from './define';
import { revealedSecret, sideNodes, sideParams, treeNodes } from './relations';
import { rowButtonCount } from './RowButtons';

const def = defineCrud({
  code: 'user',
  texts: 'system.user',
  side: { url: '/blade-system/dept/tree', param: 'deptId', value: 'id', label: 'title', all: 'x.all' },
  actions: [
    { key: 'reset', path: 'reset-password', param: 'userIds', button: 'b', label: 'l', confirm: 'c', batch: 'only' },
    {
      key: 'off',
      path: 'update-status',
      param: 'userIds',
      params: { status: 0 },
      when: { status: 1 },
      button: 'b',
      label: 'l',
      confirm: 'c',
    },
    {
      key: 'on',
      path: 'update-status',
      param: 'userIds',
      params: { status: 1 },
      when: { status: 0 },
      button: 'b',
      label: 'l',
      confirm: 'c',
    },
  ],
  columns: [
    { prop: 'account', rules: { required: true } },
    { prop: 'password', type: 'password', addOnly: true, rules: { required: true } },
    { prop: 'sex', type: 'select', options: [{ value: 1 }, { value: 2 }] },
  ],
});

describe('the kit: side trees', () => {
  const answer = [{ id: 1, title: '园', children: [{ id: 2, title: '小班组' }, { title: 'no id' }] }];
  it('reads a tree answer as nodes', () => {
    expect(treeNodes(answer, 'id', 'title')).toEqual([
      { value: '1', label: '园', children: [{ value: '2', label: '小班组', children: [] }] },
    ]);
    expect(sideNodes(def.side as NonNullable<typeof def.side>, null)).toEqual([]);
  });
  it('lists a chosen node’s rows, the root everyone', () => {
    expect(sideParams(def.side, '2')).toEqual({ deptId: '2' });
    expect(sideParams(def.side, null)).toEqual({});
    expect(sideParams(undefined, '2')).toEqual({});
  });
});

describe('the kit: actions with parameters and conditions', () => {
  it('shows an action only on rows it fits', () => {
    const [, off, on] = def.actions ?? [];
    expect(off && actionShows(off, { status: 1 })).toBe(true);
    expect(off && actionShows(off, { status: '0' })).toBe(false);
    expect(on && actionShows(on, { status: 0 })).toBe(true);
  });
  it('counts enable / disable as one place and toolbar-only actions as none', () => {
    // view, edit, delete + one status button + one page button
    expect(rowButtonCount(def, false, 1)).toBe(5);
  });
  it('reveals one secret, or one line per row of a list', () => {
    expect(revealedSecret([{ account: 'a', password: 'p1' }], 'password', 'account')).toBe('p1');
    expect(
      revealedSecret(
        [
          { account: 'a', password: 'p1' },
          { account: 'b', password: 'p2' },
        ],
        'password',
        'account',
      ),
    ).toBe('a: p1\nb: p2');
    expect(revealedSecret([], 'password')).toBeNull();
  });
});

describe('the kit: add-only fields and selects of numbers', () => {
  it('asks a first password when adding only', () => {
    expect(formColumns(def, 'add').map((c) => c.prop)).toContain('password');
    expect(formColumns(def, 'edit').map((c) => c.prop)).not.toContain('password');
    expect(Object.keys(validateForm(def, { account: 'a', password: '' }, 'edit'))).toEqual([]);
    expect(Object.keys(validateForm(def, { account: 'a', password: '' }, 'add'))).toEqual(['password']);
  });
  it('never sends the password when editing, nor an unchosen select of numbers', () => {
    expect(submitBody(def, { account: 'a', password: 'x', sex: '' }, '9')).toEqual({ id: '9', account: 'a' });
    expect(submitBody(def, { account: 'a', password: 'x', sex: 2 })).toEqual({ account: 'a', password: 'x', sex: 2 });
  });
});
