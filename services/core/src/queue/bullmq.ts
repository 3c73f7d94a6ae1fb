import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF,
  type JobHandler,
  type JobOptions,
  type JobQueue,
  type ProcessOptions,
  type QueueDepth,
  QueueClosedError,
} from './types';
import { currentRequestId } from '../observability/request-context';

/** BullMQ on Redis for server mode. `prefix` isolates deployments (and test files). */
export class BullQueue implements JobQueue {
  readonly kind = 'bullmq' as const;
  private readonly connection: Redis;
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  private closed = false;

  constructor(
    redisUrl: string,
    private readonly prefix = 'sprout',
  ) {
    // BullMQ's blocking commands need maxRetriesPerRequest: null.
    this.connection = new Redis(redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
  }

  private queue(name: string) {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.connection, prefix: this.prefix });
      this.queues.set(name, q);
    }
    return q;
  }

  async enqueue<T>(queue: string, data: T, opts: JobOptions = {}) {
    if (this.closed) throw new QueueClosedError();
    const backoff = opts.backoff ?? DEFAULT_BACKOFF;
    // The job's name carries the request that queued it (shown on the queue board, logged by the job).
    const requestId = currentRequestId();
    const job = await this.queue(queue).add(requestId ? `${queue}@${requestId}` : queue, data, {
      delay: opts.delayMs,
      attempts: Math.max(1, opts.attempts ?? DEFAULT_ATTEMPTS),
      // BullMQ's built-ins match ours: fixed, or delay × 2^(attempt-1).
      backoff: { type: backoff.type, delay: backoff.delayMs },
      jobId: opts.jobId,
      removeOnComplete: true,
      removeOnFail: 1000,
    });
    return job.id as string;
  }

  async process<T>(queue: string, handler: JobHandler<T>, opts: ProcessOptions = {}) {
    if (this.closed) throw new QueueClosedError();
    const worker = new Worker(
      queue,
      async (job) => {
        const requestId = job.name.startsWith(`${queue}@`) ? job.name.slice(queue.length + 1) : undefined;
        await handler({ id: job.id as string, queue, data: job.data as T, attempt: job.attemptsMade + 1, requestId });
      },
      {
        connection: this.connection.duplicate(),
        prefix: this.prefix,
        concurrency: Math.max(1, opts.concurrency ?? 1),
      },
    );
    worker.on('error', () => undefined); // connection hiccups are retried by ioredis
    this.workers.push(worker);
    await worker.waitUntilReady();
  }

  async ping() {
    await this.connection.ping();
  }

  async depth(queues: readonly string[] = []): Promise<QueueDepth[]> {
    const names = new Set([...queues, ...this.queues.keys()]);
    const out: QueueDepth[] = [];
    for (const name of names) {
      const counts = await this.queue(name).getJobCounts('waiting', 'active', 'delayed', 'failed');
      for (const state of ['waiting', 'active', 'delayed', 'failed'] as const)
        out.push({ queue: name, state, count: counts[state] ?? 0 });
    }
    return out;
  }

  /** BullMQ's queue objects of these names (the queue board reads them). */
  bullQueues(names: readonly string[]): Queue[] {
    return names.map((n) => this.queue(n));
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    await this.connection.quit().catch(() => this.connection.disconnect());
  }
}
