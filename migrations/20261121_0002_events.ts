// The event store: streams, events, idempotency keys, snapshots, crypto-shredding keys and
// the projection registry (see docs/EVENTS.md). Frozen once shipped; never import app code.
import { type Kysely, sql } from 'kysely';

/** Tenant tables: the app role sees only rows of `app.tenant_id` (RLS, same form as 0001). */
const TENANT_TABLES = ['streams', 'events', 'event_idempotency_keys', 'snapshots', 'subject_keys'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table streams (
      tenant_id varchar(12) not null,
      stream_id varchar(64) not null,
      type varchar(64) not null,
      version integer not null,
      -- xid8 of the last transaction that appended: a later append must not have an older
      -- one, so (transaction_id, global_position) order keeps every stream's own order.
      last_transaction_id xid8 not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      archived boolean not null default false,
      primary key (tenant_id, stream_id)
    )`.execute(db);
  await sql`create index streams_type_updated_idx on streams (tenant_id, type, updated_at desc)`.execute(db);

  await sql`
    create table events (
      tenant_id varchar(12) not null,
      global_position bigint generated always as identity,
      stream_type varchar(64) not null,
      stream_id varchar(64) not null,
      stream_version integer not null,
      transaction_id xid8 not null default pg_current_xact_id(),
      type varchar(128) not null,
      schema_version integer not null default 1,
      data jsonb not null,
      metadata jsonb not null,
      recorded_at timestamptz not null default now(),
      primary key (tenant_id, global_position),
      unique (tenant_id, stream_id, stream_version)
    )`.execute(db);
  // The projectors' read order: (transaction_id, global_position), below the oldest running xid.
  await sql`create index events_tx_position_idx on events (transaction_id, global_position)`.execute(db);
  await sql`create index events_recorded_idx on events (tenant_id, recorded_at)`.execute(db);
  await sql`create index events_actor_idx on events (tenant_id, (metadata->>'actorId'), recorded_at)`.execute(db);

  await sql`
    create table event_idempotency_keys (
      tenant_id varchar(12) not null,
      idempotency_key varchar(200) not null,
      stream_id varchar(64) not null,
      first_version integer,
      last_version integer,
      first_position bigint,
      last_position bigint,
      transaction_id xid8,
      created_at timestamptz not null default now(),
      primary key (tenant_id, idempotency_key)
    )`.execute(db);
  await sql`create index event_idempotency_keys_created_idx on event_idempotency_keys (created_at)`.execute(db);

  await sql`
    create table snapshots (
      tenant_id varchar(12) not null,
      stream_id varchar(64) not null,
      name varchar(64) not null,
      schema_version integer not null,
      stream_version integer not null,
      state jsonb not null,
      -- data subjects whose personal data may be inside the state (erasure drops the snapshot)
      subjects text[] not null default '{}',
      created_at timestamptz not null default now(),
      primary key (tenant_id, stream_id, name)
    )`.execute(db);

  await sql`
    create table subject_keys (
      tenant_id varchar(12) not null,
      subject_id varchar(128) not null,
      -- AES-256-GCM data key; null once destroyed (crypto-shredded)
      key bytea,
      created_at timestamptz not null default now(),
      destroyed_at timestamptz,
      destroyed_by varchar(64),
      primary key (tenant_id, subject_id)
    )`.execute(db);

  // System table: projection generations and checkpoints. Not for the app role.
  await sql`
    create table projections (
      name varchar(63) primary key,
      kind varchar(10) not null,
      generation integer not null default 1,
      transaction_id xid8 not null default '0',
      global_position bigint not null default 0,
      events_processed bigint not null default 0,
      rebuilt_at timestamptz,
      updated_at timestamptz not null default now()
    )`.execute(db);

  for (const table of TENANT_TABLES) {
    // Enabled, not forced: the app role (not an owner) is always confined to its tenant; the
    // owner's system processes (projectors, rebuilds) read across tenants.
    await sql`alter table ${sql.table(table)} enable row level security`.execute(db);
    await sql`
      create policy tenant_isolation on ${sql.table(table)}
      using (tenant_id = (select current_setting('app.tenant_id', true)))
      with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
    await sql`grant select, insert, update, delete on ${sql.table(table)} to sprout_app`.execute(db);
  }
  await sql`grant usage, select on sequence events_global_position_seq to sprout_app`.execute(db);
  // The log is append-only for the app: erasure destroys keys, never rewrites events.
  await sql`revoke update, delete, truncate on events from sprout_app`.execute(db);
  await sql`revoke all on projections from sprout_app`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['projections', 'subject_keys', 'snapshots', 'event_idempotency_keys', 'events', 'streams']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
