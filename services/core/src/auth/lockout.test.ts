import { afterAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../kv';
import { LoginThrottle } from './lockout';
import { TtlLru } from './lru';
import { parseBasic } from './clients';

describe('LoginThrottle', () => {
  const kv = new MemoryStore();
  afterAll(async () => {
    await kv.close();
  });
  const throttle = new LoginThrottle(kv, { maxFailures: 3, lockMs: 60_000, maxFailuresPerIp: 5 });

  it('locks an account on its 3rd failure, says so once, and a success before that resets the count', async () => {
    expect(await throttle.fail('100001', 'Teacher1', '10.0.0.1')).toEqual({ locked: false });
    await throttle.succeed('100001', 'teacher1'); // account names compare case-insensitively
    expect(await throttle.fail('100001', 'teacher1', '10.0.0.1')).toEqual({ locked: false });
    expect(await throttle.fail('100001', 'teacher1', '10.0.0.2')).toEqual({ locked: false });
    expect(await throttle.blocked('100001', 'teacher1', '10.0.0.3')).toBeNull();
    expect(await throttle.fail('100001', 'teacher1', '10.0.0.3')).toEqual({ locked: true });
    expect(await throttle.blocked('100001', 'teacher1', '10.0.0.9')).toBe('account');
    expect(await throttle.blocked('100002', 'teacher1', '10.0.0.9')).toBeNull();
    await throttle.unlock('100001', 'teacher1');
    expect(await throttle.blocked('100001', 'teacher1', '10.0.0.9')).toBeNull();
  });

  it('refuses an address after its failures across accounts', async () => {
    for (let i = 0; i < 5; i++) await throttle.fail('100001', `u${i}`, '192.0.2.7');
    expect(await throttle.blocked('100001', 'someone-else', '192.0.2.7')).toBe('ip');
    expect(await throttle.blocked('100001', 'someone-else', '192.0.2.8')).toBeNull();
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
