import { describe, expect, it } from 'vitest';
import { colorOf, fieldOfTestId, PEER_COLORS, pathOfField, peersOf, testIdOfField, transformIndex } from './presence';

describe('presence', () => {
  it('names fields by the editor’s test ids, both ways', () => {
    expect(fieldOfTestId('week-theme')).toBe('theme');
    expect(fieldOfTestId('day-cell-2-morning')).toBe('days.2.morning');
    expect(fieldOfTestId('week-weeklyGoals')).toBe('weeklyGoals');
    expect(fieldOfTestId('day-cell-2-nope')).toBeNull();
    expect(fieldOfTestId('week-editor')).toBeNull();
    expect(testIdOfField('theme')).toBe('week-theme');
    expect(testIdOfField('days.4.notes')).toBe('day-cell-4-notes');
    expect(testIdOfField('weeklyGoals')).toBeNull(); // rich fields show carets
    expect(pathOfField('days.4.notes')).toEqual(['days', 4, 'notes']);
  });

  it('gives each user a stable 6-digit colour', () => {
    expect(colorOf('1001')).toBe(colorOf('1001'));
    expect(PEER_COLORS).toContain(colorOf('1001'));
    for (const c of PEER_COLORS) expect(c).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('moves a caret through another person’s edit', () => {
    // "abcdef", caret at 3 (after c)
    expect(transformIndex(3, [{ insert: 'XY' }])).toBe(5); // typed before
    expect(transformIndex(3, [{ retain: 4 }, { insert: 'XY' }])).toBe(3); // typed after
    expect(transformIndex(3, [{ retain: 3 }, { insert: 'XY' }])).toBe(3); // typed at the caret: stays before
    expect(transformIndex(3, [{ delete: 2 }])).toBe(1);
    expect(transformIndex(3, [{ retain: 2 }, { delete: 3 }])).toBe(2); // the deletion spans the caret
    expect(transformIndex(3, [{ retain: 1 }, { delete: 1 }, { insert: 'ZZZ' }])).toBe(5);
  });

  it('lists one entry per user, this tab first', () => {
    const states = new Map<number, { user?: { id: string; name: string; color: string }; field?: unknown }>([
      [7, { user: { id: 'u2', name: '刘洋', color: '#e8590c' }, field: 'days.1.regional' }],
      [3, { user: { id: 'u1', name: '王芳', color: '#1c7ed6' }, field: null }],
      [9, { user: { id: 'u2', name: '刘洋', color: '#e8590c' }, field: null }], // her second tab
      [11, {}], // no user yet
    ]);
    expect(peersOf(states, 3, 'u1')).toEqual([
      { user: { id: 'u1', name: '王芳', color: '#1c7ed6' }, self: true, field: null },
      { user: { id: 'u2', name: '刘洋', color: '#e8590c' }, self: false, field: 'days.1.regional' },
    ]);
  });
});
