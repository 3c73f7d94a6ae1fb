// Teaching records, part 1 (issue 7): templates, tenant parameters and export jobs.
// The records themselves are event streams (0002); their lists are read models the
// projection registry creates (record_list, record_favorite, record_activity).
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

const TABLES = ['record_template', 'tenant_param', 'record_export'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  // A plan template: the structure of a week or a day plan, shared in the tenant or personal.
  await sql`
    create table record_template (
      tenant_id varchar(12) not null,
      id bigint not null,
      name varchar(100) not null,
      kind varchar(10) not null,
      content jsonb not null,
      shared boolean not null default false,
      create_user bigint not null,
      create_user_name varchar(64) not null default '',
      is_deleted integer not null default 0,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now(),
      primary key (tenant_id, id),
      constraint record_template_kind_ck check (kind in ('week', 'half', 'full'))
    )`.execute(db);
  await sql`create index record_template_list_idx on record_template (tenant_id, kind, create_time desc) where is_deleted = 0`.execute(
    db,
  );

  // A tenant's settings for its screens (e.g. week.halfPlanLayout = tianyuan | tongxing).
  await sql`
    create table tenant_param (
      tenant_id varchar(12) not null,
      param_key varchar(100) not null,
      param_value varchar(1000) not null,
      update_time timestamptz not null default now(),
      primary key (tenant_id, param_key)
    )`.execute(db);

  // A multi-record export: its progress while it runs, then the file for an hour.
  await sql`
    create table record_export (
      tenant_id varchar(12) not null,
      id bigint not null,
      user_id bigint not null,
      status varchar(10) not null default 'running',
      done integer not null default 0,
      total integer not null,
      file_name varchar(200) not null,
      file bytea,
      error varchar(500),
      create_time timestamptz not null default now(),
      expires_at timestamptz not null,
      primary key (tenant_id, id),
      constraint record_export_status_ck check (status in ('running', 'done', 'failed'))
    )`.execute(db);
  await sql`create index record_export_expiry_idx on record_export (expires_at)`.execute(db);

  for (const table of TABLES) {
    await sql`alter table ${sql.table(table)} enable row level security`.execute(db);
    await sql`
      create policy tenant_isolation on ${sql.table(table)}
      using (tenant_id = (select current_setting('app.tenant_id', true)))
      with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
    await sql`grant select, insert, update, delete on ${sql.table(table)} to sprout_app`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [...TABLES].reverse()) await sql`drop table if exists ${sql.table(table)}`.execute(db);
}
