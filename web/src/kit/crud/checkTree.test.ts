import { describe, expect, it } from 'vitest';
import {
  type CheckTreeNode,
  idsToSend,
  indexTree,
  initialChecked,
  stateOf,
  toCheckTree,
  toggleNode,
} from './checkTree';

// system ─┬─ role ─┬─ role_add
//         │        └─ role_grant
//         └─ post
// desk
const tree: CheckTreeNode[] = toCheckTree([
  {
    id: 'system',
    title: '系统管理',
    children: [
      { id: 'role', title: '角色', children: [{ id: 'role_add', title: '新增' }, { id: 'role_grant' }] },
      { id: 'post', title: '岗位', children: [] },
    ],
  },
  { id: 'desk', title: '工作台' },
]);
const index = indexTree(tree);
const states = (checked: string[], mode: 'grant' | 'subtree') =>
  Object.fromEntries(index.order.map((v) => [v, stateOf(index, new Set(checked), v, mode)]));

describe('check tree data', () => {
  it('takes the server’s nodes as Mantine’s (children only where there are some, the id when untitled)', () => {
    expect(tree[0]?.label).toBe('系统管理');
    expect(tree[0]?.children?.[1]).toEqual({ value: 'post', label: '岗位' });
    expect(tree[0]?.children?.[0]?.children?.[1]).toEqual({ value: 'role_grant', label: 'role_grant' });
    expect(toCheckTree(null)).toEqual([]);
    expect(index.order).toEqual(['system', 'role', 'role_add', 'role_grant', 'post', 'desk']);
  });

  it('grant: a role holding a menu but none of its buttons shows it half-checked and keeps it', () => {
    const held = initialChecked(index, ['system', 'role', 'gone'], 'grant');
    expect(held).toEqual(['system', 'role']);
    expect(states(held, 'grant')).toMatchObject({ system: 'mixed', role: 'mixed', role_add: 'unchecked' });
    expect(idsToSend(index, held, 'grant')).toEqual(['system', 'role']);
  });

  it('grant: checking a node checks its subtree and the nodes above; the half-checked ones are sent', () => {
    const one = toggleNode(index, [], 'role_add', 'grant');
    expect(one).toEqual(['system', 'role', 'role_add']);
    expect(states(one, 'grant')).toMatchObject({ system: 'mixed', role: 'mixed', role_add: 'checked' });
    const all = toggleNode(index, one, 'system', 'grant');
    expect(all).toEqual(['system', 'role', 'role_add', 'role_grant', 'post']);
    expect(stateOf(index, new Set(all), 'system', 'grant')).toBe('checked');
  });

  it('grant: unchecking clears the subtree and the nodes above left with nothing under them', () => {
    const one = toggleNode(index, [], 'role_add', 'grant');
    expect(toggleNode(index, one, 'role_add', 'grant')).toEqual([]);
    const two = toggleNode(index, toggleNode(index, one, 'post', 'grant'), 'role_add', 'grant');
    expect(two).toEqual(['system', 'post']);
    expect(toggleNode(index, ['system', 'role', 'role_add', 'role_grant', 'post'], 'system', 'grant')).toEqual([]);
  });

  it('subtree: a held top-menu menu brings its subtree; a parent is whole when its leaves are', () => {
    const held = initialChecked(index, ['role'], 'subtree');
    expect(held).toEqual(['role', 'role_add', 'role_grant']);
    expect(states(held, 'subtree')).toMatchObject({ system: 'mixed', role: 'checked' });
    expect(idsToSend(index, held, 'subtree')).toEqual(['role', 'role_add', 'role_grant']);
    // Checking the last leaf makes the parent whole (it is sent).
    expect(idsToSend(index, toggleNode(index, held, 'post', 'subtree'), 'subtree')).toEqual([
      'system',
      'role',
      'role_add',
      'role_grant',
      'post',
    ]);
  });

  it('subtree: unchecking a leaf leaves its parents no longer whole (never sent)', () => {
    const all = initialChecked(index, ['system'], 'subtree');
    const less = toggleNode(index, all, 'role_add', 'subtree');
    expect(less).toEqual(['role_grant', 'post']);
    expect(idsToSend(index, less, 'subtree')).toEqual(['role_grant', 'post']);
  });
});
