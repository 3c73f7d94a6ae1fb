import { randomUUID } from 'node:crypto';
import {
  backoffDelay,
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF,
  type Job,
  type JobHandler,
  type JobOptions,
  type JobQueue,
  type ProcessOptions,
  type QueueDepth,
  QueueClosedError,
} from './types';
import { currentRequestId } from '../observability/request-context';

interface Entry {
  job: Job;
  opts: Required<Pick<JobOptions, 'attempts' | 'backoff'>>;
  runAt: number;
}

interface Lane {
  ready: Entry[];
  handler?: JobHandler;
  concurrency: number;
  running: number;
}

/**
 * In-process queue for the embedded mode: same contract as BullMQ, jobs held in memory.
 * A job still waiting when the process stops is lost; work that must survive a crash is
 * recorded in the database first (outbox) and re-enqueued on start.
 */
export class MemoryQueue implements JobQueue {
  readonly kind = 'memory' as const;
  private readonly lanes = new Map<string, Lane>();
  private readonly known = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  async enqueue<T>(queue: string, data: T, opts: JobOptions = {}): Promise<string> {
    if (this.closed) throw new QueueClosedError();
    const id = opts.jobId ?? randomUUID();
    const key = `${queue}\u0000${id}`;
    if (this.known.has(key)) return id;
    this.known.add(key);
    const entry: Entry = {
      job: { id, queue, data: structuredClone(data), attempt: 1, requestId: currentRequestId() },
      opts: { attempts: Math.max(1, opts.attempts ?? DEFAULT_ATTEMPTS), backoff: opts.backoff ?? DEFAULT_BACKOFF },
      runAt: Date.now() + Math.max(0, opts.delayMs ?? 0),
    };
    this.schedule(entry);
    return id;
  }

  async process<T>(queue: string, handler: JobHandler<T>, opts: ProcessOptions = {}) {
    if (this.closed) throw new QueueClosedError();
    const lane = this.lane(queue);
    if (lane.handler) throw new Error(`queue ${queue} already has a processor`);
    lane.handler = handler as JobHandler;
    lane.concurrency = Math.max(1, opts.concurrency ?? 1);
    this.pump(queue);
  }

  async ping() {
    if (this.closed) throw new QueueClosedError();
  }

  async depth(queues: readonly string[] = []): Promise<QueueDepth[]> {
    const names = new Set([...queues, ...this.lanes.keys()]);
    return [...names].flatMap((queue) => {
      const lane = this.lanes.get(queue);
      return [
        { queue, state: 'waiting' as const, count: lane?.ready.length ?? 0 },
        { queue, state: 'active' as const, count: lane?.running ?? 0 },
      ];
    });
  }

  async close() {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  private lane(queue: string): Lane {
    let lane = this.lanes.get(queue);
    if (!lane) {
      lane = { ready: [], concurrency: 1, running: 0 };
      this.lanes.set(queue, lane);
    }
    return lane;
  }

  private schedule(entry: Entry) {
    const wait = entry.runAt - Date.now();
    if (wait <= 0) {
      this.lane(entry.job.queue).ready.push(entry);
      queueMicrotask(() => this.pump(entry.job.queue));
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.lane(entry.job.queue).ready.push(entry);
      this.pump(entry.job.queue);
    }, wait);
    this.timers.add(timer);
  }

  private pump(queue: string) {
    const lane = this.lane(queue);
    while (!this.closed && lane.handler && lane.running < lane.concurrency && lane.ready.length) {
      const entry = lane.ready.shift() as Entry;
      lane.running++;
      const run = this.run(lane, entry).finally(() => {
        lane.running--;
        this.inFlight.delete(run);
        this.pump(queue);
      });
      this.inFlight.add(run);
    }
  }

  private async run(lane: Lane, entry: Entry) {
    const { job } = entry;
    try {
      await (lane.handler as JobHandler)({ ...job, data: structuredClone(job.data) });
      this.known.delete(`${job.queue}\u0000${job.id}`);
    } catch {
      if (job.attempt < entry.opts.attempts && !this.closed) {
        const delay = backoffDelay(entry.opts.backoff, job.attempt);
        this.schedule({ ...entry, job: { ...job, attempt: job.attempt + 1 }, runAt: Date.now() + delay });
      } else {
        this.known.delete(`${job.queue}\u0000${job.id}`);
      }
    }
  }
}
