import { sql } from 'kysely';
import type { Tx } from '../../db';
import type { RecordedEvent } from '../types';

/** Where a projection handler writes: the live view, or a new generation's table during a rebuild. */
export interface ProjectionContext {
  /** Relation name to write to (use `sql.table(ctx.table)`). */
  table: string;
  rebuilding: boolean;
}

/**
 * A read model built from the log. Its rows live in a table per generation
 * (`<name>__g<n>`), read and written through a view named `<name>`, so a rebuild fills a new
 * generation beside the live one and swaps the view (blue/green). Every read-model table
 * has a `tenant_id` column; row-level security is applied to it automatically.
 */
export interface ProjectionDefinition {
  /** The view name readers use: lower-case, at most 50 characters. */
  name: string;
  /** `inline`: in the append's transaction; `async`: by the projector, after commit. */
  kind: 'inline' | 'async';
  /** Event types it handles, or '*' for every type. */
  eventTypes: readonly string[] | '*';
  /** Creates one generation's table (and its indexes) under the given name. */
  createTable(trx: Tx, table: string): Promise<void>;
  /**
   * Applies events, in (transaction, position) order, which keeps each stream's order.
   * Must be deterministic: a rebuild replays the same events into an empty table.
   */
  handle(trx: Tx, events: readonly RecordedEvent[], ctx: ProjectionContext): Promise<void>;
}

const NAME = /^[a-z][a-z0-9_]{0,49}$/;
const projections = new Map<string, ProjectionDefinition>();
const inlineByType = new Map<string, ProjectionDefinition[]>();
const inlineForAll: ProjectionDefinition[] = [];

export function registerProjection(def: ProjectionDefinition): void {
  if (!NAME.test(def.name)) throw new Error(`invalid projection name ${JSON.stringify(def.name)}`);
  if (projections.has(def.name)) throw new Error(`projection ${def.name} already registered`);
  projections.set(def.name, def);
  if (def.kind !== 'inline') return;
  if (def.eventTypes === '*') inlineForAll.push(def);
  else
    for (const t of def.eventTypes) {
      const list = inlineByType.get(t) ?? [];
      list.push(def);
      inlineByType.set(t, list);
    }
}

/** Removes a projection (tests, and the CLI's dry runs). */
export function unregisterProjection(name: string): void {
  const def = projections.get(name);
  if (!def) return;
  projections.delete(name);
  for (const [t, list] of inlineByType) {
    const rest = list.filter((d) => d !== def);
    if (rest.length) inlineByType.set(t, rest);
    else inlineByType.delete(t);
  }
  const i = inlineForAll.indexOf(def);
  if (i >= 0) inlineForAll.splice(i, 1);
}

export const registeredProjections = (): ProjectionDefinition[] => [...projections.values()];
export const projectionNamed = (name: string) => projections.get(name);

export function handles(def: ProjectionDefinition, type: string) {
  return def.eventTypes === '*' || def.eventTypes.includes(type);
}

export function inlineProjectionsFor(type: string): readonly ProjectionDefinition[] {
  const byType = inlineByType.get(type);
  if (!inlineForAll.length) return byType ?? [];
  return byType ? [...inlineForAll, ...byType] : inlineForAll;
}

export const generationTable = (name: string, generation: number) => `${name}__g${generation}`;

const lockKey = (name: string) => sql`hashtextextended(${`sprout.projection:${name}`}, 0)`;

/** Transaction-scoped lock serialising read-model DDL of one projection. */
export async function lockProjectionDdl(trx: Tx, name: string) {
  await sql`select pg_advisory_xact_lock(${lockKey(name)})`.execute(trx);
}

/** Row-level security and the app role's grants on one generation's table. */
export async function secureTable(trx: Tx, table: string) {
  await sql`alter table ${sql.table(table)} enable row level security`.execute(trx);
  await sql`drop policy if exists tenant_isolation on ${sql.table(table)}`.execute(trx);
  await sql`
    create policy tenant_isolation on ${sql.table(table)}
    using (tenant_id = (select current_setting('app.tenant_id', true)))
    with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(trx);
  await sql`grant select, insert, update, delete on ${sql.table(table)} to sprout_app`.execute(trx);
}

/**
 * Points the view at a generation's table. `security_invoker` makes reads and writes through
 * the view run with the caller's rights, so the table's row-level security applies to the
 * app role (PostgreSQL ≥ 15).
 */
export async function pointView(trx: Tx, name: string, table: string) {
  const exists = await sql<{ r: string | null }>`select to_regclass(${name})::text as r`.execute(trx);
  if (exists.rows[0]?.r) {
    const same = await sql<{ same: boolean }>`
      select (select array_agg(attname::text || ':' || format_type(atttypid, atttypmod) order by attnum)
                from pg_attribute where attrelid = to_regclass(${name}) and attnum > 0 and not attisdropped)
           = (select array_agg(attname::text || ':' || format_type(atttypid, atttypmod) order by attnum)
                from pg_attribute where attrelid = to_regclass(${table}) and attnum > 0 and not attisdropped) as same`.execute(
      trx,
    );
    // Same columns: replace in place (same relation, so writers waiting on it carry on);
    // otherwise the read model's shape changed and the view is recreated.
    if (!same.rows[0]?.same) await sql`drop view ${sql.table(name)}`.execute(trx);
  }
  await sql`create or replace view ${sql.table(name)} with (security_invoker = true) as select * from ${sql.table(table)}`.execute(
    trx,
  );
  await sql`grant select, insert, update, delete on ${sql.table(name)} to sprout_app`.execute(trx);
}

/**
 * Makes sure the projection's registry row, current generation table and view exist.
 * Idempotent; run as the owner (not the app role), at start by the API and the worker.
 */
export async function ensureReadModel(trx: Tx, def: ProjectionDefinition): Promise<number> {
  await lockProjectionDdl(trx, def.name);
  await trx
    .insertInto('projections')
    .values({ name: def.name, kind: def.kind, updated_at: new Date() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await trx
    .selectFrom('projections')
    .select(['generation', 'kind'])
    .where('name', '=', def.name)
    .executeTakeFirstOrThrow();
  if (row.kind !== def.kind)
    await trx.updateTable('projections').set({ kind: def.kind }).where('name', '=', def.name).execute();
  const table = generationTable(def.name, row.generation);
  const exists = await sql<{ r: string | null }>`select to_regclass(${table})::text as r`.execute(trx);
  if (!exists.rows[0]?.r) {
    await def.createTable(trx, table);
    await secureTable(trx, table);
  }
  const view = await sql<{ r: string | null }>`select to_regclass(${def.name})::text as r`.execute(trx);
  if (!view.rows[0]?.r) await pointView(trx, def.name, table);
  return row.generation;
}
