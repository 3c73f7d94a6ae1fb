// Reports (issue 21, spec §7 /blade-report/report/rest): each tenant's saved reports.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table report (
      tenant_id varchar(12) not null,
      id bigint not null,
      code varchar(64),
      name varchar(100) not null,
      params jsonb not null default '[]',
      query text not null,
      columns jsonb not null default '[]',
      chart jsonb not null default '{"type":"none"}',
      remark varchar(255),
      is_deleted integer not null default 0,
      create_user bigint,
      create_time timestamptz not null default now(),
      update_user bigint,
      update_time timestamptz not null default now(),
      primary key (tenant_id, id)
    )`.execute(db);
  await sql`comment on column report.code is 'a shipped report''s code (one per tenant, seeded); null for a tenant''s own'`.execute(
    db,
  );
  await sql`create unique index report_code_uq on report (tenant_id, code) where code is not null`.execute(db);
  await sql`create index report_time_idx on report (tenant_id, create_time desc, id desc)`.execute(db);
  await sql`alter table report enable row level security`.execute(db);
  await sql`
    create policy tenant_isolation on report
    using (tenant_id = (select current_setting('app.tenant_id', true)))
    with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
  await sql`grant select, insert, update, delete on report to sprout_app`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists report`.execute(db);
}
