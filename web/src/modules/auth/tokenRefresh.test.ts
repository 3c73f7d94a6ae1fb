import { describe, expect, it, vi } from 'vitest';
import { createTokenRefresher, type RefresherDeps, refreshThreshold } from './tokenRefresh';

/** A shared "localStorage" token time and a shared lock, as two tabs of one browser have. */
function browser(start: number) {
  let now = start;
  let tokenTime: number | null = start;
  let chain: Promise<unknown> = Promise.resolve();
  const refreshCall = vi.fn(async () => {
    await new Promise((r) => setTimeout(r, 5));
    tokenTime = now; // the new token is stored with the current time
    return 'ok' as const;
  });
  const withLock: RefresherDeps['withLock'] = (task) => {
    const run = chain.then(task);
    chain = run.catch(() => undefined);
    return run;
  };
  const tab = (): ReturnType<typeof createTokenRefresher> =>
    createTokenRefresher({
      now: () => now,
      readTokenTime: () => tokenTime,
      readExpiresIn: () => 3600,
      tokenTime: 3000,
      refresh: refreshCall,
      withLock,
      onInvalid: vi.fn(),
    });
  return {
    tab,
    refreshCall,
    advance: (ms: number) => {
      now += ms;
    },
    signOut: () => {
      tokenTime = null;
    },
  };
}

describe('refreshThreshold', () => {
  it('is the configured token time, capped at 5/6 of the token life', () => {
    expect(refreshThreshold(3000, 3600)).toBe(3000);
    expect(refreshThreshold(3000, 600)).toBe(500);
    expect(refreshThreshold(3000)).toBe(3000);
  });
});

describe('createTokenRefresher', () => {
  it('does nothing before the token time and when signed out', async () => {
    const b = browser(0);
    const tab = b.tab();
    b.advance(2_999_000);
    expect(await tab.check()).toBe('not-due');
    b.signOut();
    b.advance(10_000_000);
    expect(await tab.check()).toBe('not-due');
    expect(b.refreshCall).not.toHaveBeenCalled();
  });

  it('refreshes once when due, even if checks overlap (the lock flag)', async () => {
    const b = browser(0);
    const tab = b.tab();
    b.advance(3_000_000);
    const results = await Promise.all([tab.check(), tab.check(), tab.check()]);
    expect(results.filter((r) => r === 'refreshed')).toHaveLength(1);
    expect(results.filter((r) => r === 'busy')).toHaveLength(2);
    expect(b.refreshCall).toHaveBeenCalledTimes(1);
    expect(tab.isRefreshing()).toBe(false);
  });

  it('two tabs sharing the token refresh it once: the second finds it fresh inside the lock', async () => {
    const b = browser(0);
    const one = b.tab();
    const two = b.tab();
    b.advance(3_000_000);
    const [a, c] = await Promise.all([one.check(), two.check()]);
    expect([a, c].sort()).toEqual(['not-due', 'refreshed']);
    expect(b.refreshCall).toHaveBeenCalledTimes(1);
  });

  it('reports a refused refresh token so the session can end', async () => {
    const onInvalid = vi.fn();
    const tab = createTokenRefresher({
      now: () => 5_000_000,
      readTokenTime: () => 0,
      readExpiresIn: () => undefined,
      tokenTime: 3000,
      refresh: async () => 'invalid',
      withLock: (task) => task(),
      onInvalid,
    });
    expect(await tab.check()).toBe('invalid');
    expect(onInvalid).toHaveBeenCalledTimes(1);
  });
});
