// Data sources (issue 21, spec §7 /blade-develop/datasource, §3 "Tenant data source"): the
// PostgreSQL databases a tenant can be served from, and the tenant moves between them.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

export async function up(db: Kysely<unknown>): Promise<void> {
  // The platform's (tenant 000000): its password wrapped under the master key, bound to the row.
  await sql`
    create table datasource (
      tenant_id varchar(12) not null default '000000',
      id bigint not null,
      name varchar(100) not null,
      driver_class varchar(100) not null default 'org.postgresql.Driver',
      url varchar(1000) not null,
      username varchar(100) not null,
      secret_key text,
      secret_key_wrapped_by varchar(64),
      remark varchar(255),
      status integer not null default 1,
      is_deleted integer not null default 0,
      create_user bigint,
      create_time timestamptz not null default now(),
      update_user bigint,
      update_time timestamptz not null default now(),
      primary key (tenant_id, id),
      constraint datasource_platform_ck check (tenant_id = '000000')
    )`.execute(db);
  await sql`create unique index datasource_name_uq on datasource (tenant_id, name) where is_deleted = 0`.execute(db);
  // One row per move of a tenant (to a data source, or home to the main database: null).
  await sql`
    create table tenant_move (
      tenant_id varchar(12) not null default '000000',
      id bigint not null,
      moved_tenant_id varchar(12) not null,
      datasource_id bigint,
      phase varchar(16) not null,
      done integer not null default 0,
      total integer not null default 0,
      relation varchar(128),
      error text,
      counts jsonb,
      create_user bigint,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now(),
      primary key (tenant_id, id),
      constraint tenant_move_platform_ck check (tenant_id = '000000')
    )`.execute(db);
  await sql`create index tenant_move_tenant_ix on tenant_move (moved_tenant_id, create_time desc)`.execute(db);
  for (const table of ['datasource', 'tenant_move']) {
    // The platform tenant's alone: requests of any other tenant see and write nothing.
    await sql`alter table ${sql.table(table)} enable row level security`.execute(db);
    await sql`
      create policy platform_only on ${sql.table(table)}
      using ((select current_setting('app.tenant_id', true)) = '000000' and tenant_id = '000000')
      with check ((select current_setting('app.tenant_id', true)) = '000000' and tenant_id = '000000')`.execute(db);
    await sql`grant select, insert, update, delete on ${sql.table(table)} to sprout_app`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists tenant_move`.execute(db);
  await sql`drop table if exists datasource`.execute(db);
}
