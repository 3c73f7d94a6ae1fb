import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KeyValueStore } from './types';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The behaviour every KeyValueStore must show. Run by memory.test.ts and redis.int.test.ts.
 * Expiry waits are generous; nothing here asserts speed.
 */
export function keyValueContract(name: string, open: () => Promise<KeyValueStore>) {
  describe(`KeyValueStore contract: ${name}`, () => {
    let kv: KeyValueStore;
    const key = () => `k-${randomBytes(6).toString('hex')}`;

    beforeEach(async () => {
      kv = await open();
    });
    afterEach(async () => {
      await kv.close();
    });

    it('reads back what it stores, and nothing after del', async () => {
      const k = key();
      expect(await kv.get(k)).toBeNull();
      expect(await kv.set(k, '验证码')).toBe(true);
      expect(await kv.get(k)).toBe('验证码');
      await kv.del(k);
      expect(await kv.get(k)).toBeNull();
    });

    it('forgets a key after its ttl', async () => {
      const k = key();
      await kv.set(k, 'v', { ttlMs: 150 });
      expect(await kv.get(k)).toBe('v');
      const ttl = await kv.ttlMs(k);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(150);
      await sleep(400);
      expect(await kv.get(k)).toBeNull();
      expect(await kv.ttlMs(k)).toBeNull();
    });

    it('stores onlyIfAbsent once', async () => {
      const k = key();
      expect(await kv.set(k, 'first', { onlyIfAbsent: true, ttlMs: 10_000 })).toBe(true);
      expect(await kv.set(k, 'second', { onlyIfAbsent: true, ttlMs: 10_000 })).toBe(false);
      expect(await kv.get(k)).toBe('first');
    });

    it('gives a value to exactly one of many concurrent takers', async () => {
      const k = key();
      await kv.set(k, 'once', { ttlMs: 10_000 });
      const got = await Promise.all(Array.from({ length: 20 }, () => kv.take(k)));
      expect(got.filter((v) => v === 'once')).toHaveLength(1);
      expect(got.filter((v) => v === null)).toHaveLength(19);
      expect(await kv.get(k)).toBeNull();
    });

    it('counts concurrent increments exactly; the window starts at the first one', async () => {
      const k = key();
      const counts = await Promise.all(Array.from({ length: 25 }, () => kv.incr(k, { ttlMs: 300 })));
      expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      // A later increment does not extend the window.
      await sleep(150);
      expect(await kv.incr(k, { ttlMs: 300 })).toBe(26);
      await sleep(300);
      expect(await kv.get(k)).toBeNull();
      expect(await kv.incr(k, { ttlMs: 300 })).toBe(1);
    });

    it('keeps a group of members while they heartbeat; one not refreshed drops out, one leaving at once', async () => {
      const group = key();
      expect(await kv.members(group)).toEqual([]);
      await kv.join(group, 'b', 10_000);
      await kv.join(group, 'a', 10_000);
      await kv.join(group, 'short', 150);
      expect(await kv.members(group)).toEqual(['a', 'b', 'short']);
      await kv.join(group, 'a', 10_000); // a refresh, not a second member
      await sleep(400);
      expect(await kv.members(group)).toEqual(['a', 'b']);
      await kv.leave(group, 'b');
      expect(await kv.members(group)).toEqual(['a']);
    });

    it('broadcasts to every subscriber until it unsubscribes', async () => {
      const channel = key();
      const a: string[] = [];
      const b: string[] = [];
      const offA = await kv.subscribe(channel, (m) => a.push(m));
      await kv.subscribe(channel, (m) => b.push(m));
      await kv.publish(channel, 'revoked 1');
      for (let i = 0; i < 100 && (a.length < 1 || b.length < 1); i++) await sleep(20);
      expect(a).toEqual(['revoked 1']);
      expect(b).toEqual(['revoked 1']);
      await offA();
      await kv.publish(channel, 'revoked 2');
      for (let i = 0; i < 100 && b.length < 2; i++) await sleep(20);
      expect(b).toEqual(['revoked 1', 'revoked 2']);
      expect(a).toEqual(['revoked 1']);
    });
  });
}
