import { describe, expect, it } from 'vitest';
import { hashPassword, md5, verifyPassword } from './password';

/** ASVS 2.4 (docs/SECURITY.md V2): how a password is stored. */
describe('password storage', () => {
  it('stores argon2id with at least OWASP’s parameters (19 MiB, 2 passes), salted, and verifies only the same value', async () => {
    const value = md5('sprout123');
    const a = await hashPassword(value);
    const b = await hashPassword(value);
    const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(a);
    expect(m, a).not.toBeNull();
    expect(Number(m?.[1])).toBeGreaterThanOrEqual(19456);
    expect(Number(m?.[2])).toBeGreaterThanOrEqual(2);
    expect(a).not.toBe(b); // a salt of its own each time
    expect(a).not.toContain(value);
    expect(await verifyPassword(a, value)).toBe(true);
    expect(await verifyPassword(a, md5('sprout124'))).toBe(false);
  });
});
