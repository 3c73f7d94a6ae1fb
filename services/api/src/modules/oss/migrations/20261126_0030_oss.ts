// Object storage configurations (issue 17, spec §7 "Files"): BladeX's /blade-resource/oss.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table oss (
      tenant_id varchar(12) not null,
      id bigint not null,
      category varchar(16) not null,
      oss_code varchar(64) not null,
      endpoint varchar(255),
      bucket_name varchar(255),
      access_key varchar(255),
      secret_key text,
      secret_key_wrapped_by varchar(64),
      app_id varchar(255),
      region varchar(64),
      remark varchar(255),
      status integer not null default 1,
      is_deleted integer not null default 0,
      create_user bigint,
      create_time timestamptz not null default now(),
      update_user bigint,
      update_time timestamptz not null default now(),
      primary key (tenant_id, id),
      constraint oss_status_ck check (status in (1, 2)),
      constraint oss_category_ck check (category in ('local', 's3'))
    )`.execute(db);
  await sql`create unique index oss_code_uq on oss (tenant_id, oss_code) where is_deleted = 0`.execute(db);
  // At most one enabled configuration per tenant: the database says so, whatever the code does.
  await sql`create unique index oss_enabled_uq on oss (tenant_id) where is_deleted = 0 and status = 2`.execute(db);
  await sql`alter table oss enable row level security`.execute(db);
  await sql`
    create policy tenant_isolation on oss
    using (tenant_id = (select current_setting('app.tenant_id', true)))
    with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
  await sql`grant select, insert, update, delete on oss to sprout_app`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists oss`.execute(db);
}
