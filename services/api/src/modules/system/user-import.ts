import { type Kysely, sql } from 'kysely';
import { type Database, type DB, inTenant } from '@sprout/core/db';
import { t } from '@sprout/core/i18n';
import { nextId } from '@sprout/core/ids';
import type { JobBoard, JobOwner, JobProgress } from '../../http/jobs';
import { type CheckInput, checkUserRows, type PlannedUser } from './user-import-check';
import { asDate, removeUserRoles } from './user-repo';

/** Rows written per statement (and per progress report). */
export const IMPORT_BATCH = 500;

/** The initial password of imported users when the tenant's parameters name none (`account.initPassword`). */
export const DEFAULT_INIT_PASSWORD = '123456';

/** The tenant's initial password for new users: its `account.initPassword` parameter, else the default. */
export async function initPassword(trx: Kysely<DB>, tenantId: string) {
  // The parameter family's own table (modules/param), outside the core schema's types.
  const { rows } = await sql<{ param_value: string }>`select param_value from param
    where tenant_id = ${tenantId} and param_key = 'account.initPassword' and is_deleted = 0 limit 1`.execute(trx);
  return rows[0]?.param_value || DEFAULT_INIT_PASSWORD;
}

/** What an import needs beyond its check: where it runs, where its progress goes. */
export interface ImportRun extends CheckInput {
  database: Database;
  board: JobBoard;
  owner: JobOwner;
  /** The new users' password hash, made once for all of them (argon2 per row would take minutes). */
  passwordHash: string;
}

const dateOr = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : asDate(v));

async function insertUsers(trx: Kysely<DB>, run: ImportRun, batch: PlannedUser[]) {
  const now = new Date();
  const rows = batch.map((p) => {
    const id = nextId();
    p.id = id;
    return {
      tenant_id: run.tenantId,
      id,
      account: p.account,
      password_hash: run.passwordHash,
      ...p.values,
      birthday: dateOr(p.values.birthday),
      user_type: 1,
      status: 1,
      create_user: run.userId,
      update_user: run.userId,
      create_time: now,
      update_time: now,
    };
  });
  if (rows.length) await trx.insertInto('app_user').values(rows).execute();
}

async function updateUsers(trx: Kysely<DB>, run: ImportRun, batch: PlannedUser[]) {
  for (const p of batch)
    await trx
      .updateTable('app_user')
      .set({ ...p.values, birthday: dateOr(p.values.birthday), update_user: run.userId, update_time: new Date() })
      .where('tenant_id', '=', run.tenantId)
      .where('id', '=', p.id as string)
      .execute();
}

async function writeRoles(trx: Kysely<DB>, tenantId: string, batch: PlannedUser[]) {
  const withRoles = batch.filter((p) => p.roleIds);
  const updated = withRoles.filter((p) => p.id).map((p) => p.id as string);
  if (updated.length) await removeUserRoles(trx, tenantId, updated);
  const rows = withRoles.flatMap((p) =>
    [...new Set(p.roleIds)].map((role_id) => ({ tenant_id: tenantId, user_id: p.id as string, role_id })),
  );
  if (rows.length) await trx.insertInto('user_role').values(rows).execute();
}

/**
 * Runs an import: every row checked first (state `validating`); any bad row → `failed` with
 * every problem and nothing written; else all rows written in one transaction, batch by batch
 * (state `writing`, `done` counting), then `done`. Answers whether anything was written.
 */
export async function runUserImport(run: ImportRun): Promise<boolean> {
  const total = run.rows.length;
  const report = (p: Omit<JobProgress, 'total'>) => run.board.put(run.owner, { total, ...p });
  try {
    const written = await inTenant(run.database, { tenantId: run.tenantId, userId: run.userId }, async (trx) => {
      const { problems, planned } = await checkUserRows(trx, run);
      if (problems.length) {
        const rows = new Set(problems.map((p) => p.row)).size;
        await report({
          state: 'failed',
          done: 0,
          errors: problems,
          message: t(run.lang, 'userIo.badRows', { count: rows }),
        });
        return false;
      }
      await report({ state: 'writing', done: 0, errors: [] });
      for (let i = 0; i < planned.length; i += IMPORT_BATCH) {
        const batch = planned.slice(i, i + IMPORT_BATCH);
        const fresh = batch.filter((p) => !p.id);
        await updateUsers(
          trx,
          run,
          batch.filter((p) => p.id),
        );
        await insertUsers(trx, run, fresh);
        await writeRoles(trx, run.tenantId, batch);
        // Shown while the transaction is still open: `done` is what is written, committed at the end.
        await report({ state: 'writing', done: Math.min(i + IMPORT_BATCH, total), errors: [] });
      }
      return true;
    });
    if (written)
      await report({
        state: 'done',
        done: total,
        errors: [],
        message: t(run.lang, 'userIo.imported', { count: total }),
      });
    return written;
  } catch (err) {
    await report({ state: 'failed', done: 0, errors: [], message: t(run.lang, 'userIo.importFailed') });
    throw err;
  }
}
