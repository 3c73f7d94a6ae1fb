import type { FastifyInstance } from 'fastify';
import type { KeyValueStore } from '@sprout/core/kv';

/** One bad input row of a job (an import): its 1-based sheet row, its column's header and why. */
export interface JobProblem {
  row: number;
  column: string;
  message: string;
}

/** A background job's progress as its starter polls it. */
export interface JobProgress {
  state: 'validating' | 'writing' | 'done' | 'failed';
  total: number;
  done: number;
  errors: JobProblem[];
  message?: string;
}

/** Whose job it is: only its starter, in its tenant, reads it. */
export interface JobOwner {
  tenantId: string;
  userId: string;
  jobId: string;
}

const HOUR_MS = 3_600_000;

/**
 * Progress of background jobs of one `kind` in the shared store (every replica answers a
 * poll alike), kept an hour after its last change, readable only by the one who started it.
 */
export class JobBoard {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly kind: string,
    private readonly ttlMs = HOUR_MS,
  ) {}

  private key(o: JobOwner) {
    return `job:${this.kind}:${o.tenantId}:${o.jobId}`;
  }

  async put(o: JobOwner, progress: JobProgress) {
    await this.kv.set(this.key(o), JSON.stringify({ userId: o.userId, progress }), { ttlMs: this.ttlMs });
  }

  /** The job's progress; undefined when it is unknown, expired or someone else's. */
  async read(o: JobOwner): Promise<JobProgress | undefined> {
    const raw = await this.kv.get(this.key(o));
    if (!raw) return undefined;
    const stored = JSON.parse(raw) as { userId: string; progress: JobProgress };
    return stored.userId === o.userId ? stored.progress : undefined;
  }
}

/**
 * Work the app runs after answering (an import): its failures are the work's own to record;
 * closing the app waits for what is still running, so nothing is cut off mid-transaction.
 * Call once while registering routes.
 */
export function backgroundWork(app: FastifyInstance) {
  const running = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...running]);
  });
  return (work: () => Promise<void>) => {
    const p = work()
      .catch((err) => app.log.error({ err }, 'background work failed'))
      .finally(() => running.delete(p));
    running.add(p);
  };
}
