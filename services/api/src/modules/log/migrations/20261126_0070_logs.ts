// Logs (issue 17, spec §7 "Logs"): BladeX's LogApi, LogError and LogUsual as three tables.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

/** Columns every log row has (BladeX's AbstractLog): where it ran, the request, who and when. */
const COMMON = `
  tenant_id varchar(12) not null,
  id bigint not null,
  service_id varchar(64) not null default 'sprout-api',
  server_host varchar(255) not null default '',
  server_ip varchar(64) not null default '',
  env varchar(32) not null default '',
  method varchar(10) not null default '',
  request_uri varchar(1000) not null default '',
  user_agent varchar(500) not null default '',
  remote_ip varchar(64) not null default '',
  method_class varchar(255) not null default '',
  method_name varchar(255) not null default '',
  params text not null default '',
  create_user bigint,
  create_by varchar(64) not null default '',
  create_time timestamptz not null default now(),
  primary key (tenant_id, id)`;

const TABLES = {
  api_log: `
    type varchar(16) not null default 'write',
    title varchar(255) not null default '',
    route varchar(255) not null default '',
    status integer not null default 0,
    time integer not null default 0,
    request_id varchar(64) not null default ''`,
  error_log: `
    type varchar(16) not null default 'server',
    title varchar(255) not null default '',
    status integer not null default 0,
    request_id varchar(64) not null default '',
    stack_trace text not null default '',
    exception_name varchar(255) not null default '',
    message text not null default '',
    line_number integer,
    file_name varchar(500) not null default ''`,
  usual_log: `
    log_level varchar(16) not null default 'info',
    log_id varchar(100) not null default '',
    log_data text not null default ''`,
} as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, own] of Object.entries(TABLES)) {
    await sql.raw(`create table ${table} (${own}, ${COMMON})`).execute(db);
    // Lists: a tenant's newest first; retention: the oldest across tenants.
    await sql.raw(`create index ${table}_tenant_time on ${table} (tenant_id, create_time desc, id desc)`).execute(db);
    await sql.raw(`create index ${table}_time on ${table} (create_time)`).execute(db);
    // A tenant reads its own rows; the platform tenant (000000) reads every tenant's (its
    // administrator's view across kindergartens; the error log's routes admit no one else).
    // Rows are written by the owner in batches (the buffer), or as the tenant (a client upload).
    await sql.raw(`alter table ${table} enable row level security`).execute(db);
    await sql
      .raw(`
        create policy tenant_isolation on ${table}
        using (tenant_id = (select current_setting('app.tenant_id', true))
               or (select current_setting('app.tenant_id', true)) = '000000')
        with check (tenant_id = (select current_setting('app.tenant_id', true)))`)
      .execute(db);
    await sql.raw(`grant select, insert on ${table} to sprout_app`).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of Object.keys(TABLES)) await sql.raw(`drop table if exists ${table}`).execute(db);
}
