// Parameters (issue 16, spec §3): a tenant's named settings, BladeX's /blade-system/param.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table param (
      tenant_id varchar(12) not null,
      id bigint not null,
      param_name varchar(255) not null,
      param_key varchar(255) not null,
      param_value text not null,
      remark varchar(255),
      is_deleted integer not null default 0,
      create_user bigint,
      create_time timestamptz not null default now(),
      update_user bigint,
      update_time timestamptz not null default now(),
      primary key (tenant_id, id)
    )`.execute(db);
  await sql`create unique index param_key_uq on param (tenant_id, param_key) where is_deleted = 0`.execute(db);
  // Each tenant's own rows (as post): requests run as sprout_app and are confined to their tenant.
  await sql`alter table param enable row level security`.execute(db);
  await sql`
    create policy tenant_isolation on param
    using (tenant_id = (select current_setting('app.tenant_id', true)))
    with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
  await sql`grant select, insert, update, delete on param to sprout_app`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists param`.execute(db);
}
