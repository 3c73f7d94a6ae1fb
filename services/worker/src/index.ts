import type { Platform } from '@sprout/core/platform';
import type { JobHandler, ProcessOptions } from '@sprout/core/queue';

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

export function registeredProcessors(): readonly Processor[] {
  return processors;
}

/** Starts every registered processor on the platform's queue; stopping is `platform.queue.close()`. */
export async function startWorker(platform: Platform): Promise<{ queues: string[] }> {
  for (const p of processors) await platform.queue.process(p.queue, p.handler(platform), p.options);
  return { queues: processors.map((p) => p.queue) };
}
