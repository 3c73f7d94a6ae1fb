import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CompiledQuery, Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import { inlineParameters, literal } from './inline';
import { Lane } from './lane';
import { GuardedPool } from './pg-pool';
import { dbPool } from '../observability/metrics';
import { PGliteDialect } from './pglite-dialect';
import { routerOf } from './routing';
import type { DB } from './schema';

export { DatabaseUnavailableError, outsideTransaction, StatementOutsideTransactionError } from './lane';
export { withSessionLock } from './leader';

export type { DB } from './schema';
export { DatabaseUnreachableError, isDatabaseUnreachable, UNREACHABLE_RETRY_AFTER_S } from './unreachable';
export {
  routerOf,
  servingDatabases,
  TenantDataSourceDownError,
  TenantMovingError,
  TenantRouter,
  tenantRouter,
} from './routing';
export * from './schema';

/** A Kysely handle bound to one open transaction; repositories take `Tx`. */
export type Tx = Kysely<DB> | Transaction<DB>;

/** The role app queries run as: not a superuser and not an owner, so RLS always applies. */
export const APP_ROLE = 'sprout_app';

/** A statement PostgreSQL keeps parsed and planned per connection (`prepare name as sql`; sql with $n). */
export interface PreparedStatement {
  name: string;
  sql: string;
}

export interface Database {
  db: Kysely<DB>;
  /**
   * For what needs one server session across statements — session advisory locks held by a
   * leader (async projections, rebuilds, housekeeping) — on a pinned `session.connection()`.
   * A direct connection (DATABASE_SESSION_URL) when `db` goes through a transaction-mode
   * pooler such as PgBouncer, which hands each transaction any server connection (a session
   * lock taken there would stay on a server connection other clients then share); else `db`.
   */
  session: Kysely<DB>;
  dialect: 'pg' | 'pglite';
  /**
   * Runs a parameterless multi-statement script in one round trip, as one implicit
   * transaction (simple query protocol); returns every statement's rows. A failure rolls
   * the whole script back and leaves no transaction open. `prepare`: statements the script
   * EXECUTEs, prepared on its connection first if that connection has not yet (once per
   * connection, a round trip of its own).
   */
  script(text: string, prepare?: readonly PreparedStatement[]): Promise<unknown[][]>;
  /**
   * How long callers have been turned away with no connection taken or given back (0 while
   * the database makes progress), and the bound past which the process can no longer serve.
   */
  stall(): { stalledMs: number; limitMs: number };
  close(): Promise<void>;
  /** @internal the guard and progress bookkeeping shared by inTenant/inSystem. */
  readonly lane: Lane;
}

export interface OpenOptions {
  /** PostgreSQL URL; absent → PGlite under `dataDir` (or in memory when dataDir is 'memory://'). */
  url?: string;
  /** A direct PostgreSQL URL for `Database.session` (DATABASE_SESSION_URL); absent → `url` serves both. */
  sessionUrl?: string;
  dataDir?: string;
  poolSize?: number;
  /** Told when the server drops an idle pooled connection (logged by the caller). */
  onIdleError?: (err: Error) => void;
  /**
   * Longest wait for a connection before a 503 (DATABASE_WAIT_TIMEOUT_MS). This and
   * statementTimeoutMs: absent or 0 → unbounded, for tests, benches and scripts that open a
   * database themselves; every service process gets both from its config (databaseOptions).
   */
  waitTimeoutMs?: number;
  /**
   * Longest a statement runs and a transaction sits idle holding its connection
   * (DATABASE_STATEMENT_TIMEOUT_MS). PostgreSQL: statement_timeout and
   * idle_in_transaction_session_timeout; PGlite: an idle holder's connection is taken back.
   */
  statementTimeoutMs?: number;
  /**
   * Refuse at once a statement sent outside the open transaction from inside it
   * (StatementOutsideTransactionError). Default: on unless NODE_ENV=production, where the
   * AsyncLocalStorage it needs would cost every request (Node 20 tracks every promise for
   * it) and the wait bound still ends such a request with a 503.
   */
  guard?: boolean;
}

export function databaseOptions(config: Config): OpenOptions {
  return {
    url: config.DATABASE_URL,
    sessionUrl: config.DATABASE_SESSION_URL,
    dataDir: join(config.DATA_DIR, 'pgdata'),
    poolSize: config.DATABASE_POOL_SIZE,
    waitTimeoutMs: config.DATABASE_WAIT_TIMEOUT_MS,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    guard: config.NODE_ENV !== 'production',
  };
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const lane = new Lane(
    { waitTimeoutMs: opts.waitTimeoutMs ?? 0, holdTimeoutMs: opts.statementTimeoutMs ?? 0 },
    opts.guard ?? process.env.NODE_ENV !== 'production',
  );
  const stall = () => ({ stalledMs: lane.stalledMs(), limitMs: lane.stallLimitMs });
  if (opts.url) {
    const max = opts.poolSize ?? 10;
    const pool = new pg.Pool({
      connectionString: opts.url,
      max,
      connectionTimeoutMillis: lane.bounds.waitTimeoutMs,
      // The server cancels a statement past the bound (57014) and ends a session left idle
      // inside a transaction past it (25P03), so a stuck request gives its connection back.
      statement_timeout: lane.bounds.holdTimeoutMs,
      idle_in_transaction_session_timeout: lane.bounds.holdTimeoutMs,
    });
    // An idle connection dropped by the server (restart, failover) must not crash the
    // process: the pool discards it and opens a new one on demand. (A lent one: GuardedPool.)
    pool.on('error', (err) => opts.onIdleError?.(err));
    const guarded = new GuardedPool(pool, lane, max, (err) => opts.onIdleError?.(err));
    // Fail fast with a clear error when the server is unreachable; inlined literals rely on
    // standard_conforming_strings (the default since PostgreSQL 9.1).
    const client = await guarded.connect();
    try {
      const scs = await client.query<{ standard_conforming_strings: string }>('show standard_conforming_strings', []);
      if (scs.rows[0]?.standard_conforming_strings !== 'on') throw new Error('standard_conforming_strings must be on');
    } finally {
      client.release();
    }
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: guarded }) });
    const session = opts.sessionUrl ? directSession(opts.sessionUrl, opts.onIdleError) : db;
    const unwatch = dbPool.add(() => [
      [{ state: 'total' }, pool.totalCount],
      [{ state: 'idle' }, pool.idleCount],
      [{ state: 'in_use' }, pool.totalCount - pool.idleCount],
      [{ state: 'waiting' }, pool.waitingCount],
      [{ state: 'max' }, max],
    ]);
    return {
      db,
      session,
      dialect: 'pg',
      lane,
      stall,
      async script(text, prepare) {
        const c = await guarded.connect();
        try {
          if (prepare) await ensurePrepared(c.prepared, prepare, (t) => c.script(t));
          const r = await c.script(text).catch((err) => forgetPrepared(c.prepared, err));
          return (Array.isArray(r) ? r : [r]).map((x) => x.rows ?? []);
        } finally {
          c.release();
        }
      },
      async close() {
        unwatch();
        await db.destroy();
        if (session !== db) await session.destroy();
      },
    };
  }
  const { PGlite, types } = await import('@electric-sql/pglite');
  const dir = opts.dataDir ?? 'memory://';
  if (!dir.startsWith('memory://')) mkdirSync(dir, { recursive: true });
  // Same value shapes as node-postgres: int8 and numeric as strings.
  const pgl = await PGlite.create(dir, {
    parsers: { [types.INT8]: (v: string) => v, [types.NUMERIC]: (v: string) => v },
    // 32 MB of shared buffers instead of PostgreSQL's 128 MB: PGlite sets up all of it in its
    // WebAssembly memory at every start (0.35 s of the embedded warm start, issue 22); pages
    // beyond it come from the operating system's file cache.
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
  });
  const dialect = new PGliteDialect(pgl, lane);
  const db = new Kysely<DB>({ dialect });
  // The names prepared on PGlite's one connection.
  const prepared = new Set<string>();
  return {
    db,
    session: db,
    dialect: 'pglite',
    lane,
    stall,
    // On the driver's lease, so the script takes its turn (and its bounds) like any caller.
    async script(text, prepare) {
      const driver = dialect.driver;
      if (!driver) throw new Error('PGlite driver not initialised');
      const lease = await driver.acquireConnection();
      try {
        if (prepare) await ensurePrepared(prepared, prepare, (t) => lease.exec(t));
        return await lease.exec(text).catch((err) => forgetPrepared(prepared, err));
      } finally {
        await driver.releaseConnection(lease);
      }
    },
    close: async () => {
      await db.destroy();
      await pgl.close();
    },
  };
}

/**
 * The direct session pool: a few connections, each pinned by one leader while it leads (a
 * leader per async projection and per housekeeping loop). No request bounds: a leader's
 * connection sits idle between batches by design, outside any transaction.
 */
function directSession(url: string, onError?: (err: Error) => void): Kysely<DB> {
  const pool = new pg.Pool({ connectionString: url, max: 8, connectionTimeoutMillis: 10_000 });
  pool.on('error', (err) => onError?.(err));
  pool.on('connect', (client) => client.on('error', (err) => onError?.(err)));
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * Prepares on a connection the statements it has not prepared yet. PREPARE is not
 * transactional (a later failure in the same script would not undo it), so it runs on its
 * own; one that exists already (42P05) counts as prepared.
 */
async function ensurePrepared(
  done: Set<string>,
  statements: readonly PreparedStatement[],
  run: (text: string) => Promise<unknown>,
): Promise<void> {
  for (const p of statements) {
    if (done.has(p.name)) continue;
    try {
      await run(`prepare ${p.name} as ${p.sql}`);
    } catch (err) {
      if ((err as { code?: string }).code !== '42P05') throw err;
    }
    done.add(p.name);
  }
}

/** A script that failed because a prepared statement is gone (26000, e.g. after DISCARD): prepare again next time. */
function forgetPrepared(done: Set<string>, err: unknown): never {
  if ((err as { code?: string }).code === '26000') done.clear();
  throw err;
}

const preparedNames = new Map<string, string>();

/** A stable statement name for a query text (`sprout_` + its hash), the same on every connection. */
function preparedName(sql: string): string {
  let name = preparedNames.get(sql);
  if (!name) {
    name = `sprout_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
    preparedNames.set(sql, name);
  }
  return name;
}

export interface TenantContext {
  tenantId: string;
  userId?: string;
}

const SAFE_SETTING = /^[0-9A-Za-z_-]{1,64}$/;

/** Statements of the tenantSettings preamble (each yields one result in a script). */
const SETTINGS_STATEMENTS = 3;

/**
 * `set local role` + the tenant and user settings (`set local`: what `set_config(…, true)`
 * does, without a result row to plan, send and parse); values are validated, never user SQL.
 */
function tenantSettings(ctx: TenantContext) {
  if (!SAFE_SETTING.test(ctx.tenantId)) throw new Error(`invalid tenant id ${JSON.stringify(ctx.tenantId)}`);
  const userId = ctx.userId ?? '';
  if (userId && !SAFE_SETTING.test(userId)) throw new Error('invalid user id');
  return `set local role ${APP_ROLE}; set local app.tenant_id = '${ctx.tenantId}'; set local app.user_id = '${userId}'`;
}

/**
 * One read-only statement as one whole tenant transaction in a single round trip:
 * `set transaction read only; set local role; set local app.…; <query>` sent as one simple
 * query, which PostgreSQL runs as one implicit transaction (the LOCAL settings end with
 * it), the query's values inlined as literals (see inline.ts). Same isolation as
 * inTenant, one round trip instead of three.
 */
/**
 * Runs statements as one implicit tenant transaction in one round trip (see readInTenant);
 * returns the rows of each given statement. `readOnly` refuses writes.
 */
export async function scriptInTenant(
  database: Database,
  ctx: TenantContext,
  statements: Array<Pick<CompiledQuery, 'sql' | 'parameters'>>,
  opts: { readOnly?: boolean; prepared?: boolean } = {},
): Promise<unknown[][]> {
  // The one seam where a tenant's call gets its database (issue 21): bound tenants elsewhere.
  const router = routerOf(database);
  if (router) return router.run(ctx.tenantId, (db) => scriptOn(db, ctx, statements, opts));
  return scriptOn(database, ctx, statements, opts);
}

async function scriptOn(
  database: Database,
  ctx: TenantContext,
  statements: Array<Pick<CompiledQuery, 'sql' | 'parameters'>>,
  opts: { readOnly?: boolean; prepared?: boolean },
): Promise<unknown[][]> {
  const head = `${opts.readOnly ? 'set transaction read only; ' : ''}${tenantSettings(ctx)}`;
  const skip = SETTINGS_STATEMENTS + (opts.readOnly ? 1 : 0);
  const inlined = () => database.script(`${head}; ${statements.map(inlineParameters).join('; ')}`);
  const results =
    opts.prepared && !withoutPrepared.has(database)
      ? await database
          .script(`${head}; ${statements.map(executeText).join('; ')}`, statements.map(preparedOf))
          .catch((err) => unlessPreparedGone(database, err, inlined))
      : await inlined();
  return results.slice(skip, skip + statements.length);
}

/**
 * A prepared script that failed because its statement is not on the connection it reached
 * (26000: after DISCARD ALL, or behind a transaction-mode pooler that hands each script
 * another server connection) ran nothing — the implicit transaction rolled back — so it is
 * run once more with the values inlined, and is never lost.
 */
function unlessPreparedGone(
  database: Database,
  err: unknown,
  inlined: () => Promise<unknown[][]>,
): Promise<unknown[][]> {
  if ((err as { code?: string }).code !== '26000') throw err;
  // Behind a transaction-mode pooler this would repeat on every call: stop preparing here.
  withoutPrepared.add(database);
  return inlined();
}

/** Databases where prepared statements do not stay on a connection (see unlessPreparedGone). */
const withoutPrepared = new WeakSet<Database>();

const preparedOf = (q: Pick<CompiledQuery, 'sql'>): PreparedStatement => ({ name: preparedName(q.sql), sql: q.sql });

/** `execute <name>(<values as literals>)` of a statement prepared from the query's text. */
function executeText(q: Pick<CompiledQuery, 'sql' | 'parameters'>): string {
  const args = q.parameters.length ? `(${q.parameters.map(literal).join(', ')})` : '';
  return `execute ${preparedName(q.sql)}${args}`;
}

export async function readInTenant<R>(
  database: Database,
  ctx: TenantContext,
  query: Pick<CompiledQuery, 'sql' | 'parameters'>,
  opts: { prepared?: boolean } = {},
): Promise<R[]> {
  // Prepared: each connection parses and plans the statement once (PostgreSQL keeps a
  // generic plan after five runs), and the script only EXECUTEs it with the values inlined
  // as literals, the same way. For statements a hot path runs with few, stable shapes:
  // every distinct text is kept on every connection.
  const [rows] = await scriptInTenant(database, ctx, [query], { readOnly: true, prepared: opts.prepared });
  return (rows ?? []) as R[];
}

/**
 * Runs `fn` in one transaction as the app role with `app.tenant_id` set, so PostgreSQL
 * row-level security confines every statement to the tenant. The preamble is one round
 * trip (BEGIN; SET LOCAL ROLE; SET LOCAL app.…) — its values are validated, never user SQL.
 */
export async function inTenant<T>(
  database: Database,
  ctx: TenantContext,
  fn: (trx: Kysely<DB>) => Promise<T>,
): Promise<T> {
  const router = routerOf(database);
  if (router) return router.run(ctx.tenantId, (db) => inTenantOn(db, ctx, fn));
  return inTenantOn(database, ctx, fn);
}

function inTenantOn<T>(database: Database, ctx: TenantContext, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  const preamble = CompiledQuery.raw(`begin; ${tenantSettings(ctx)}`);
  return database.db.connection().execute(async (conn) => {
    await conn.executeQuery(preamble);
    let result: T;
    try {
      result = await database.lane.guard(() => fn(conn));
    } catch (err) {
      await conn.executeQuery(CompiledQuery.raw('rollback')).catch(() => undefined);
      throw err;
    }
    await conn.executeQuery(CompiledQuery.raw('commit'));
    return result;
  });
}

/**
 * Runs `fn` in a transaction as the owner, outside row-level security. Only for work that
 * has no tenant yet (client lookup, sign-in lookups by tenant id, migrations, seeding).
 */
export function inSystem<T>(database: Database, fn: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return database.db.transaction().execute((trx) => database.lane.guard(() => fn(trx)));
}

/** A LIKE pattern matching `text` anywhere, with LIKE's wildcards escaped. */
export const containsPattern = (text: string) => `%${text.replace(/[%_\\]/g, '\\$&')}%`;
