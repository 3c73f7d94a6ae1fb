import { AbilityBuilder, createMongoAbility } from '@casl/ability';
import { packRules } from '@casl/ability/extra';
import { describe, expect, it } from 'vitest';
import { abilityFromPacked, collectButtonCodes, isAllowed, splitCode } from './permissions';

describe('collectButtonCodes', () => {
  it('keeps leaf button codes only (not menus without buttons), as a map of code → true', () => {
    const tree = [
      {
        code: 'lesson',
        children: [
          { code: 'week_mine', children: [{ code: 'week_add' }, { code: 'week_edit' }] },
          { code: 'week_trial', children: [{ code: 'week_review' }] },
        ],
      },
      { code: 'notice_add' },
      { code: 'desk_home', category: 1, children: [] },
    ];
    expect(collectButtonCodes(tree, ['user_view'])).toEqual({
      week_add: true,
      week_edit: true,
      week_review: true,
      notice_add: true,
      user_view: true,
    });
    expect(collectButtonCodes(null)).toEqual({});
  });
});

describe('isAllowed', () => {
  it('answers from the button map without rules', () => {
    const state = { buttons: { week_add: true as const }, ability: null };
    expect(isAllowed(state, { code: 'week_add' })).toBe(true);
    expect(isAllowed(state, { action: 'add', subject: 'week' })).toBe(true);
    expect(isAllowed(state, { code: 'week_delete' })).toBe(false);
  });

  it('answers from the packed rules the server sends', () => {
    const { can, rules } = new AbilityBuilder(createMongoAbility);
    can('review', 'week_boss');
    can('add', 'observation');
    const ability = abilityFromPacked(packRules(rules));
    expect(ability).not.toBeNull();
    const state = { buttons: {}, ability };
    expect(isAllowed(state, { code: 'week_boss_review' })).toBe(true);
    expect(isAllowed(state, { action: 'add', subject: 'observation' })).toBe(true);
    expect(isAllowed(state, { code: 'observation_delete' })).toBe(false);
    expect(abilityFromPacked(undefined)).toBeNull();
    expect(abilityFromPacked('nonsense')).toBeNull();
  });

  it('splits codes at the last underscore', () => {
    expect(splitCode('week_boss_edit')).toEqual({ subject: 'week_boss', action: 'edit' });
    expect(splitCode('plain')).toBeNull();
  });
});
