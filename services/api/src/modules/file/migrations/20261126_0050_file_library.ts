// The file library (issue 17, spec §7 "Files"): kinds (a tree), file types, the library's
// files (each an attachment of the attach context) and their text recognitions.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

const STAMPS = sql`
  is_deleted integer not null default 0,
  create_user bigint,
  create_time timestamptz not null default now(),
  update_user bigint,
  update_time timestamptz not null default now(),
  primary key (tenant_id, id)`;

const TABLES = ['file_kind', 'file_type', 'library_file', 'file_identify'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table file_kind (
      tenant_id varchar(12) not null,
      id bigint not null,
      parent_id bigint not null default 0,
      kind_name varchar(64) not null,
      sort integer not null default 0,
      remark varchar(255),
      ${STAMPS}
    )`.execute(db);
  await sql`create index file_kind_parent on file_kind (tenant_id, parent_id) where is_deleted = 0`.execute(db);
  await sql`
    create table file_type (
      tenant_id varchar(12) not null,
      id bigint not null,
      type_name varchar(64) not null,
      extensions varchar(255) not null,
      max_size integer not null,
      remark varchar(255),
      ${STAMPS}
    )`.execute(db);
  await sql`create unique index file_type_name_uq on file_type (tenant_id, type_name) where is_deleted = 0`.execute(db);
  await sql`
    create table library_file (
      tenant_id varchar(12) not null,
      id bigint not null,
      kind_id bigint not null,
      name varchar(255) not null,
      attach_id bigint not null,
      link varchar(1000) not null,
      size bigint not null,
      mime varchar(255) not null,
      extension varchar(32) not null default '',
      tags varchar(500),
      remark varchar(500),
      dept_id bigint,
      ${STAMPS}
    )`.execute(db);
  await sql`create index library_file_kind on library_file (tenant_id, kind_id, create_time desc) where is_deleted = 0`.execute(
    db,
  );
  await sql`
    create table file_identify (
      tenant_id varchar(12) not null,
      id bigint not null,
      file_id bigint not null,
      attach_id bigint not null,
      file_name varchar(255) not null,
      status varchar(16) not null,
      content text,
      error varchar(500),
      pages integer,
      finish_time timestamptz,
      ${STAMPS}
    )`.execute(db);
  await sql`create index file_identify_file on file_identify (tenant_id, file_id) where is_deleted = 0`.execute(db);
  // Each tenant's own rows (as param): requests run as sprout_app and are confined to their tenant.
  for (const t of TABLES) {
    const table = sql.table(t);
    await sql`alter table ${table} enable row level security`.execute(db);
    await sql`
      create policy tenant_isolation on ${table}
      using (tenant_id = (select current_setting('app.tenant_id', true)))
      with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
    await sql`grant select, insert, update, delete on ${table} to sprout_app`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [...TABLES].reverse()) await sql`drop table if exists ${sql.table(t)}`.execute(db);
}
