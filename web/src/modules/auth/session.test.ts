import { beforeEach, describe, expect, it } from 'vitest';
import {
  clearSession,
  isGuestToken,
  readAccessToken,
  readTokenTime,
  rolesOf,
  saveSession,
  userFromToken,
} from './session';

// Minimal in-memory localStorage: the unit project runs in Node.
const memory = new Map<string, string>();
const storage = {
  getItem: (k: string) => memory.get(k) ?? null,
  setItem: (k: string, v: string) => void memory.set(k, v),
  removeItem: (k: string) => void memory.delete(k),
};
Object.assign(globalThis, { window: { localStorage: storage, sessionStorage: storage } });

describe('session', () => {
  beforeEach(() => memory.clear());

  it('stores the token as a record under the prefixed key, dated for the refresh check', () => {
    saveSession(
      { access_token: 'tok', refresh_token: 'ref', tenant_id: '000000', expires_in: 3600 },
      1_700_000_000_000,
    );
    const record = JSON.parse(memory.get('sprout-token') ?? '{}');
    expect(record).toMatchObject({ content: 'tok', type: 'local', dataType: 'string', datetime: 1_700_000_000_000 });
    expect(JSON.parse(memory.get('sprout-refresh-token') ?? '{}').content).toBe('ref');
    expect(JSON.parse(memory.get('sprout-tenant-id') ?? '{}').content).toBe('000000');
    expect(readAccessToken()).toBe('tok');
    expect(readTokenTime()).toBe(1_700_000_000_000);
  });

  it('clears everything it stored and nothing else', () => {
    saveSession({ access_token: 'tok', refresh_token: 'ref' });
    memory.set('sprout-language', 'en');
    clearSession();
    expect(readAccessToken()).toBeNull();
    expect([...memory.keys()]).toEqual(['sprout-language']);
  });

  it('keeps the user info on refresh', () => {
    saveSession({ access_token: 'a', user_name: 'teacher1', nick_name: '王老师', role_name: 'teacher,leader' });
    saveSession({ access_token: 'b' }, Date.now(), true);
    const user = JSON.parse(memory.get('sprout-user-info') ?? '{}').content;
    expect(user.nickName).toBe('王老师');
    expect(rolesOf(user)).toEqual(['teacher', 'leader']);
  });

  it('recognises a guest (no or negative user id)', () => {
    expect(isGuestToken({ access_token: 'x', user_id: '-1' })).toBe(true);
    expect(isGuestToken({ access_token: 'x' })).toBe(true);
    expect(isGuestToken({ access_token: 'x', user_id: '' })).toBe(true);
    expect(isGuestToken({ access_token: 'x', user_id: '1866000000000000001' })).toBe(false);
    expect(userFromToken({ access_token: 'x', user_name: 'a' }).account).toBe('a');
  });
});
