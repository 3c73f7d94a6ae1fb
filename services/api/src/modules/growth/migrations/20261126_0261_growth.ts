// Growth archives (issue 19, DOMAIN.md 教师成长档案): a teacher's entries by category.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table growth_entry (
      tenant_id varchar(12) not null,
      id bigint not null,
      user_id bigint not null,
      category smallint not null,
      title varchar(200) not null,
      entry_date varchar(10) not null,
      level smallint,
      content varchar(2000),
      attach_ids varchar(1000),
      is_deleted integer not null default 0,
      create_user bigint,
      create_time timestamptz not null default now(),
      update_user bigint,
      update_time timestamptz not null default now(),
      primary key (tenant_id, id),
      constraint growth_category_ck check (category between 1 and 6),
      constraint growth_level_ck check (level is null or level between 1 and 5)
    )`.execute(db);
  await sql`create index growth_entry_user_idx on growth_entry (tenant_id, user_id, entry_date desc, id desc) where is_deleted = 0`.execute(
    db,
  );
  await sql`alter table growth_entry enable row level security`.execute(db);
  await sql`
    create policy tenant_isolation on growth_entry
    using (tenant_id = (select current_setting('app.tenant_id', true)))
    with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
  await sql`grant select, insert, update, delete on growth_entry to sprout_app`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists growth_entry`.execute(db);
}
