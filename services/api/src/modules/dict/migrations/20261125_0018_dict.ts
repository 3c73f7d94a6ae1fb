// Dictionaries (issue 16, spec §2, §3): BladeX's /blade-system/dict (the platform's) and
// /blade-system/dict-biz (each tenant's), parent rows (parent_id 0) and their entries.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['dict', 'dict_biz']) {
    const t = sql.table(table);
    await sql`
      create table ${t} (
        tenant_id varchar(12) not null,
        id bigint not null,
        parent_id bigint not null default 0,
        code varchar(255) not null,
        dict_key varchar(255) not null,
        dict_value varchar(255) not null,
        sort integer not null default 0,
        remark varchar(255),
        is_sealed integer not null default 0 check (is_sealed in (0, 1)),
        is_deleted integer not null default 0,
        create_user bigint,
        create_time timestamptz not null default now(),
        update_user bigint,
        update_time timestamptz not null default now(),
        primary key (tenant_id, id)
      )`.execute(db);
    // A dictionary's code is unique among the tenant's live parents; a key among its parent's live entries.
    await sql`create unique index ${sql.raw(`${table}_code_uq`)} on ${t} (tenant_id, code)
      where is_deleted = 0 and parent_id = 0`.execute(db);
    await sql`create unique index ${sql.raw(`${table}_key_uq`)} on ${t} (tenant_id, parent_id, dict_key)
      where is_deleted = 0 and parent_id <> 0`.execute(db);
    await sql`create index ${sql.raw(`${table}_parent_ix`)} on ${t} (tenant_id, parent_id, sort)
      where is_deleted = 0`.execute(db);
    await sql`alter table ${t} enable row level security`.execute(db);
    await sql`
      create policy tenant_isolation on ${t}
      using (tenant_id = (select current_setting('app.tenant_id', true)))
      with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
    await sql`grant select, insert, update, delete on ${t} to sprout_app`.execute(db);
  }
  // System dictionaries are the platform's (tenant 000000): every tenant reads them (selects),
  // only the platform writes them.
  await sql`create policy platform_read on dict for select using (tenant_id = '000000')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists dict_biz`.execute(db);
  await sql`drop table if exists dict`.execute(db);
}
