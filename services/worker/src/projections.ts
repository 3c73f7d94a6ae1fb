import '@sprout/core/events/catalog';
import { startProjections } from '@sprout/core/events';
import type { WorkerService } from './index';

/**
 * The async projectors (docs/EVENTS.md): one per registered async projection, each leading
 * through an advisory lock so one instance in the cluster applies it; lag is logged.
 */
export const projectionsService: WorkerService = {
  name: 'projections',
  async start(platform, log) {
    const runner = await startProjections(platform.database, {
      log: (msg, fields) => log(fields ? `${msg} ${JSON.stringify(fields)}` : msg),
    });
    if (runner.projectors.length) log(`projections: ${runner.projectors.map((p) => p.status().name).join(', ')}`);
    return { stop: () => runner.stop() };
  },
};
