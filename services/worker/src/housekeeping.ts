import { sql } from 'kysely';
import { type Database, inSystem, servingDatabases, withSessionLock } from '@sprout/core/db';
import type { WorkerService } from './index';

/** Rows deleted per statement, so a purge never holds long locks. */
const BATCH = 5000;
const LOCK_KEY = 4242101;

export interface PurgeReport {
  refreshTokens: number;
  sessions: number;
  securityLog: number;
  /** Finished or abandoned Word exports past their hour. */
  exports: number;
}

/**
 * Deletes expired Word exports (their files) and what sign-in no longer needs: refresh tokens and sessions a day past their
 * expiry (a session outlives its last access token by at most the access lifetime), and
 * security-log rows older than the retention. Runs as the owner across tenants; one
 * replica at a time (advisory lock); in batches.
 */
export async function purgeExpiredAuthData(
  database: Database,
  retentionDays: number,
  now = new Date(),
): Promise<PurgeReport | null> {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const logCutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const report: PurgeReport = { refreshTokens: 0, sessions: 0, securityLog: 0, exports: 0 };
  return withSessionLock(database, LOCK_KEY, async () => {
    const purge = async (
      table: 'auth_refresh_token' | 'auth_session' | 'security_log' | 'record_export',
      column: string,
      before: Date,
    ) => {
      let total = 0;
      for (;;) {
        const r = await inSystem(database, (trx) =>
          sql`delete from ${sql.table(table)} where ctid in (
                select ctid from ${sql.table(table)} where ${sql.ref(column)} < ${before} limit ${BATCH})`.execute(trx),
        );
        const n = Number(r.numAffectedRows ?? 0);
        total += n;
        if (n < BATCH) return total;
      }
    };
    report.refreshTokens = await purge('auth_refresh_token', 'expire_time', dayAgo);
    report.sessions = await purge('auth_session', 'expire_time', dayAgo);
    report.securityLog = await purge('security_log', 'create_time', logCutoff);
    report.exports = await purge('record_export', 'expires_at', now);
    return report;
  });
}

/**
 * `purgeExpiredAuthData` on the main database and on every bound data source (issue 21: a
 * bound tenant's sessions, tokens, security log and exports live there). A database that
 * fails is reported and skipped; the sum of the others is returned (null: every lock held elsewhere).
 */
export async function purgeExpiredAuthDataEverywhere(
  main: Database,
  retentionDays: number,
  now = new Date(),
  onError: (err: Error) => void = () => {},
): Promise<PurgeReport | null> {
  let total: PurgeReport | null = null;
  for (const database of servingDatabases(main)) {
    try {
      const r = await purgeExpiredAuthData(database, retentionDays, now);
      if (!r) continue;
      total ??= { refreshTokens: 0, sessions: 0, securityLog: 0, exports: 0 };
      for (const k of Object.keys(r) as Array<keyof PurgeReport>) total[k] += r[k];
    } catch (err) {
      onError(err instanceof Error ? err : new Error(String(err)));
    }
  }
  return total;
}

/** Purges shortly after start, then every hour. */
export const housekeepingService: WorkerService = {
  name: 'housekeeping',
  async start(platform, log) {
    const run = async () => {
      try {
        const r = await purgeExpiredAuthDataEverywhere(
          platform.database,
          platform.config.SECURITY_LOG_RETENTION_DAYS,
          new Date(),
          (err) => log(`housekeeping failed on a data source: ${err.message}`),
        );
        if (r && r.refreshTokens + r.sessions + r.securityLog + r.exports > 0)
          log(
            `housekeeping: purged ${r.refreshTokens} refresh tokens, ${r.sessions} sessions, ${r.securityLog} security-log rows, ${r.exports} expired exports`,
          );
      } catch (err) {
        log(`housekeeping failed: ${(err as Error).message}`);
      }
    };
    let running: Promise<void> | undefined;
    const tick = () => {
      running ??= run().finally(() => {
        running = undefined;
      });
    };
    const first = setTimeout(tick, 30_000);
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
