// A tenant's database holds every read model the platform keeps (the records' lists, the workflow's work lists).
import '../events/catalog';
import { sql, type Transaction } from 'kysely';
import { type Database, type DB, inSystem, type TenantRouter } from '../db';
import { migrateToLatest } from '../db/migrate';
import { AppError } from '../errors';
import { ensureReadModels, projectionLed } from '../events';
import { registerMessages } from '../i18n';
import { PLATFORM_TENANT_ID } from '../permissions/constants';

registerMessages({
  zh: {
    'datasource.schemaVersion':
      '数据源的数据库结构版本不符：它在 {have}，本平台在 {want}；请使用空数据库或同一版本的数据库',
    'datasource.targetHasTenant': '数据源中已有租户 {tenantId} 的数据（{table}），未做任何迁移',
    'datasource.alreadyThere': '租户 {tenantId} 已在该数据源上',
    'datasource.moving': '租户 {tenantId} 正在迁移中',
    'datasource.verifyFailed':
      '校验失败（{table}：源 {sourceRows} 行，目标 {targetRows} 行），已回滚，租户仍在原数据库',
    'datasource.missingRelation': '数据源缺少表 {table}，未做任何迁移',
    'datasource.projectionsBehind':
      '读模型 {projection} 尚未处理完租户 {tenantId} 的全部事件（后台任务积压），未做任何迁移，请稍后重试',
  },
  en: {
    'datasource.schemaVersion':
      "The data source's schema version does not match: it is at {have}, the platform at {want}; use an empty database or one at the same version",
    'datasource.targetHasTenant':
      'The data source already holds data of tenant {tenantId} ({table}); nothing was moved',
    'datasource.alreadyThere': 'Tenant {tenantId} is already on that data source',
    'datasource.moving': 'Tenant {tenantId} is being moved',
    'datasource.verifyFailed':
      'Verification failed ({table}: {sourceRows} rows in the source, {targetRows} in the target); rolled back, the tenant stays where it was',
    'datasource.missingRelation': 'The data source has no table {table}; nothing was moved',
    'datasource.projectionsBehind':
      "The read model {projection} has not yet processed all of tenant {tenantId}'s events (the worker is behind); nothing was moved, try again later",
  },
});

/**
 * Platform data every bound database keeps a copy of, because tenants' statements join it
 * (the catalogue: menus, top menus, scopes; the platform dictionaries; regions). The main
 * database is the truth: `mirrorPlatform` copies it over at start and before every move.
 */
const MIRRORED_PLATFORM_ROWS = ['menu', 'top_menu', 'top_menu_setting', 'scope_data', 'scope_api', 'dict'];
/** Tables that stay on the main database (a bound one keeps a copy of the tenant's row only). */
const PLATFORM_TABLES = new Set([
  'tenant',
  'client',
  'region',
  'kysely_migration',
  'kysely_migration_lock',
  'projections',
]);

export type MovePhase = 'check' | 'copy' | 'verify' | 'switch' | 'cleanup' | 'done' | 'failed';

export interface MoveProgress {
  phase: MovePhase;
  /** Relations copied or verified so far, of `total`. */
  done: number;
  total: number;
  relation?: string;
}

/** One relation's rows of the tenant: count and checksum (md5 over each row's md5, sorted). */
export interface RelationCount {
  relation: string;
  rows: number;
  checksum: string;
}

type Owner = Transaction<DB>;

/** The migrations a database has applied (null: none, not even the table). */
async function appliedMigrations(database: Database): Promise<string[] | null> {
  return inSystem(database, async (trx) => {
    const t = await sql<{ r: string | null }>`select to_regclass('kysely_migration')::text as r`.execute(trx);
    if (!t.rows[0]?.r) return null;
    const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(trx);
    return rows.rows.map((r) => r.name);
  });
}

/**
 * Makes a database ready to serve tenants: an empty one is migrated; one at another schema
 * version than the main database is refused with both versions named (nothing written).
 * Then the read models exist and the platform's rows are mirrored.
 */
export async function prepareDatabase(main: Database, target: Database): Promise<void> {
  // Empty, or behind (the platform was upgraded since): migrated to the main one's version.
  if ((await schemaState(main, target)) !== 'same') await migrateToLatest(target.db as never);
  if ((await schemaState(main, target)) !== 'same')
    throw new Error('the data source is not at the platform version after migrating');
  await ensureReadModels(target);
  await mirrorPlatform(main, target);
}

/**
 * Whether a database can serve tenants: `empty` (no tables), `behind` (a prefix of the main
 * database's migrations: the platform was upgraded since) — both are migrated — or `same`.
 * Anything else (tables without Sprout's migrations, migrations the main one lacks: another
 * application's or a newer Sprout's) is refused with both versions named.
 */
export async function schemaState(main: Database, target: Database): Promise<'empty' | 'behind' | 'same'> {
  const want = (await appliedMigrations(main)) ?? [];
  const have = await appliedMigrations(target);
  if (!have?.length) {
    const tables = await inSystem(
      target,
      async (trx) =>
        (await sql<{ n: number }>`select count(*)::int as n from pg_tables where schemaname = 'public'`.execute(trx))
          .rows[0]?.n ?? 0,
    );
    if (tables > 0)
      throw new AppError('bad_request', 'datasource.schemaVersion', { have: '—', want: want.at(-1) ?? '—' });
    return 'empty';
  }
  const prefix = have.length <= want.length && have.every((n, i) => n === want[i]);
  if (!prefix)
    throw new AppError('bad_request', 'datasource.schemaVersion', {
      have: have.at(-1) ?? '—',
      want: want.at(-1) ?? '—',
    });
  return have.length === want.length ? 'same' : 'behind';
}

/** Copies the platform's catalogue rows, dictionaries and regions from the main database. */
export async function mirrorPlatform(main: Database, target: Database, tenantIds: string[] = []): Promise<void> {
  const snapshot = await inSystem(main, async (trx) => {
    const out: Record<string, string | null> = {};
    for (const t of MIRRORED_PLATFORM_ROWS) out[t] = await rowsOf(trx, t, sql`tenant_id = ${PLATFORM_TENANT_ID}`);
    out.region = await rowsOf(trx, 'region', sql`true`);
    out.tenant = await rowsOf(trx, 'tenant', sql`tenant_id = any(${[PLATFORM_TENANT_ID, ...tenantIds]})`);
    out.permission_version = await rowsOf(trx, 'permission_version', sql`scope = '*'`);
    return out;
  });
  await inSystem(target, async (trx) => {
    await replicaRole(trx);
    for (const t of MIRRORED_PLATFORM_ROWS) {
      await sql`delete from ${sql.table(t)} where tenant_id = ${PLATFORM_TENANT_ID}`.execute(trx);
      await insertRows(trx, t, snapshot[t]);
    }
    await sql`delete from region`.execute(trx);
    await insertRows(trx, 'region', snapshot.region);
    await sql`delete from tenant where tenant_id = any(${[PLATFORM_TENANT_ID, ...tenantIds]})`.execute(trx);
    await insertRows(trx, 'tenant', snapshot.tenant);
    await sql`delete from permission_version where scope = '*'`.execute(trx);
    await insertRows(trx, 'permission_version', snapshot.permission_version);
  });
}

/** Triggers and foreign keys off for this transaction: rows arrive as they were, in any order. */
const replicaRole = (trx: Owner) => sql`set local session_replication_role = replica`.execute(trx);

/**
 * A relation's rows as JSON text, never parsed here (a bigint id would lose digits as a
 * JavaScript number): PostgreSQL writes it and reads it back.
 */
async function rowsOf(trx: Owner, relation: string, where: ReturnType<typeof sql>): Promise<string | null> {
  const r = await sql<{ rows: string | null }>`
    select json_agg(t)::text as rows from ${sql.table(relation)} t where ${where}`.execute(trx);
  return r.rows[0]?.rows ?? null;
}

/** The columns a relation takes on insert (generated ones are computed again). */
async function insertableColumns(trx: Owner, relation: string): Promise<string[]> {
  const r = await sql<{ c: string }>`
    select column_name as c from information_schema.columns
    where table_schema = 'public' and table_name = ${relation} and is_generated = 'NEVER'
    order by ordinal_position`.execute(trx);
  return r.rows.map((x) => x.c);
}

async function insertRows(trx: Owner, relation: string, rows: string | null | undefined): Promise<void> {
  if (!rows) return;
  const cols = await insertableColumns(trx, relation);
  const list = sql.join(cols.map((c) => sql.id(c)));
  // The log's read order is per database: copied events are one transaction of this one.
  const values = sql.join(
    cols.map((c) => (relation === 'events' && c === 'transaction_id' ? sql`pg_current_xact_id()` : sql.id(c))),
  );
  await sql`insert into ${sql.table(relation)} (${list}) overriding system value
    select ${values} from json_populate_recordset(null::${sql.table(relation)}, ${rows}::json)`.execute(trx);
}

/**
 * The relations holding a tenant's rows: base tables with a `tenant_id` column (not the
 * platform's, not a read model's generation tables) and the read models' views.
 */
export async function tenantRelations(database: Database): Promise<string[]> {
  return inSystem(database, async (trx) => {
    const r = await sql<{ name: string }>`
      select c.table_name as name from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and c.column_name = 'tenant_id' and t.table_type = 'BASE TABLE'
        and c.table_name not like '%\\_\\_g%'
      union
      select p.name from projections p where to_regclass(p.name) is not null
      order by 1`.execute(trx);
    return r.rows.map((x) => x.name).filter((n) => !PLATFORM_TABLES.has(n));
  });
}

/** Count and checksum of each relation's rows of the tenant (the log's transaction ids left out). */
export async function countTenant(database: Database, tenantId: string, relations: string[]): Promise<RelationCount[]> {
  return inSystem(database, async (trx) => {
    const out: RelationCount[] = [];
    for (const relation of relations) {
      const r = await sql<{ n: number; c: string }>`
        select count(*)::int as n, coalesce(md5(string_agg(h, '' order by h)), '') as c
        from (select md5((to_jsonb(t) - 'transaction_id')::text) as h from ${sql.table(relation)} t
              where tenant_id = ${tenantId}) s`.execute(trx);
      out.push({ relation, rows: r.rows[0]?.n ?? 0, checksum: r.rows[0]?.c ?? '' });
    }
    return out;
  });
}

/** Deletes every row of the tenant from the relations, in one transaction. */
async function removeTenant(database: Database, tenantId: string, relations: string[]): Promise<void> {
  await inSystem(database, async (trx) => {
    await replicaRole(trx);
    for (const relation of relations)
      await sql`delete from ${sql.table(relation)} where tenant_id = ${tenantId}`.execute(trx);
  });
}

/** Identity and serial columns after a copy: their sequences past every copied value. */
async function advanceSequences(trx: Owner, relations: string[]): Promise<void> {
  const r = await sql<{ t: string; c: string; s: string }>`
    select table_name as t, column_name as c, pg_get_serial_sequence(quote_ident(table_name), column_name) as s
    from information_schema.columns
    where table_schema = 'public' and table_name = any(${relations})
      and pg_get_serial_sequence(quote_ident(table_name), column_name) is not null`.execute(trx);
  for (const x of r.rows)
    await sql`select setval(${x.s}::regclass, greatest((select max(${sql.id(x.c)}) from ${sql.table(x.t)}),
      (select last_value from ${sql.table(x.s.replace(/^public\./, '').replace(/"/g, ''))})))`.execute(trx);
}

/**
 * Where a move closes the tenant's gate: in this process only (`localGate`, one process or a
 * test) or in every process of the fleet (`FleetRoutes`, fleet.ts). `close` resolves once no
 * call of the tenant runs anywhere it closed, or throws (nothing closed then).
 */
export interface TenantGate {
  close(tenantId: string, drainTimeoutMs?: number): Promise<ClosedGate>;
}

export interface ClosedGate {
  /** The copy is verified and the binding recorded: serve the tenant from `to` and open. */
  switched(to: Database): Promise<void>;
  /** The move failed before the switch: open again, the tenant where it was. */
  reopen(): Promise<void>;
}

/** The gate of this process's router only. */
export function localGate(router: TenantRouter): TenantGate {
  return {
    async close(tenantId, drainTimeoutMs) {
      const open = await router.close(tenantId, drainTimeoutMs);
      return {
        async switched(to) {
          router.bind(tenantId, to);
          open();
        },
        async reopen() {
          open();
        },
      };
    },
  };
}

export interface MoveOptions {
  router: TenantRouter;
  /**
   * Where the gate closes: every process of the fleet (fleet.ts `FleetRoutes`, which reads
   * the binding back from the main database, so `onSwitch` must record it) or, by default,
   * this process only.
   */
  gate?: TenantGate;
  tenantId: string;
  /** The database to serve the tenant from (the router's main one: back home). */
  to: Database;
  onProgress?: (p: MoveProgress) => void;
  /** Runs in the switch, the tenant's gate closed: record the binding (on the main database). */
  onSwitch?: () => Promise<void>;
  /** How long to wait for the tenant's running calls before giving up (nothing done). */
  drainTimeoutMs?: number;
  /**
   * How long to wait, the gate closed, for the source's async projections to process the
   * tenant's last events before giving up (nothing done). Default 30 s.
   */
  projectionTimeoutMs?: number;
  /** A test's hook after the copy, before verification (to prove a failed check rolls back). */
  afterCopy?: (target: Database, relations: string[]) => Promise<void>;
}

export interface MoveResult {
  counts: RelationCount[];
  /** The source rows could not be deleted after the switch (the tenant is served from the target anyway). */
  leftovers?: string;
}

/**
 * Waits until every async projection of `database` that has a running leader has processed
 * the tenant's events (its checkpoint is past the tenant's last event). With the tenant's gate
 * closed no new event of it is appended, so afterwards no projector writes its rows until the
 * gate opens again. A projection nobody leads writes nothing meanwhile: it is not waited for.
 */
async function projectionsCaughtUp(database: Database, tenantId: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const behind = await inSystem(database, async (trx) => {
      const r = await sql<{ name: string }>`
        select p.name from projections p
        where p.kind = 'async' and ${projectionLed(database, sql.ref('p.name'))} and exists (
          select 1 from events e
          where e.tenant_id = ${tenantId}
            and (e.transaction_id, e.global_position) > (p.transaction_id, p.global_position)
        )
        limit 1`.execute(trx);
      return r.rows[0]?.name;
    });
    if (!behind) return;
    if (Date.now() > deadline)
      throw new AppError('conflict', 'datasource.projectionsBehind', { projection: behind, tenantId });
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Moves a tenant's rows to another database: prepare the target (schema version, read
 * models, platform mirror), close the tenant's gate and wait for its running calls, copy
 * every relation in one target transaction, verify counts and checksums against the source,
 * switch the route (and `onSwitch`), open the gate, delete the source's rows. Any failure
 * before the switch deletes what was copied and leaves the tenant where it was.
 */
export async function moveTenant(opts: MoveOptions): Promise<MoveResult> {
  const { router, tenantId, to } = opts;
  const from = router.databaseOf(tenantId);
  const progress = (p: MoveProgress) => opts.onProgress?.(p);
  if (from === to) throw new AppError('bad_request', 'datasource.alreadyThere', { tenantId });
  if (router.moving(tenantId)) throw new AppError('conflict', 'datasource.moving', { tenantId });
  progress({ phase: 'check', done: 0, total: 0 });
  if (to !== router.main) {
    await prepareDatabase(router.main, to);
    await mirrorPlatform(router.main, to, [tenantId]);
  } else await ensureReadModels(to); // home again: every read model the tenant's rows fill is there
  const relations = await tenantRelations(from);
  const there = new Set(await tenantRelations(to));
  const missing = relations.find((r) => !there.has(r));
  if (missing) throw new AppError('bad_request', 'datasource.missingRelation', { table: missing });
  const already = (await countTenant(to, tenantId, relations)).find((c) => c.rows > 0);
  if (already) throw new AppError('bad_request', 'datasource.targetHasTenant', { tenantId, table: already.relation });

  const gate = await (opts.gate ?? localGate(router)).close(tenantId, opts.drainTimeoutMs);
  let switched = false;
  try {
    // The gate stops the tenant's calls, not the worker's projectors: one still processing the
    // tenant's last events would write read-model rows into the source after they were copied.
    await projectionsCaughtUp(from, tenantId, opts.projectionTimeoutMs ?? 30_000);
    const total = relations.length;
    // Copy: every relation in one transaction of the target, so a failure leaves nothing.
    await inSystem(to, async (trx) => {
      await replicaRole(trx);
      let done = 0;
      for (const relation of relations) {
        progress({ phase: 'copy', done, total, relation });
        const rows = await inSystem(from, (src) => rowsOf(src, relation, sql`tenant_id = ${tenantId}`));
        await insertRows(trx, relation, rows);
        done++;
      }
      await advanceSequences(trx, relations);
    });
    await opts.afterCopy?.(to, relations);
    progress({ phase: 'verify', done: 0, total });
    const before = await countTenant(from, tenantId, relations);
    const after = await countTenant(to, tenantId, relations);
    for (const [i, b] of before.entries()) {
      const a = after[i];
      if (!a || a.rows !== b.rows || a.checksum !== b.checksum)
        throw new AppError('internal', 'datasource.verifyFailed', {
          table: b.relation,
          sourceRows: b.rows,
          targetRows: a?.rows ?? 0,
        });
    }
    progress({ phase: 'switch', done: total, total });
    await opts.onSwitch?.();
    switched = true;
    await gate.switched(to);
    progress({ phase: 'cleanup', done: total, total });
    let leftovers: string | undefined;
    await removeTenant(from, tenantId, relations).catch((err: unknown) => {
      leftovers = err instanceof Error ? err.message : String(err);
    });
    progress({ phase: 'done', done: total, total });
    return { counts: before, leftovers };
  } catch (err) {
    if (!switched) {
      await removeTenant(to, tenantId, relations).catch(() => undefined);
      await gate.reopen();
    }
    progress({ phase: 'failed', done: 0, total: relations.length });
    throw err;
  }
}
