// Policies compare with (select current_setting(...)): an InitPlan evaluated once per statement, not once per row.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

const TENANT_TABLES = ['app_user', 'role', 'user_role'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  // The role every request runs as. Not a superuser, not an owner: row-level security applies.
  // Created only when missing: a non-superuser owner (managed PostgreSQL) may not create
  // roles at all, so its DBA creates sprout_app and grants it to the owner beforehand.
  await sql`
    do $$ begin
      if not exists (select 1 from pg_roles where rolname = 'sprout_app') then
        create role sprout_app nologin;
      end if;
    exception when duplicate_object or unique_violation then null;
    end $$`.execute(db);
  await sql`do $$ begin execute format('grant sprout_app to %I', current_user);
    exception when others then null; end $$`.execute(db);
  await sql`grant usage on schema public to sprout_app`.execute(db);
  await sql`alter default privileges in schema public grant select, insert, update, delete on tables to sprout_app`.execute(
    db,
  );
  await sql`alter default privileges in schema public grant usage, select on sequences to sprout_app`.execute(db);

  await sql`
    create table tenant (
      tenant_id varchar(12) primary key,
      tenant_name varchar(100) not null,
      domain varchar(255),
      background_url varchar(1000),
      contact_person varchar(50),
      contact_number varchar(30),
      address varchar(255),
      account_number integer not null default -1,
      expire_time timestamptz,
      status integer not null default 1,
      is_deleted integer not null default 0,
      create_user bigint,
      create_time timestamptz not null default now(),
      update_user bigint,
      update_time timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index tenant_domain_uq on tenant (domain) where domain is not null and is_deleted = 0`.execute(
    db,
  );

  await sql`
    create table client (
      tenant_id varchar(12) not null,
      id bigint not null,
      client_id varchar(64) not null,
      client_secret_hash text not null,
      grant_types text[] not null,
      scope varchar(100) not null default 'all',
      access_token_validity integer not null,
      refresh_token_validity integer not null,
      web_server_redirect_uri varchar(1000),
      status integer not null default 1,
      is_deleted integer not null default 0,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now(),
      primary key (tenant_id, id)
    )`.execute(db);
  await sql`create unique index client_client_id_uq on client (tenant_id, client_id) where is_deleted = 0`.execute(db);

  await sql`
    create table app_user (
      tenant_id varchar(12) not null,
      id bigint not null,
      account varchar(64) not null,
      password_hash text not null,
      name varchar(64),
      real_name varchar(64),
      email varchar(255),
      phone varchar(30),
      avatar varchar(1000),
      sex integer,
      birthday date,
      dept_id bigint,
      post_id bigint,
      user_type integer not null default 1,
      status integer not null default 1,
      is_deleted integer not null default 0,
      create_user bigint,
      create_time timestamptz not null default now(),
      update_user bigint,
      update_time timestamptz not null default now(),
      primary key (tenant_id, id)
    )`.execute(db);
  await sql`create unique index app_user_account_uq on app_user (tenant_id, account) where is_deleted = 0`.execute(db);
  await sql`create index app_user_create_time_idx on app_user (tenant_id, create_time desc, id desc)`.execute(db);

  await sql`
    create table role (
      tenant_id varchar(12) not null,
      id bigint not null,
      parent_id bigint not null default 0,
      role_name varchar(64) not null,
      role_alias varchar(64) not null,
      sort integer not null default 0,
      is_deleted integer not null default 0,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now(),
      primary key (tenant_id, id)
    )`.execute(db);
  await sql`create unique index role_alias_uq on role (tenant_id, role_alias) where is_deleted = 0`.execute(db);

  await sql`
    create table user_role (
      tenant_id varchar(12) not null,
      user_id bigint not null,
      role_id bigint not null,
      primary key (tenant_id, user_id, role_id)
    )`.execute(db);

  // Tenant isolation underneath every application check. Enabled, not forced: requests run
  // as sprout_app and are always confined; the owner (migrations, seed, sign-in lookups
  // that precede a tenant) is not — forcing it would blind a non-superuser owner.
  for (const table of TENANT_TABLES) {
    await sql`alter table ${sql.table(table)} enable row level security`.execute(db);
    await sql`
      create policy tenant_isolation on ${sql.table(table)}
      using (tenant_id = (select current_setting('app.tenant_id', true)))
      with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
  }
  // Tenants and clients: a tenant sees its own row; the platform tenant (000000) sees all.
  for (const table of ['tenant', 'client'] as const) {
    await sql`alter table ${sql.table(table)} enable row level security`.execute(db);
    await sql`
      create policy tenant_isolation on ${sql.table(table)}
      using (tenant_id = (select current_setting('app.tenant_id', true)) or (select current_setting('app.tenant_id', true)) = '000000')
      with check ((select current_setting('app.tenant_id', true)) = '000000')`.execute(db);
  }
  // Default privileges cover tables created after the grant; be explicit for these too.
  await sql`grant select, insert, update, delete on all tables in schema public to sprout_app`.execute(db);
  await sql`revoke all on kysely_migration, kysely_migration_lock from sprout_app`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['user_role', 'role', 'app_user', 'client', 'tenant']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
