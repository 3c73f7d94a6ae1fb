// SMS (issue 17, spec §7 "Notices and resources"): each tenant's SMS configurations
// (BladeX's blade_sms) and the log of every message sent or failed.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sms (
      tenant_id varchar(12) not null,
      id bigint not null,
      category varchar(16) not null,
      sms_code varchar(64) not null,
      template_id varchar(64),
      access_key varchar(255),
      secret_key text,
      secret_key_wrapped_by varchar(64),
      region_id varchar(64),
      sign_name varchar(64),
      endpoint varchar(1000),
      remark varchar(255),
      status integer not null default 1,
      is_deleted integer not null default 0,
      create_user bigint,
      create_time timestamptz not null default now(),
      update_user bigint,
      update_time timestamptz not null default now(),
      primary key (tenant_id, id),
      constraint sms_category_ck check (category in ('log', 'http')),
      constraint sms_status_ck check (status in (1, 2))
    )`.execute(db);
  await sql`create unique index sms_code_uq on sms (tenant_id, sms_code) where is_deleted = 0`.execute(db);
  // Exactly one enabled configuration per tenant: a second one cannot be stored.
  await sql`create unique index sms_enabled_uq on sms (tenant_id) where is_deleted = 0 and status = 2`.execute(db);
  await sql`
    create table sms_log (
      tenant_id varchar(12) not null,
      id bigint not null,
      sms_id bigint,
      sms_code varchar(64) not null,
      category varchar(16) not null,
      phone varchar(20) not null,
      template_id varchar(64),
      params text not null default '{}',
      status varchar(16) not null,
      reason varchar(1000),
      sender_name varchar(255),
      is_deleted integer not null default 0,
      create_user bigint,
      create_time timestamptz not null default now(),
      update_user bigint,
      update_time timestamptz not null default now(),
      primary key (tenant_id, id),
      constraint sms_log_status_ck check (status in ('sent', 'failed'))
    )`.execute(db);
  await sql`create index sms_log_time_ix on sms_log (tenant_id, create_time desc)`.execute(db);
  await sql`create index sms_log_phone_ix on sms_log (tenant_id, phone, create_time desc)`.execute(db);
  for (const table of ['sms', 'sms_log']) {
    // Each tenant's own rows (as post): requests run as sprout_app and are confined to their tenant.
    await sql`alter table ${sql.id(table)} enable row level security`.execute(db);
    await sql`
      create policy tenant_isolation on ${sql.id(table)}
      using (tenant_id = (select current_setting('app.tenant_id', true)))
      with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
    await sql`grant select, insert, update, delete on ${sql.id(table)} to sprout_app`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists sms_log`.execute(db);
  await sql`drop table if exists sms`.execute(db);
}
