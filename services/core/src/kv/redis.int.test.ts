import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '../testing/services';
import { keyValueContract } from './contract';
import { RedisStore } from './redis';

const prefix = `t${randomBytes(4).toString('hex')}`;
keyValueContract('Redis', async () => new RedisStore(await testRedisUrl(), prefix));

describe('RedisStore across replicas', () => {
  const open: RedisStore[] = [];
  afterAll(async () => {
    await Promise.all(open.map((s) => s.close()));
  });

  it('shares keys and broadcasts between two connections with one prefix, and isolates another prefix', async () => {
    const url = await testRedisUrl();
    const a = new RedisStore(url, prefix);
    const b = new RedisStore(url, prefix);
    const other = new RedisStore(url, `${prefix}x`);
    open.push(a, b, other);
    await a.set('shared', 'from a', { ttlMs: 10_000 });
    expect(await b.take('shared')).toBe('from a');
    expect(await a.get('shared')).toBeNull();
    await a.set('iso', '1');
    expect(await other.get('iso')).toBeNull();
    const heard: string[] = [];
    await b.subscribe('bus', (m) => heard.push(m));
    await other.subscribe('bus', (m) => heard.push(`other:${m}`));
    await a.publish('bus', 'hello');
    for (let i = 0; i < 100 && heard.length < 1; i++) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 50));
    expect(heard).toEqual(['hello']);
  });
});
