import { sql } from 'kysely';
import type { Tx } from '../db';

export interface SnapshotPolicy<State> {
  /** Take a snapshot whenever the stream's version crosses a multiple of this. */
  every: number;
  /** Bump when the state's shape changes: older snapshots are then ignored. */
  version: number;
  /** State → JSON (default: the state itself). */
  toJSON?: (state: State) => unknown;
  /** JSON → state (default: the JSON itself). */
  fromJSON?: (json: unknown) => State;
}

export interface Snapshot<State> {
  state: State;
  version: number;
  subjects: string[];
}

/** The latest usable snapshot of a stream for one decider, if any. */
export async function loadSnapshot<State>(
  trx: Tx,
  tenantId: string,
  streamId: string,
  name: string,
  policy: SnapshotPolicy<State>,
): Promise<Snapshot<State> | undefined> {
  const row = await trx
    .selectFrom('snapshots')
    .select(['state', 'stream_version', 'subjects'])
    .where('tenant_id', '=', tenantId)
    .where('stream_id', '=', streamId)
    .where('name', '=', name)
    .where('schema_version', '=', policy.version)
    .executeTakeFirst();
  if (!row) return undefined;
  const state = policy.fromJSON ? policy.fromJSON(row.state) : (row.state as State);
  return { state, version: row.stream_version, subjects: row.subjects ?? [] };
}

/** Whether appending took the stream across a snapshot boundary. */
export const snapshotDue = (every: number, before: number, after: number) =>
  every > 0 && Math.floor(after / every) > Math.floor(before / every);

/** Stores (replaces) the stream's snapshot for one decider. */
export async function saveSnapshot<State>(
  trx: Tx,
  tenantId: string,
  streamId: string,
  name: string,
  policy: SnapshotPolicy<State>,
  snap: Snapshot<State>,
): Promise<void> {
  const state = JSON.stringify(policy.toJSON ? policy.toJSON(snap.state) : snap.state);
  await sql`
    insert into snapshots (tenant_id, stream_id, name, schema_version, stream_version, state, subjects)
    values (${tenantId}, ${streamId}, ${name}, ${policy.version}, ${snap.version}, ${state}::jsonb, ${snap.subjects}::text[])
    on conflict (tenant_id, stream_id, name) do update
      set schema_version = excluded.schema_version, stream_version = excluded.stream_version,
          state = excluded.state, subjects = excluded.subjects, created_at = now()
      where snapshots.stream_version < excluded.stream_version or snapshots.schema_version <> excluded.schema_version`.execute(
    trx,
  );
}
