import { createLogger, instrumentedHandler, queueDepth } from '@sprout/core/observability';
import type { Platform } from '@sprout/core/platform';
import type { Logger } from '@sprout/core/observability';
import type { JobHandler, ProcessOptions } from '@sprout/core/queue';
import { housekeepingService } from './housekeeping';
import { projectionsService } from './projections';

/** A processor the worker runs: one queue, one idempotent handler. */
export interface Processor<T = unknown> {
  queue: string;
  handler: (platform: Platform) => JobHandler<T>;
  options?: ProcessOptions;
}

const processors: Processor[] = [];

/** Capabilities register their processors here (async projections, workflow, exports). */
export function registerProcessor<T>(p: Processor<T>) {
  if (processors.some((x) => x.queue === p.queue)) throw new Error(`processor for ${p.queue} already registered`);
  processors.push(p as Processor);
}

/** A long-running loop the worker starts and stops, beside the queue processors (async projectors). */
export interface WorkerService {
  name: string;
  start(platform: Platform, log: (msg: string) => void): Promise<{ stop(): Promise<void> }>;
}

const services: WorkerService[] = [];

export function registerService(s: WorkerService) {
  if (services.some((x) => x.name === s.name)) throw new Error(`worker service ${s.name} already registered`);
  services.push(s);
}

export interface RunningWorker {
  queues: string[];
  services: string[];
  /** Stops the services (before the queue and the database close). */
  stop(): Promise<void>;
}

/** What the contexts hand the worker besides its own services (services/api/src/contexts.ts). */
export interface WorkerContributions {
  processors?: Processor[];
  services?: WorkerService[];
  /** Where jobs log (default: JSON lines on stdout at LOG_LEVEL). */
  logger?: Logger;
}

/**
 * Starts every registered processor and the contexts' on the platform's queue, and every
 * service. Stop the services with `stop()`, then the queue with `platform.close()`.
 */
export async function startWorker(
  platform: Platform,
  log: (msg: string) => void = () => {},
  contributed: WorkerContributions = {},
): Promise<RunningWorker> {
  const allProcessors = [...processors, ...(contributed.processors ?? [])];
  const allServices = [...services, ...(contributed.services ?? [])];
  // Jobs log JSON lines naming the request that queued them; their durations are metrics.
  const jobLog = contributed.logger ?? createLogger(platform.config.LOG_LEVEL, undefined, { service: 'worker' });
  for (const p of allProcessors)
    await platform.queue.process(p.queue, instrumentedHandler(p.queue, p.handler(platform), jobLog), p.options);
  const names = allProcessors.map((p) => p.queue);
  const unwatch = queueDepth.add(async () =>
    (await platform.queue.depth(names)).map(
      (d) => [{ queue: d.queue, state: d.state }, d.count] as [Record<string, string>, number],
    ),
  );
  const running: Array<{ stop(): Promise<void> }> = [];
  for (const s of allServices) running.push(await s.start(platform, log));
  return {
    queues: allProcessors.map((p) => p.queue),
    services: allServices.map((s) => s.name),
    async stop() {
      unwatch();
      await Promise.all(running.map((r) => r.stop()));
    },
  };
}

registerService(projectionsService);
registerService(housekeepingService);
