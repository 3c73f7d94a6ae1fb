import { type RawBuilder, sql } from 'kysely';
import { type Database, inSystem, servingDatabases, withSessionLock } from '@sprout/core/db';
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

/** The platform's own retention parameters, read on the main database (null: not set or not 1 … 3650). */
export type PlatformRetention = Record<LogKind, number | null>;

/**
 * The parameter a tenant's rows are kept by: the tenant's own `log.retentionDays.<kind>`,
 * else the platform's, else the default; a value that is not 1 … 3650 days counts as absent.
 * On a bound data source (which holds no platform parameters) the platform's value comes
 * from the main database (`platform`).
 */
const daysOf = (kind: LogKind, platform?: PlatformRetention) => {
  const key = `log.retentionDays.${kind}`;
  const value = (tenant: RawBuilder<unknown>) => sql`(
    select case when p.param_value ~ '^\\s*[0-9]{1,4}\\s*$' and trim(p.param_value)::int between 1 and 3650
                then trim(p.param_value)::int end
    from param p where p.tenant_id = ${tenant} and p.param_key = ${key} and p.is_deleted = 0 limit 1)`;
  const fallback = platform ? sql`${platform[kind]}::int` : value(sql`${PLATFORM_TENANT_ID}`);
  return sql`coalesce(${value(sql`l.tenant_id`)}, ${fallback}, ${RETENTION_DEFAULTS[kind]})`;
};

/** The platform's retention parameters on the main database. */
export async function platformRetention(main: Database): Promise<PlatformRetention> {
  const rows = await inSystem(
    main,
    async (trx) =>
      (
        await sql<{ param_key: string; param_value: string | null }>`
        select param_key, param_value from param
        where tenant_id = ${PLATFORM_TENANT_ID} and param_key like 'log.retentionDays.%' and is_deleted = 0`.execute(
          trx,
        )
      ).rows,
  );
  const out: PlatformRetention = { api: null, error: null, usual: null };
  for (const kind of Object.keys(out) as LogKind[]) {
    const v = rows.find((r) => r.param_key === `log.retentionDays.${kind}`)?.param_value ?? '';
    const n = /^\s*[0-9]{1,4}\s*$/.test(v) ? Number(v.trim()) : Number.NaN;
    out[kind] = n >= 1 && n <= 3650 ? n : null;
  }
  return out;
}

/**
 * Deletes log rows older than their tenant's retention, in batches, as the owner across
 * tenants; one replica at a time (advisory lock; null when another holds it).
 */
export async function purgeOldLogs(
  database: Database,
  now = new Date(),
  platform?: PlatformRetention,
): Promise<Record<LogKind, number> | null> {
  return withSessionLock(database, LOCK_KEY, async () => {
    const report: Record<LogKind, number> = { api: 0, error: 0, usual: 0 };
    for (const kind of Object.keys(TABLES) as LogKind[]) {
      const table = sql.table(TABLES[kind]);
      for (;;) {
        const r = await inSystem(database, (trx) =>
          sql`delete from ${table} where ctid in (
                select l.ctid from ${table} l
                where l.create_time < ${now}::timestamptz - make_interval(days => ${daysOf(kind, platform)})
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

/**
 * `purgeOldLogs` on the main database and on every bound data source (issue 21: a bound
 * tenant's logs are written there). A database that fails is reported and skipped; the
 * sum of the others is returned (null: another replica holds every lock).
 */
export async function purgeOldLogsEverywhere(
  main: Database,
  now = new Date(),
  onError: (err: Error) => void = () => {},
): Promise<Record<LogKind, number> | null> {
  const platform = await platformRetention(main);
  let total: Record<LogKind, number> | null = null;
  for (const [i, database] of servingDatabases(main).entries()) {
    try {
      const r = await purgeOldLogs(database, now, i === 0 ? undefined : platform);
      if (!r) continue;
      total ??= { api: 0, error: 0, usual: 0 };
      for (const k of Object.keys(r) as LogKind[]) total[k] += r[k];
    } catch (err) {
      onError(err instanceof Error ? err : new Error(String(err)));
    }
  }
  return total;
}

/** Purges a minute after start, then every hour. */
export const logRetentionService: WorkerService = {
  name: 'log-retention',
  async start(platform, log) {
    let running: Promise<void> | undefined;
    const tick = () => {
      running ??= purgeOldLogsEverywhere(platform.database, new Date(), (err) =>
        log(`log retention failed on a data source: ${err.message}`),
      )
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
