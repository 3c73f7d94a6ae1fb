import '@sprout/core/events/catalog';
import { startProjections } from '@sprout/core/events';
import { projectionLag } from '@sprout/core/observability';
import { sql } from 'kysely';
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
    // Lag per projector, read when scraped: events past its checkpoint (global positions are a sequence).
    const unwatch = projectionLag.add(async () => {
      const { rows } = await sql<{ name: string; lag: string }>`
        select name, greatest(0, (select coalesce(max(global_position), 0) from events) - global_position)::text as lag
        from projections where kind = 'async'`.execute(platform.database.db);
      return rows.map((r) => [{ projection: r.name }, Number(r.lag)] as [Record<string, string>, number]);
    });
    return {
      stop: async () => {
        unwatch();
        await runner.stop();
      },
    };
  },
};
