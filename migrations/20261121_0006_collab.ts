// Live co-editing (issue 8): Yjs documents persisted as an append-only update log per
// document, merged periodically into a compacted state, and who wrote since the last
// saved revision. Policies compare with (select current_setting(...)): an InitPlan
// evaluated once per statement, not once per row.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

const TENANT_TABLES = ['collab_doc', 'collab_update', 'collab_author'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per document ever opened (`week:<id>`), created with its seed (the record's
  // content) exactly once: insert … on conflict do nothing.
  await sql`
    create table collab_doc (
      tenant_id varchar(12) not null,
      doc_name varchar(64) not null,
      -- Yjs update (v1) of everything merged so far: the seed and compacted updates
      state bytea not null,
      -- the highest collab_update.seq merged into state
      state_seq bigint not null default 0,
      -- updates up to this seq are in a saved revision (an event of the record)
      revision_seq bigint not null default 0,
      revision_time timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (tenant_id, doc_name)
    )`.execute(db);

  // Every accepted update, appended before it is acknowledged as stored; compaction merges rows
  // into collab_doc.state and deletes them. user_id null: written by the server (content
  // written through the API).
  await sql`
    create table collab_update (
      tenant_id varchar(12) not null,
      doc_name varchar(64) not null,
      seq bigint generated always as identity,
      user_id bigint,
      update bytea not null,
      created_at timestamptz not null default now(),
      primary key (tenant_id, doc_name, seq)
    )`.execute(db);

  // The authors of updates that compaction merged into the state, and the last of their
  // updates (until then the rows name their authors): the co-authors of the next revision are
  // the authors of rows, or of merged rows, past collab_doc.revision_seq.
  await sql`
    create table collab_author (
      tenant_id varchar(12) not null,
      doc_name varchar(64) not null,
      user_id bigint not null,
      last_seq bigint not null,
      primary key (tenant_id, doc_name, user_id)
    )`.execute(db);

  for (const table of TENANT_TABLES) {
    // Enabled, not forced (as the other tables): requests run as sprout_app and are always
    // confined; the owner (migrations, maintenance) is not.
    await sql`alter table ${sql.table(table)} enable row level security`.execute(db);
    await sql`
      create policy tenant_isolation on ${sql.table(table)}
      using (tenant_id = (select current_setting('app.tenant_id', true)))
      with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
    await sql`grant select, insert, update, delete on ${sql.table(table)} to sprout_app`.execute(db);
  }
  await sql`grant usage, select on sequence collab_update_seq_seq to sprout_app`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [...TENANT_TABLES].reverse()) await sql`drop table if exists ${sql.table(table)}`.execute(db);
}
