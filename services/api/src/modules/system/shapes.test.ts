import { describe, expect, it } from 'vitest';
import { AppError } from '@sprout/core/errors';
import { refuseTreeSave, type TreeSaveRules } from './shapes';

type Row = { id: string; parent_id: string; code: string; category: number };
// 1 ─ 2 ─ 3 (2 a button, which takes no children); 4 a root.
const all: Row[] = [
  { id: '1', parent_id: '0', code: 'a', category: 1 },
  { id: '2', parent_id: '1', code: 'b', category: 1 },
  { id: '3', parent_id: '2', code: 'c', category: 2 },
  { id: '4', parent_id: '0', code: 'd', category: 1 },
];
const rules = (code: string): TreeSaveRules<Row> => ({
  parentMissing: 'parent',
  parentOk: (p) => p.category === 1,
  cycle: 'cycle',
  taken: { is: (r) => r.code === code, message: 'taken', params: { code } },
});

/** The message key refuseTreeSave refuses with, or null when it lets the save through. */
function refusal(b: { id?: string | null; parentId: string; code: string }) {
  try {
    refuseTreeSave(all, b, rules(b.code));
    return null;
  } catch (e) {
    return e instanceof AppError ? e.messageKey : String(e);
  }
}

describe('refuseTreeSave', () => {
  it('lets a new root, a new child and an unchanged row through', () => {
    expect(refusal({ parentId: '0', code: 'new' })).toBeNull();
    expect(refusal({ parentId: '2', code: 'new' })).toBeNull();
    expect(refusal({ id: '2', parentId: '1', code: 'b' })).toBeNull();
  });

  it('refuses an unknown id (404), a missing parent, a cycle, a taken value, in that order', () => {
    expect(refusal({ id: '9', parentId: '9', code: 'a' })).toBe('error.notFound');
    expect(refusal({ parentId: '9', code: 'a' })).toBe('parent');
    expect(refusal({ parentId: '3', code: 'new' })).toBe('parent');
    expect(refusal({ id: '1', parentId: '2', code: 'a' })).toBe('cycle');
    expect(refusal({ id: '1', parentId: '1', code: 'new' })).toBe('cycle');
    expect(refusal({ id: '4', parentId: '0', code: 'a' })).toBe('taken');
  });

  it('runs the family’s own parent rule after the parent check', () => {
    const more = (parent: Row | undefined) => {
      if (!parent) throw new AppError('bad_request', 'root');
    };
    expect(() => refuseTreeSave(all, { parentId: '0' }, { ...rules('x'), more })).toThrow('root');
    expect(() => refuseTreeSave(all, { parentId: '9' }, { ...rules('x'), more })).toThrow('parent');
  });
});
