import type { Config } from '../config';
import { MemoryStore } from './memory';
import type { KeyValueStore } from './types';

export * from './types';
export { MemoryStore } from './memory';

/** Redis when REDIS_URL is set (shared by every replica), otherwise process memory. */
export async function openKeyValueStore(config: Pick<Config, 'REDIS_URL' | 'KV_PREFIX'>): Promise<KeyValueStore> {
  if (config.REDIS_URL) {
    const { RedisStore } = await import('./redis');
    const store = new RedisStore(config.REDIS_URL, config.KV_PREFIX);
    try {
      await store.ping();
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
  }
  return new MemoryStore();
}
