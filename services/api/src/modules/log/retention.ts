import { type RawBuilder, sql } from 'kysely';
import { type Database, inSystem, withSessionLock } from '@sprout/core/db';
import { PLATFORM_TENANT_ID } from '@sprout/core/permissions/constants';
import type { WorkerService } from '@sprout/worker';

/** Days a log's rows are kept unless a parameter says otherwise (`log.retentionDays.<kind>`). */
export const RETENTION_DEFAULTS = { api: 30, error: 90, usual: 180 } as const;
export type LogKind = keyof typeof RETENTION_DEFAULTS;
const TABLES: Record<LogKind, 'api_log' | 'error_log' | 'usual_log'> = {
  api: 'api_log',
  error: 'error_log',
  usual: 'usual_log',
};
/** Rows deleted per statement, so a purge never holds long locks. */
const BATCH = 5000;
const LOCK_KEY = 4242170;

/**
 * The parameter a tenant's rows are kept by: the tenant's own `log.retentionDays.<kind>`,
 * else the platform's, else the default; a value that is not 1 … 3650 days counts as absent.
 */
const daysOf = (kind: LogKind) => {
  const key = `log.retentionDays.${kind}`;
  const value = (tenant: RawBuilder<unknown>) => sql`(
    select case when p.param_value ~ '^\\s*[0-9]{1,4}\\s*$' and trim(p.param_value)::int between 1 and 3650
                then trim(p.param_value)::int end
    from param p where p.tenant_id = ${tenant} and p.param_key = ${key} and p.is_deleted = 0 limit 1)`;
  return sql`coalesce(${value(sql`l.tenant_id`)}, ${value(sql`${PLATFORM_TENANT_ID}`)}, ${RETENTION_DEFAULTS[kind]})`;
};

/**
 * Deletes log rows older than their tenant's retention, in batches, as the owner across
 * tenants; one replica at a time (advisory lock; null when another holds it).
 */
export async function purgeOldLogs(database: Database, now = new Date()): Promise<Record<LogKind, number> | null> {
  return withSessionLock(database, LOCK_KEY, async () => {
    const report: Record<LogKind, number> = { api: 0, error: 0, usual: 0 };
    for (const kind of Object.keys(TABLES) as LogKind[]) {
      const table = sql.table(TABLES[kind]);
      for (;;) {
        const r = await inSystem(database, (trx) =>
          sql`delete from ${table} where ctid in (
                select l.ctid from ${table} l
                where l.create_time < ${now}::timestamptz - make_interval(days => ${daysOf(kind)})
                limit ${BATCH})`.execute(trx),
        );
        const n = Number(r.numAffectedRows ?? 0);
        report[kind] += n;
        if (n < BATCH) break;
      }
    }
    return report;
  });
}

/** Purges a minute after start, then every hour. */
export const logRetentionService: WorkerService = {
  name: 'log-retention',
  async start(platform, log) {
    let running: Promise<void> | undefined;
    const tick = () => {
      running ??= purgeOldLogs(platform.database)
        .then((r) => {
          if (r && r.api + r.error + r.usual > 0)
            log(`log retention: deleted ${r.api} API, ${r.error} error, ${r.usual} usual log rows`);
        })
        .catch((err: Error) => log(`log retention failed: ${err.message}`))
        .finally(() => {
          running = undefined;
        });
    };
    const first = setTimeout(tick, 60_000);
    const every = setInterval(tick, 3_600_000);
    first.unref();
    every.unref();
    return {
      async stop() {
        clearTimeout(first);
        clearInterval(every);
        await running;
      },
    };
  },
};
