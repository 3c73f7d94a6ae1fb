import '@sprout/core/events/catalog';
import { type Database, tenantRouter } from '@sprout/core/db';
import { type ProjectionRunner, startProjections } from '@sprout/core/events';
import { projectionLag } from '@sprout/core/observability';
import { sql } from 'kysely';
import type { WorkerService } from './index';

/**
 * The async projectors (docs/EVENTS.md): one per registered async projection, each leading
 * through an advisory lock so one instance in the cluster applies it; lag is logged. A
 * tenant bound to its own database (issue 21) has its log there: that database gets its own
 * projectors, at start and when a move binds a tenant to it.
 */
export const projectionsService: WorkerService = {
  name: 'projections',
  async start(platform, log) {
    const say = (msg: string, fields?: object) => log(fields ? `${msg} ${JSON.stringify(fields)}` : msg);
    const runners = new Map<Database, Promise<ProjectionRunner>>();
    let stopped = false;
    const follow = (database: Database) => {
      if (stopped || runners.has(database)) return;
      runners.set(database, startProjections(database, { log: say }));
    };
    const main = await startProjections(platform.database, { log: say });
    runners.set(platform.database, Promise.resolve(main));
    const router = tenantRouter(platform.database);
    for (const [, database] of router.bound()) follow(database);
    router.onBind((_, database) => follow(database));
    if (main.projectors.length) log(`projections: ${main.projectors.map((p) => p.status().name).join(', ')}`);
    if (runners.size > 1) log(`projections: also on ${runners.size - 1} tenant data source(s)`);
    // Lag per projector on the main database, read when scraped: events past its checkpoint (global positions are a sequence).
    const unwatch = projectionLag.add(async () => {
      const { rows } = await sql<{ name: string; lag: string }>`
        select name, greatest(0, (select coalesce(max(global_position), 0) from events) - global_position)::text as lag
        from projections where kind = 'async'`.execute(platform.database.db);
      return rows.map((r) => [{ projection: r.name }, Number(r.lag)] as [Record<string, string>, number]);
    });
    return {
      stop: async () => {
        stopped = true;
        unwatch();
        for (const r of runners.values()) await (await r.catch(() => undefined))?.stop();
      },
    };
  },
};
