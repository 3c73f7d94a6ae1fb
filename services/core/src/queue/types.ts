/** Retry spacing: fixed, or doubling from `delayMs`. */
export interface Backoff {
  type: 'fixed' | 'exponential';
  delayMs: number;
}

export interface JobOptions {
  /** Run no earlier than this many milliseconds from now. */
  delayMs?: number;
  /** Total tries, the first included (default 3). */
  attempts?: number;
  backoff?: Backoff;
  /** While a job with this id exists, enqueueing it again is a no-op (idempotent producers). */
  jobId?: string;
}

export interface Job<T = unknown> {
  id: string;
  queue: string;
  data: T;
  /** 1 on the first try. */
  attempt: number;
  /** The id of the request that queued it (its logs name it too), when one did. */
  requestId?: string;
}

/** How many jobs a queue holds in one state (the `/metrics` queue depth). */
export interface QueueDepth {
  queue: string;
  state: 'waiting' | 'active' | 'delayed' | 'failed';
  count: number;
}

export type JobHandler<T = unknown> = (job: Job<T>) => Promise<void>;

export interface ProcessOptions {
  concurrency?: number;
}

/**
 * The one queue interface: BullMQ in server mode, in-process in embedded mode.
 * Delivery is at least once; ordering is not promised. Handlers must be idempotent.
 */
export interface JobQueue {
  readonly kind: 'bullmq' | 'memory';
  enqueue<T>(queue: string, data: T, opts?: JobOptions): Promise<string>;
  process<T>(queue: string, handler: JobHandler<T>, opts?: ProcessOptions): Promise<void>;
  /** Jobs per queue and state, for the queues named (and those this process has used). */
  depth(queues?: readonly string[]): Promise<QueueDepth[]>;
  /** Resolves when the backing store answers; rejects otherwise (readiness). */
  ping(): Promise<void>;
  /** Stops taking jobs, waits for running ones, releases connections. */
  close(): Promise<void>;
}

export const DEFAULT_ATTEMPTS = 3;
export const DEFAULT_BACKOFF: Backoff = { type: 'exponential', delayMs: 500 };

export function backoffDelay(b: Backoff, failedAttempt: number) {
  return b.type === 'fixed' ? b.delayMs : b.delayMs * 2 ** (failedAttempt - 1);
}

export class QueueClosedError extends Error {
  constructor() {
    super('queue is closed');
    this.name = 'QueueClosedError';
  }
}
