import { describe, expect, it, vi } from 'vitest';
import { createInactivityWatch } from './inactivity';

describe('createInactivityWatch', () => {
  it('fires only when the gap between clicks exceeds the limit', () => {
    let now = 0;
    const onExpired = vi.fn();
    const watch = createInactivityWatch({ limitMs: 7_200_000, now: () => now, onExpired });
    now = 7_200_000;
    expect(watch.click()).toBe(false); // exactly the limit is not "more than"
    now += 7_200_001;
    expect(watch.click()).toBe(true);
    now += 1000;
    expect(watch.click()).toBe(false);
    expect(onExpired).toHaveBeenCalledTimes(1);
  });
});
