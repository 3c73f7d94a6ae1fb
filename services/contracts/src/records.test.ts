import { describe, expect, it } from 'vitest';
import { DOC_NAME_PATTERN, docNameOf, parseDocName } from './doc-name';
import { EDITABLE_STATUSES, isEditableStatus, mayWrite, RECORD_STATUSES } from './records';

describe('the edit rule', () => {
  it('lets the authors write a draft or a returned record, never one in review or approved', () => {
    expect(RECORD_STATUSES.filter(isEditableStatus)).toEqual([...EDITABLE_STATUSES]);
    expect(isEditableStatus('deleted')).toBe(false);
  });

  it('needs the update scope, an author or the class team, and the button, all at once', () => {
    const all = { update: true, author: true, team: false };
    expect(mayWrite('draft', all, true)).toBe(true);
    expect(mayWrite('returned', { update: true, author: false, team: true }, true)).toBe(true);
    expect(mayWrite('trial', all, true)).toBe(false);
    expect(mayWrite('draft', { ...all, update: false }, true)).toBe(false);
    expect(mayWrite('draft', { update: true, author: false, team: false }, true)).toBe(false);
    expect(mayWrite('draft', all, false)).toBe(false);
  });
});

describe('the collab document name', () => {
  it('is built and read back by one pair', () => {
    expect(docNameOf('week', '123')).toBe('week:123');
    expect(parseDocName(docNameOf('week', '9'.repeat(19)))).toEqual({ kind: 'week', id: '9'.repeat(19) });
  });

  it('refuses anything else', () => {
    for (const bad of [`week:${'9'.repeat(20)}`, 'week:', 'week:12a', 'plan:1', ' week:1', 'week:1\n', 42, null])
      expect(parseDocName(bad), String(bad)).toBeNull();
    expect(DOC_NAME_PATTERN.test('week:1')).toBe(true);
  });
});
