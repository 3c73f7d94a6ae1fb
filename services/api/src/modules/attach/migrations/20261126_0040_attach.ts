// Attachments (issue 17, spec §7 "Notices and resources"): every stored file of a tenant
// (BladeX's blade_attach), where each is used, and the chunked uploads under way.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

async function tenantTable(db: Kysely<unknown>, table: string) {
  await sql`alter table ${sql.table(table)} enable row level security`.execute(db);
  await sql`
    create policy tenant_isolation on ${sql.table(table)}
    using (tenant_id = (select current_setting('app.tenant_id', true)))
    with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
  await sql`grant select, insert, update, delete on ${sql.table(table)} to sprout_app`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table attach (
      tenant_id varchar(12) not null,
      id bigint not null,
      link varchar(255) not null,
      domain varchar(255) not null default '',
      name varchar(1024) not null,
      original_name varchar(255) not null,
      extension varchar(16) not null,
      attach_size bigint not null,
      content_type varchar(128) not null,
      kind varchar(16) not null,
      thumb_key varchar(1024),
      uploader varchar(64),
      is_deleted integer not null default 0,
      create_user bigint,
      create_time timestamptz not null default now(),
      update_user bigint,
      update_time timestamptz not null default now(),
      primary key (tenant_id, id)
    )`.execute(db);
  await sql`create unique index attach_name_uq on attach (tenant_id, name)`.execute(db);
  await sql`create index attach_time_ix on attach (tenant_id, create_time desc) where is_deleted = 0`.execute(db);
  await tenantTable(db, 'attach');

  await sql`
    create table attach_use (
      tenant_id varchar(12) not null,
      attach_id bigint not null,
      owner_kind varchar(32) not null,
      owner_id varchar(64) not null,
      owner_name varchar(255) not null default '',
      create_time timestamptz not null default now(),
      primary key (tenant_id, attach_id, owner_kind, owner_id)
    )`.execute(db);
  await sql`create index attach_use_owner_ix on attach_use (tenant_id, owner_kind, owner_id)`.execute(db);
  await tenantTable(db, 'attach_use');

  await sql`
    create table chunk_upload (
      tenant_id varchar(12) not null,
      id bigint not null,
      identifier varchar(128) not null,
      create_user bigint not null,
      file_name varchar(255) not null,
      file_size bigint not null,
      chunk_size integer not null,
      chunk_count integer not null,
      kind varchar(16) not null,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now(),
      primary key (tenant_id, id)
    )`.execute(db);
  await sql`create unique index chunk_upload_identifier_uq on chunk_upload (tenant_id, create_user, identifier)`.execute(
    db,
  );
  await sql`create index chunk_upload_time_ix on chunk_upload (update_time)`.execute(db);
  await tenantTable(db, 'chunk_upload');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists chunk_upload`.execute(db);
  await sql`drop table if exists attach_use`.execute(db);
  await sql`drop table if exists attach`.execute(db);
}
