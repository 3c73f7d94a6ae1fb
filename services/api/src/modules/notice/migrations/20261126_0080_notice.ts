// Notices (issue 17, spec §7 "/blade-desk/notice/"): a tenant's notices and each reader's read marks.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

export async function up(db: Kysely<unknown>): Promise<void> {
  // audience 'tenant' (the whole kindergarten) or 'depts' (dept_ids and the depts below them).
  await sql`
    create table notice (
      tenant_id varchar(12) not null,
      id bigint not null,
      title varchar(255) not null,
      category varchar(64) not null,
      release_time timestamptz not null default now(),
      content text not null default '',
      audience varchar(8) not null default 'tenant',
      dept_ids bigint[] not null default '{}',
      is_deleted integer not null default 0,
      create_user bigint,
      create_time timestamptz not null default now(),
      update_user bigint,
      update_time timestamptz not null default now(),
      primary key (tenant_id, id),
      constraint notice_audience_ck check (audience in ('tenant', 'depts'))
    )`.execute(db);
  await sql`create index notice_release_idx on notice (tenant_id, release_time desc, id desc) where is_deleted = 0`.execute(
    db,
  );
  // One mark per reader and notice (idempotent reads); removed with its notice.
  await sql`
    create table notice_read (
      tenant_id varchar(12) not null,
      notice_id bigint not null,
      user_id bigint not null,
      read_time timestamptz not null default now(),
      primary key (tenant_id, notice_id, user_id)
    )`.execute(db);
  await sql`create index notice_read_user_idx on notice_read (tenant_id, user_id)`.execute(db);
  for (const table of ['notice', 'notice_read']) {
    await sql`alter table ${sql.table(table)} enable row level security`.execute(db);
    await sql`
      create policy tenant_isolation on ${sql.table(table)}
      using (tenant_id = (select current_setting('app.tenant_id', true)))
      with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
    await sql`grant select, insert, update, delete on ${sql.table(table)} to sprout_app`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists notice_read`.execute(db);
  await sql`drop table if exists notice`.execute(db);
}
