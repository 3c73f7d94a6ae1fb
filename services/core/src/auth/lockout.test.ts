import { afterAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../kv';
import { LoginThrottle } from './lockout';
import { TtlLru } from './lru';
import { parseBasic } from './clients';

describe('LoginThrottle', () => {
  let now = 1_000_000;
  const kv = new MemoryStore(() => now);
  afterAll(async () => {
    await kv.close();
  });
  const throttle = new LoginThrottle(kv, {
    captchaAfter: 3,
    accountCaptchaAfter: 6,
    addressLimit: 8,
    windowMs: 60_000,
  });
  const fails = async (n: number, tenant: string, account: string, ip: string) => {
    const reached = [];
    for (let i = 0; i < n; i++) reached.push((await throttle.fail(tenant, account, ip)).reached);
    return reached;
  };

  it('asks the account from one address for a captcha after 3 failures, never locking it, and a success there clears them', async () => {
    expect(await fails(2, '100001', 'Teacher1', '10.0.0.1')).toEqual([null, null]);
    const two = await throttle.check('100001', 'teacher1', '10.0.0.1'); // names compare case-insensitively
    expect(two).toEqual({ captcha: null, retryAfterSec: null, pairFailures: 2 });
    await throttle.succeed('100001', 'teacher1', '10.0.0.1', two);
    expect((await throttle.check('100001', 'teacher1', '10.0.0.1')).pairFailures).toBe(0);
    expect(await fails(3, '100001', 'teacher1', '10.0.0.1')).toEqual([null, null, 'account_address']);
    expect((await throttle.check('100001', 'teacher1', '10.0.0.1')).captcha).toBe('account_address');
    // The owner elsewhere, and the same name in another tenant, are not asked.
    expect((await throttle.check('100001', 'teacher1', '10.0.0.2')).captcha).toBeNull();
    expect((await throttle.check('100002', 'teacher1', '10.0.0.1')).captcha).toBeNull();
  });

  it('asks every address for a captcha once the account failed 6 times in all, and forgets after the window', async () => {
    // The success above cleared the pair's 2 failures, not the account's: 5 so far, the 6th counts.
    expect(await fails(1, '100001', 'teacher1', '10.0.0.3')).toEqual(['account']);
    expect((await throttle.check('100001', 'teacher1', '10.0.0.9')).captcha).toBe('account');
    for (const ip of ['10.1.0.1', '10.1.0.2', '10.1.0.3', '10.1.0.4', '10.1.0.5'])
      expect(await fails(1, '100003', 'spread', ip)).toEqual([null]);
    expect(await fails(1, '100003', 'spread', '10.1.0.6')).toEqual(['account']);
    expect((await throttle.check('100003', 'spread', '192.0.2.1')).captcha).toBe('account');
    now += 60_000;
    expect((await throttle.check('100003', 'spread', '192.0.2.1')).captcha).toBeNull();
    expect((await throttle.check('100001', 'teacher1', '10.0.0.1')).captcha).toBeNull();
  });

  it('refuses an address past its failures across accounts with the seconds left in its window; others are not affected', async () => {
    for (let i = 0; i < 7; i++) await throttle.fail('100001', `u${i}`, '192.0.2.7');
    expect(await throttle.check('100001', 'someone-else', '192.0.2.7')).toMatchObject({ retryAfterSec: null });
    expect((await throttle.fail('100001', 'u7', '192.0.2.7')).reached).toBe('address');
    now += 20_000;
    expect(await throttle.check('100001', 'someone-else', '192.0.2.7')).toEqual({
      captcha: 'address',
      retryAfterSec: 40,
      pairFailures: 0,
    });
    expect(await throttle.check('100001', 'someone-else', '192.0.2.8')).toMatchObject({
      captcha: null,
      retryAfterSec: null,
    });
    // An unknown tenant counts against the address only.
    await throttle.failAddress('192.0.2.9');
    expect(await kv.get('login:ip:192.0.2.9')).toBe('1');
  });
});

describe('TtlLru', () => {
  it('evicts the least recently used entry and forgets expired ones', () => {
    let now = 0;
    const lru = new TtlLru<number>(2, () => now);
    lru.set('a', 1, 100);
    lru.set('b', 2, 100);
    expect(lru.get('a')).toBe(1); // a is now the most recent
    lru.set('c', 3, 100);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    now = 100;
    expect(lru.get('a')).toBeUndefined();
    lru.set('x', 1, 10);
    lru.set('y', 0, 10);
    lru.clear((v) => v === 1);
    expect([lru.get('x'), lru.get('y')]).toEqual([1, undefined]);
  });
});

describe('parseBasic', () => {
  const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;
  it('reads client_id:client_secret and refuses anything else', () => {
    expect(parseBasic(basic('saber:saber_secret'))).toEqual({ clientId: 'saber', secret: 'saber_secret' });
    expect(parseBasic(basic('saber:se:cret'))).toEqual({ clientId: 'saber', secret: 'se:cret' });
    expect(parseBasic(`basic   ${Buffer.from('a:b').toString('base64')}`)).toEqual({ clientId: 'a', secret: 'b' });
    for (const bad of [
      undefined,
      '',
      'Bearer x',
      basic('saber'),
      basic(':secret'),
      basic('saber:'),
      'Basic ***',
      `Basic ${'A'.repeat(2000)}`,
    ])
      expect(parseBasic(bad), String(bad).slice(0, 20)).toBeUndefined();
  });
});
