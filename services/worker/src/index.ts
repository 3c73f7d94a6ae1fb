import type { Platform } from '@sprout/core/platform';
import type { JobHandler, ProcessOptions } from '@sprout/core/queue';
import { weekExportProcessor } from './exports';
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

/**
 * Starts every registered processor on the platform's queue and every registered service.
 * Stop the services with `stop()`, then the queue with `platform.close()`.
 */
export async function startWorker(platform: Platform, log: (msg: string) => void = () => {}): Promise<RunningWorker> {
  for (const p of processors) await platform.queue.process(p.queue, p.handler(platform), p.options);
  const running: Array<{ stop(): Promise<void> }> = [];
  for (const s of services) running.push(await s.start(platform, log));
  return {
    queues: processors.map((p) => p.queue),
    services: services.map((s) => s.name),
    async stop() {
      await Promise.all(running.map((r) => r.stop()));
    },
  };
}

registerService(projectionsService);
registerService(housekeepingService);
registerProcessor(weekExportProcessor);
