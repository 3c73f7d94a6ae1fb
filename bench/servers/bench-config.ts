// The config a benchmark server runs with: Redis as its key-value store when one is reachable
// (as in server mode), memory otherwise.
import { testConfig } from '@sprout/api/testing';
import { testRedisUrl } from '@sprout/core/testing/services';

export async function benchConfig(kvPrefix: string, extra: Record<string, string> = {}) {
  let redisUrl: string | undefined;
  try {
    redisUrl = await testRedisUrl();
  } catch {
    redisUrl = undefined;
  }
  const config = testConfig({
    ...(redisUrl ? { REDIS_URL: redisUrl, KV_PREFIX: `${kvPrefix}${process.pid}` } : {}),
    ...extra,
  });
  return { config, redisUrl };
}
