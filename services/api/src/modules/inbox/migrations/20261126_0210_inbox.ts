// In-app notifications (issue 23 item 3): what happened to a user's teaching records, one row per recipient.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

export async function up(db: Kysely<unknown>): Promise<void> {
  // event: returned | approved | excellent | collected | resubmitted. read_time null = unread.
  await sql`
    create table inbox_message (
      tenant_id varchar(12) not null,
      id bigint not null,
      user_id bigint not null,
      record_id bigint not null,
      kind varchar(40) not null,
      event varchar(20) not null,
      title varchar(200) not null default '',
      actor_id bigint not null,
      actor_name varchar(64) not null,
      comment text,
      create_time timestamptz not null default now(),
      read_time timestamptz,
      primary key (tenant_id, id)
    )`.execute(db);
  await sql`create index inbox_message_user_idx on inbox_message (tenant_id, user_id, create_time desc, id desc)`.execute(
    db,
  );
  await sql`create index inbox_message_unread_idx on inbox_message (tenant_id, user_id) where read_time is null`.execute(
    db,
  );
  await sql`alter table inbox_message enable row level security`.execute(db);
  await sql`
    create policy tenant_isolation on inbox_message
    using (tenant_id = (select current_setting('app.tenant_id', true)))
    with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
  await sql`grant select, insert, update, delete on inbox_message to sprout_app`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists inbox_message`.execute(db);
}
