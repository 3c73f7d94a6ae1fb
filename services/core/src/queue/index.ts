import type { Config } from '../config';
import { MemoryQueue } from './memory';
import type { JobQueue } from './types';

export * from './types';
export { MemoryQueue } from './memory';

/** BullMQ when REDIS_URL is set, otherwise the in-process queue. */
export async function openQueue(config: Pick<Config, 'REDIS_URL'>, prefix = 'sprout'): Promise<JobQueue> {
  if (config.REDIS_URL) {
    const { BullQueue } = await import('./bullmq');
    const q = new BullQueue(config.REDIS_URL, prefix);
    await q.ping();
    return q;
  }
  return new MemoryQueue();
}
