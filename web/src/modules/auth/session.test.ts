import { beforeEach, describe, expect, it } from 'vitest';
import { clearSession, readAccessToken, saveSession } from './session';

// Minimal in-memory localStorage: the unit project runs in Node.
const memory = new Map<string, string>();
Object.assign(globalThis, {
  window: {
    localStorage: {
      getItem: (k: string) => memory.get(k) ?? null,
      setItem: (k: string, v: string) => void memory.set(k, v),
      removeItem: (k: string) => void memory.delete(k),
    },
  },
});

describe('session', () => {
  beforeEach(() => memory.clear());

  it('stores the token under the prefixed key sprout-token', () => {
    saveSession({ access_token: 'tok', refresh_token: 'ref', tenant_id: '000000' }, 1_700_000_000_000);
    expect(memory.get('sprout-token')).toBe('tok');
    expect(memory.get('sprout-refresh-token')).toBe('ref');
    expect(memory.get('sprout-tenant-id')).toBe('000000');
    expect(memory.get('sprout-token-time')).toBe('1700000000000');
    expect(readAccessToken()).toBe('tok');
  });

  it('clears everything it stored', () => {
    saveSession({ access_token: 'tok', refresh_token: 'ref' });
    memory.set('sprout-language', 'en');
    clearSession();
    expect(readAccessToken()).toBeNull();
    expect([...memory.keys()]).toEqual(['sprout-language']);
  });
});
