// Sign-in, sessions and the security log (issue 4).
// Policies compare with (select current_setting(...)): an InitPlan evaluated once per statement, not once per row.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

const TENANT_TABLES = ['user_oauth', 'auth_session', 'auth_refresh_token', 'security_log', 'oauth_provider'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  // app_user.status: 1 active, 0 disabled, 2 pending approval (待审核), 3 registration rejected.
  await sql`comment on column app_user.status is '1 active, 0 disabled, 2 pending approval, 3 rejected'`.execute(db);

  // A third-party identity (social sign-in). user_id is null until a local user is bound
  // (the web app then opens the registration dialog with this row's id as oauth_id).
  await sql`
    create table user_oauth (
      tenant_id varchar(12) not null,
      id bigint not null,
      user_id bigint,
      source varchar(64) not null,
      uuid varchar(255) not null,
      username varchar(255),
      nickname varchar(255),
      avatar varchar(1000),
      email varchar(255),
      phone varchar(30),
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now(),
      primary key (tenant_id, id)
    )`.execute(db);
  await sql`create unique index user_oauth_identity_uq on user_oauth (tenant_id, source, uuid)`.execute(db);
  await sql`create index user_oauth_user_idx on user_oauth (tenant_id, user_id) where user_id is not null`.execute(db);

  // One row per sign-in; every access token carries its id (sid) and dies with it.
  await sql`
    create table auth_session (
      tenant_id varchar(12) not null,
      id bigint not null,
      user_id bigint not null,
      client_id varchar(64) not null,
      grant_type varchar(20) not null,
      ip varchar(64),
      user_agent varchar(500),
      create_time timestamptz not null default now(),
      last_refresh_time timestamptz,
      expire_time timestamptz not null,
      revoke_time timestamptz,
      revoke_reason varchar(32),
      primary key (tenant_id, id)
    )`.execute(db);
  await sql`create index auth_session_user_idx on auth_session (tenant_id, user_id) where revoke_time is null`.execute(
    db,
  );

  // Opaque refresh tokens, stored as sha256; a used one must never work again (rotation).
  await sql`
    create table auth_refresh_token (
      tenant_id varchar(12) not null,
      token_hash char(64) not null,
      session_id bigint not null,
      user_id bigint not null,
      create_time timestamptz not null default now(),
      expire_time timestamptz not null,
      used_time timestamptz,
      primary key (tenant_id, token_hash)
    )`.execute(db);
  await sql`create index auth_refresh_token_session_idx on auth_refresh_token (tenant_id, session_id)`.execute(db);

  // Who signed in (or failed, was locked, reused a refresh token, signed out), from where.
  await sql`
    create table security_log (
      tenant_id varchar(12) not null,
      id bigint not null,
      event varchar(32) not null,
      result varchar(16) not null,
      account varchar(64),
      user_id bigint,
      actor_id bigint,
      client_id varchar(64),
      grant_type varchar(20),
      session_id bigint,
      ip varchar(64),
      user_agent varchar(500),
      detail varchar(255),
      create_time timestamptz not null default now(),
      primary key (tenant_id, id)
    )`.execute(db);
  await sql`create index security_log_time_idx on security_log (tenant_id, create_time desc, id desc)`.execute(db);
  // Housekeeping deletes across tenants by age (services/worker/src/housekeeping.ts).
  await sql`create index security_log_age_idx on security_log (create_time)`.execute(db);
  await sql`create index auth_session_expiry_idx on auth_session (expire_time)`.execute(db);
  await sql`create index auth_refresh_token_expiry_idx on auth_refresh_token (expire_time)`.execute(db);

  // Per-tenant generic OAuth2 / OpenID Connect providers for social sign-in.
  await sql`
    create table oauth_provider (
      tenant_id varchar(12) not null,
      id bigint not null,
      source varchar(64) not null,
      name varchar(100) not null,
      client_id varchar(255) not null,
      client_secret varchar(1000) not null,
      authorize_url varchar(1000) not null,
      token_url varchar(1000) not null,
      userinfo_url varchar(1000) not null,
      redirect_uri varchar(1000) not null,
      scope varchar(255) not null default 'openid profile email',
      token_auth_method varchar(32) not null default 'client_secret_basic',
      subject_claim varchar(64) not null default 'sub',
      username_claim varchar(64) not null default 'preferred_username',
      name_claim varchar(64) not null default 'name',
      avatar_claim varchar(64) not null default 'picture',
      email_claim varchar(64) not null default 'email',
      phone_claim varchar(64) not null default 'phone_number',
      status integer not null default 1,
      is_deleted integer not null default 0,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now(),
      primary key (tenant_id, id),
      constraint oauth_provider_auth_method_ck check (token_auth_method in ('client_secret_basic', 'client_secret_post'))
    )`.execute(db);
  await sql`create unique index oauth_provider_source_uq on oauth_provider (tenant_id, source) where is_deleted = 0`.execute(
    db,
  );

  for (const table of TENANT_TABLES) {
    await sql`alter table ${sql.table(table)} enable row level security`.execute(db);
    await sql`
      create policy tenant_isolation on ${sql.table(table)}
      using (tenant_id = (select current_setting('app.tenant_id', true)))
      with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
    await sql`grant select, insert, update, delete on ${sql.table(table)} to sprout_app`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [...TENANT_TABLES].reverse()) await sql`drop table if exists ${sql.table(table)}`.execute(db);
  await sql`comment on column app_user.status is null`.execute(db);
}
