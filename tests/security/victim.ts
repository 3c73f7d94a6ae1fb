import { sql } from 'kysely';
import { type Database, inSystem } from '@sprout/core/db';
type TestDatabase = { database: Database };

/**
 * What the victim tenant owns, read as the owner (no row-level security) straight from the
 * catalogue of the database, so new tables are covered without editing the suite:
 * - its distinctive values: the ids of its rows and its names, accounts, phones, titles…
 *   (text columns), minus every value that also occurs in another tenant (the shared catalogue,
 *   standard posts and roles, `admin`…);
 * - a few real ids per table, to put in every id-like parameter;
 * - a snapshot (row count and hash per table) to tell whether anything of it changed.
 */

/** Text columns that hold kinds, states or machinery rather than the tenant's own data. */
const NOT_DATA =
  /^(tenant_id|status|kind|type|stream_type|grant_type|client_id|source|event|result|scope|semester|school_year|user_agent|ip|revoke_reason|error|param_key|param_value|schema_version|role_alias|post_code|code|resource_code|category|action|detail|token_auth_method|subject_claim|username_claim)$|_hash$|_at$|_time$|_date$/;

/**
 * Tables whose rows an attacker may legitimately add to the victim: the log of attempts against
 * it (a sign-in or registration naming the victim tenant lands in its security, API and usual logs).
 */
export const APPEND_ONLY_LOGS = new Set(['security_log', 'api_log', 'usual_log', 'error_log']);

interface Column {
  table_schema: string;
  table_name: string;
  column_name: string;
  data_type: string;
  table_type: string;
}

const TEXT = ['character varying', 'text', 'character'];

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function tenantRelations(t: TestDatabase) {
  return inSystem(t.database, async (trx) => {
    const { rows } = await sql<Column>`
      select c.table_schema, c.table_name, c.column_name, c.data_type, t.table_type
        from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
       where c.table_schema not in ('pg_catalog', 'information_schema')
         and exists (select 1 from information_schema.columns k
                      where k.table_schema = c.table_schema and k.table_name = c.table_name
                        and k.column_name = 'tenant_id')
       order by c.table_schema, c.table_name, c.ordinal_position`.execute(trx);
    const byRelation = new Map<string, { schema: string; name: string; base: boolean; columns: Column[] }>();
    for (const c of rows) {
      const key = `${c.table_schema}.${c.table_name}`;
      const r = byRelation.get(key) ?? {
        schema: c.table_schema,
        name: c.table_name,
        base: c.table_type === 'BASE TABLE',
        columns: [],
      };
      r.columns.push(c);
      byRelation.set(key, r);
    }
    return [...byRelation.values()];
  });
}

export interface VictimProfile {
  /** Distinctive values of the victim (ids as strings, names…), each with where it came from. */
  values: Map<string, string>;
  /** Up to a few real ids per table (and stream ids), to put in id-like parameters. */
  idsByTable: Map<string, string[]>;
}

export async function victimProfile(t: TestDatabase, victim: string, perTable = 2): Promise<VictimProfile> {
  const relations = await tenantRelations(t);
  const mine = new Map<string, string>();
  const elsewhere = new Set<string>();
  const idsByTable = new Map<string, string[]>();
  await inSystem(t.database, async (trx) => {
    for (const r of relations) {
      const isData = (c: Column) =>
        (c.column_name === 'id' && c.data_type === 'bigint') ||
        c.column_name === 'stream_id' ||
        c.column_name === 'doc_name' ||
        (TEXT.includes(c.data_type) && !NOT_DATA.test(c.column_name));
      const cols = r.columns.filter(isData);
      const from = `${q(r.schema)}.${q(r.name)}`;
      // Every text or id value of another tenant is common knowledge, whatever its column.
      for (const c of r.columns.filter((c) => isData(c) || TEXT.includes(c.data_type))) {
        const { rows } = await sql<{ v: string; victim: boolean }>`
          select distinct ${sql.raw(q(c.column_name))}::text as v, tenant_id = ${victim} as victim
            from ${sql.raw(from)} where ${sql.raw(q(c.column_name))} is not null`.execute(trx);
        for (const row of rows) {
          if (!row.victim) elsewhere.add(row.v);
          else if (isData(c)) mine.set(row.v, `${r.name}.${c.column_name}`);
        }
      }
      if (r.base) {
        const idCol = cols.find((c) => c.column_name === 'id') ?? cols.find((c) => c.column_name === 'stream_id');
        if (idCol) {
          const { rows } = await sql<{ v: string }>`
            select ${sql.raw(q(idCol.column_name))}::text as v from ${sql.raw(from)}
             where tenant_id = ${victim} order by 1 limit ${perTable}`.execute(trx);
          if (rows.length)
            idsByTable.set(
              r.name,
              rows.map((x) => x.v),
            );
        }
      }
    }
  });
  const values = new Map<string, string>();
  for (const [v, where] of mine) {
    if (elsewhere.has(v)) continue;
    // Too short or too common to mean anything on its own.
    if (/^\d{1,5}$/.test(v) || v.trim().length < 2 || /^[\x20-\x7e]{1,3}$/.test(v)) continue;
    values.set(v, where);
  }
  return { values, idsByTable };
}

export interface Snapshot {
  tables: Map<string, { rows: number; hash: string }>;
}

/** Row count and a hash of every row of `tenantId`, per base table. */
export async function snapshot(t: TestDatabase, tenantId: string, skip: Set<string> = APPEND_ONLY_LOGS) {
  const relations = (await tenantRelations(t)).filter((r) => r.base && !skip.has(r.name));
  const tables = new Map<string, { rows: number; hash: string }>();
  await inSystem(t.database, async (trx) => {
    for (const r of relations) {
      const from = `${q(r.schema)}.${q(r.name)}`;
      const { rows } = await sql<{ n: string; h: string | null }>`
        select count(*)::text as n, md5(string_agg(x::text, '|' order by x::text)) as h
          from ${sql.raw(from)} x where x.tenant_id = ${tenantId}`.execute(trx);
      tables.set(`${r.schema}.${r.name}`, { rows: Number(rows[0]?.n ?? 0), hash: rows[0]?.h ?? '' });
    }
  });
  return { tables } satisfies Snapshot;
}

/** The tables whose rows of the tenant differ between two snapshots. */
export function changed(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const [name, b] of before.tables) {
    const a = after.tables.get(name);
    if (!a) out.push(`${name}: gone`);
    else if (a.hash !== b.hash) out.push(`${name}: ${b.rows} → ${a.rows} rows, contents changed`);
  }
  for (const name of after.tables.keys()) if (!before.tables.has(name)) out.push(`${name}: new table`);
  return out;
}

/**
 * Victim values among the leaves of a JSON answer (exact matches of strings and numbers),
 * leaving out what the request itself carried (an echo is not a leak).
 */
export function leakedValues(body: string, values: Map<string, string>, sent: Set<string>): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    // Not JSON (a file, a document): look for the victim's ids and names as substrings.
    const out: string[] = [];
    for (const [v, where] of values) if (!sent.has(v) && v.length >= 4 && body.includes(v)) out.push(`${v} (${where})`);
    return out.slice(0, 5);
  }
  const out: string[] = [];
  const walk = (x: unknown, path: string) => {
    if (out.length >= 5) return;
    if (x === null || x === undefined) return;
    if (typeof x === 'string' || typeof x === 'number' || typeof x === 'bigint') {
      const s = String(x);
      const where = values.get(s);
      if (where && !sent.has(s)) out.push(`${path}=${s} (${where})`);
      return;
    }
    if (Array.isArray(x)) {
      for (const [i, v] of x.entries()) walk(v, `${path}[${i}]`);
    } else if (typeof x === 'object') for (const [k, v] of Object.entries(x)) walk(v, path ? `${path}.${k}` : k);
  };
  walk(parsed, '');
  return out;
}
