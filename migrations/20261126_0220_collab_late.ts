// Submitting while a co-author types (issue 23, item 5): the live document as it was
// submitted (its mark), and what its editors typed after the submit, kept per user to be
// offered back to them. Policies as in 0006.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

const TENANT_TABLES = ['collab_submit', 'collab_late'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  // The last submission of a document: the Yjs state it was read from and the highest update
  // seq it holds. Open while the record is under review: update rows above `seq` are typed
  // after the submit (compaction leaves them alone); closed once the record is editable again.
  await sql`
    create table collab_submit (
      tenant_id varchar(12) not null,
      doc_name varchar(64) not null,
      seq bigint not null,
      state bytea not null,
      open boolean not null default true,
      submitted_at timestamptz not null default now(),
      primary key (tenant_id, doc_name)
    )`.execute(db);

  // Updates an editor sent after the submit (the document read-only by then), never part of
  // the document: offered back to their author, deleted when she takes or dismisses them.
  await sql`
    create table collab_late (
      tenant_id varchar(12) not null,
      doc_name varchar(64) not null,
      seq bigint generated always as identity,
      user_id bigint not null,
      update bytea not null,
      created_at timestamptz not null default now(),
      primary key (tenant_id, doc_name, seq)
    )`.execute(db);
  await sql`create index collab_late_user on collab_late (tenant_id, doc_name, user_id)`.execute(db);

  for (const table of TENANT_TABLES) {
    await sql`alter table ${sql.table(table)} enable row level security`.execute(db);
    await sql`
      create policy tenant_isolation on ${sql.table(table)}
      using (tenant_id = (select current_setting('app.tenant_id', true)))
      with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
    await sql`grant select, insert, update, delete on ${sql.table(table)} to sprout_app`.execute(db);
  }
  await sql`grant usage, select on sequence collab_late_seq_seq to sprout_app`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [...TENANT_TABLES].reverse()) await sql`drop table if exists ${sql.table(table)}`.execute(db);
}
