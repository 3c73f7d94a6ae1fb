// The code generator's configurations (issue 21, spec §7 /blade-develop/code).
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table code_gen (
      tenant_id varchar(12) not null,
      id bigint not null,
      code_name varchar(64) not null,
      datasource_id bigint not null default 0,
      table_name varchar(63) not null,
      module_name varchar(31) not null,
      menu_parent varchar(64) not null,
      tree_mode integer not null default 0,
      list_columns text,
      search_columns text,
      edit_columns text,
      remark varchar(255),
      is_deleted integer not null default 0,
      create_user bigint,
      create_time timestamptz not null default now(),
      update_user bigint,
      update_time timestamptz not null default now(),
      primary key (tenant_id, id)
    )`.execute(db);
  await sql`comment on column code_gen.datasource_id is '0: the main database (data sources: issue 21, another part)'`.execute(
    db,
  );
  await sql`alter table code_gen enable row level security`.execute(db);
  await sql`
    create policy tenant_isolation on code_gen
    using (tenant_id = (select current_setting('app.tenant_id', true)))
    with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
  await sql`grant select, insert, update, delete on code_gen to sprout_app`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists code_gen`.execute(db);
}
