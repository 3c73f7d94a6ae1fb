import { sql } from 'kysely';
import pg from 'pg';
import { type Database, inSystem, type OpenOptions, openDatabase, tenantRouter } from '../db';
import { keyWrapper } from '../keys';
import { PLATFORM_TENANT_ID } from '../permissions/constants';
import { prepareDatabase } from './move';

/** A data source row as stored (migration 0320). */
export interface DataSourceRow {
  id: string;
  name: string;
  url: string;
  username: string;
  secret_key: string | null;
  secret_key_wrapped_by: string | null;
}

/** What the password is wrapped under: the row's column, tenant and id (as http/secret.ts `rowSecret`). */
export const dataSourceSecretContext = (id: unknown) =>
  `datasource.secret_key\u0000${PLATFORM_TENANT_ID}\u0000${String(id)}`;

/** The password in plain, for the connection only (never for an answer). */
export async function dataSourcePassword(row: Pick<DataSourceRow, 'id' | 'secret_key' | 'secret_key_wrapped_by'>) {
  if (!row.secret_key) return '';
  if (!row.secret_key_wrapped_by) return row.secret_key;
  const plain = await keyWrapper().unwrap(
    { keyId: row.secret_key_wrapped_by, data: Buffer.from(row.secret_key, 'base64') },
    dataSourceSecretContext(row.id),
  );
  return plain.toString('utf8');
}

/**
 * A data source's URL as BladeX keeps it (`jdbc:postgresql://host:5432/db?…`) or as
 * PostgreSQL writes it (`postgresql://host/db`), read: host, port, database and options; a
 * user or password inside it is refused (they have fields of their own). Undefined: not one.
 */
export function parseDataSourceUrl(url: string): URL | undefined {
  const text = url.trim().replace(/^jdbc:/i, '');
  if (!/^postgres(ql)?:\/\//i.test(text)) return undefined;
  let u: URL;
  try {
    u = new URL(text.replace(/^postgres(ql)?:/i, 'postgresql:'));
  } catch {
    return undefined;
  }
  if (!u.hostname || u.username || u.password) return undefined;
  if (!/^\/[^/]+$/.test(u.pathname)) return undefined;
  return u;
}

/** The connection string node-postgres takes: the URL with the user and password set. */
export function connectionString(url: string, username: string, password: string): string {
  const u = parseDataSourceUrl(url);
  if (!u) throw new Error('not a PostgreSQL data source URL');
  u.username = username;
  u.password = password;
  return u.toString();
}

/**
 * Connects once (a bounded wait) and asks the server its version: the reason the server or
 * the network gives when it fails (wrong password, unknown database, refused, timed out).
 */
export async function testConnection(
  url: string,
  username: string,
  password: string,
  timeoutMs = 5000,
): Promise<{ ok: true; version: string } | { ok: false; reason: string }> {
  const client = new pg.Client({
    connectionString: connectionString(url, username, password),
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
  });
  // A dropped connection after the test must not crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const r = await client.query<{ v: string }>('select current_setting($1) as v', ['server_version']);
    return { ok: true, version: r.rows[0]?.v ?? '' };
  } catch (err) {
    const e = err as Error & { code?: string };
    const reason = e.message || e.code || String(err);
    return { ok: false, reason: reason.slice(0, 500) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The databases of the data sources, opened once per main database. */
const opened = new WeakMap<Database, Map<string, Promise<Database>>>();

/** The data source's database (opened on first use with the main one's bounds). */
export function dataSourceDatabase(main: Database, row: DataSourceRow, options: OpenOptions = {}): Promise<Database> {
  let byId = opened.get(main);
  if (!byId) {
    byId = new Map();
    opened.set(main, byId);
  }
  let db = byId.get(row.id);
  if (!db) {
    const open = (async () =>
      openDatabase({
        ...options,
        url: connectionString(row.url, row.username, await dataSourcePassword(row)),
        dataDir: undefined,
      }))();
    byId.set(row.id, open);
    // A failed open is forgotten, so the next attempt tries again.
    open.catch(() => byId?.delete(row.id));
    db = open;
  }
  return db;
}

/** Forgets (and closes) a data source's database: after its row changed or went. */
export async function forgetDataSource(main: Database, id: string): Promise<void> {
  const db = opened.get(main)?.get(id);
  opened.get(main)?.delete(id);
  await (await db?.catch(() => undefined))?.close().catch(() => undefined);
}

/** Closes every data source's database of `main`. */
export async function closeDataSources(main: Database): Promise<void> {
  const byId = opened.get(main);
  if (!byId) return;
  opened.delete(main);
  for (const db of byId.values()) await (await db.catch(() => undefined))?.close().catch(() => undefined);
}

/** A live data source by id, as the owner (null: none). */
export async function findDataSource(main: Database, id: string): Promise<DataSourceRow | null> {
  return inSystem(main, async (trx) => {
    const r = await sql<DataSourceRow>`
      select id::text, name, url, username, secret_key, secret_key_wrapped_by from datasource
      where tenant_id = ${PLATFORM_TENANT_ID} and id = ${id} and is_deleted = 0`.execute(trx);
    return r.rows[0] ?? null;
  });
}

/**
 * At start: every tenant bound to a data source is served from it. Each database is opened,
 * migrated to the main one's version (an empty one from scratch; another version refuses),
 * given the read models and the platform's mirror, then bound. A database that cannot be
 * opened leaves its tenants refused with a 503 (never served from the main database).
 */
export async function bindDataSources(
  main: Database,
  options: OpenOptions,
  log: (msg: string) => void = () => {},
): Promise<{ bound: string[]; down: string[] }> {
  const rows = await inSystem(main, async (trx) => {
    const r = await sql<DataSourceRow & { tenant_ids: string[] }>`
      select d.id::text, d.name, d.url, d.username, d.secret_key, d.secret_key_wrapped_by,
             array_agg(t.tenant_id order by t.tenant_id) as tenant_ids
      from tenant t join datasource d on d.tenant_id = ${PLATFORM_TENANT_ID} and d.id = t.datasource_id
      where t.is_deleted = 0
      group by d.id, d.name, d.url, d.username, d.secret_key, d.secret_key_wrapped_by`.execute(trx);
    return r.rows;
  });
  const router = rows.length ? tenantRouter(main) : undefined;
  const out = { bound: [] as string[], down: [] as string[] };
  for (const row of rows) {
    try {
      const db = await dataSourceDatabase(main, row, options);
      await prepareDatabase(main, db);
      for (const t of row.tenant_ids) router?.bind(t, db);
      out.bound.push(...row.tenant_ids);
      log(`data source ${row.name}: serving tenants ${row.tenant_ids.join(', ')}`);
    } catch (err) {
      for (const t of row.tenant_ids) router?.markDown(t);
      out.down.push(...row.tenant_ids);
      log(
        `data source ${row.name} cannot serve (${err instanceof Error ? err.message : String(err)}): tenants ${row.tenant_ids.join(', ')} answer 503`,
      );
    }
  }
  return out;
}
