// Teacher master data (issue 19, DOMAIN.md 教师档案): one row per teacher of a tenant, linked to her account.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table teacher_master (
      tenant_id varchar(12) not null,
      id bigint not null,
      teacher_no varchar(32) not null,
      name varchar(64) not null,
      user_id bigint,
      gender smallint,
      birth_date varchar(10),
      ethnicity smallint,
      staffing smallint,
      political_status smallint,
      education smallint,
      major varchar(64),
      graduate_school varchar(128),
      teacher_certificate smallint,
      social_work_qualification smallint,
      mandarin_level smallint,
      professional_title varchar(64),
      hire_date varchar(10),
      phone varchar(11),
      dept_id bigint,
      post_id bigint,
      remark varchar(500),
      is_deleted integer not null default 0,
      create_user bigint,
      create_time timestamptz not null default now(),
      update_user bigint,
      update_time timestamptz not null default now(),
      primary key (tenant_id, id)
    )`.execute(db);
  // Duplicate teacher numbers are refused; one record per account.
  await sql`create unique index teacher_master_no_uq on teacher_master (tenant_id, teacher_no) where is_deleted = 0`.execute(
    db,
  );
  await sql`create unique index teacher_master_user_uq on teacher_master (tenant_id, user_id) where is_deleted = 0 and user_id is not null`.execute(
    db,
  );
  await sql`create index teacher_master_dept_idx on teacher_master (tenant_id, dept_id) where is_deleted = 0`.execute(
    db,
  );
  await sql`alter table teacher_master enable row level security`.execute(db);
  await sql`
    create policy tenant_isolation on teacher_master
    using (tenant_id = (select current_setting('app.tenant_id', true)))
    with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
  await sql`grant select, insert, update, delete on teacher_master to sprout_app`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists teacher_master`.execute(db);
}
