// Roles, menus, departments and permissions (issue 5).
// Policies compare with (select current_setting(...)): an InitPlan evaluated once per statement, not once per row.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

/** The platform's catalogue: rows of tenant 000000, read by every tenant, written by the platform only. */
const CATALOGUE_TABLES = ['menu', 'top_menu', 'top_menu_setting', 'scope_data', 'scope_api'] as const;
/** Each tenant's own rows. */
const TENANT_TABLES = ['role_menu', 'role_top_menu', 'role_scope', 'dept', 'post', 'clazz', 'student'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  // ---- the catalogue -------------------------------------------------------------------
  // Menus (category 1) and their buttons (category 2). `code` is the stable identifier the
  // web app translates (menu.<code>) and button permissions are named by.
  await sql`
    create table menu (
      tenant_id varchar(12) not null,
      id bigint not null,
      parent_id bigint not null default 0,
      code varchar(64) not null,
      name varchar(100) not null,
      name_en varchar(100) not null default '',
      alias varchar(64) not null default '',
      path varchar(255),
      source varchar(64),
      sort integer not null default 0,
      category smallint not null,
      action smallint not null default 0,
      is_open smallint not null default 1,
      platform_only boolean not null default false,
      hidden boolean not null default false,
      resource_code varchar(64),
      remark varchar(255),
      is_deleted integer not null default 0,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now(),
      primary key (tenant_id, id),
      constraint menu_category_ck check (category in (1, 2)),
      constraint menu_action_ck check (action in (0, 1, 2)),
      constraint menu_is_open_ck check (is_open in (1, 2))
    )`.execute(db);
  await sql`comment on column menu.category is '1 menu, 2 button'`.execute(db);
  await sql`comment on column menu.action is 'button placement: 0 toolbar, 1 row, 2 both'`.execute(db);
  await sql`comment on column menu.is_open is '1 same window, 2 new window'`.execute(db);
  await sql`create unique index menu_code_uq on menu (tenant_id, code) where is_deleted = 0`.execute(db);
  await sql`create index menu_parent_idx on menu (tenant_id, parent_id)`.execute(db);

  await sql`
    create table top_menu (
      tenant_id varchar(12) not null,
      id bigint not null,
      code varchar(64) not null,
      name varchar(100) not null,
      name_en varchar(100) not null default '',
      source varchar(64),
      sort integer not null default 0,
      is_deleted integer not null default 0,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now(),
      primary key (tenant_id, id)
    )`.execute(db);
  await sql`create unique index top_menu_code_uq on top_menu (tenant_id, code) where is_deleted = 0`.execute(db);

  // Which menus (and their subtrees) a top menu shows.
  await sql`
    create table top_menu_setting (
      tenant_id varchar(12) not null,
      top_menu_id bigint not null,
      menu_id bigint not null,
      primary key (tenant_id, top_menu_id, menu_id)
    )`.execute(db);

  // Data scopes: which rows of a resource a role sees. scope_type 1 all, 2 own (created by
  // the user), 3 own dept, 4 own dept and below, 5 custom (scope_value: dept ids), 6 own
  // classes. scope_column is the row's column the type compares; scope_field the fields
  // shown ('*', a list, or '-field' exclusions).
  await sql`
    create table scope_data (
      tenant_id varchar(12) not null,
      id bigint not null,
      menu_id bigint not null,
      code varchar(64),
      resource_code varchar(64) not null,
      scope_name varchar(100) not null,
      scope_field varchar(1000) not null default '*',
      scope_column varchar(64) not null,
      scope_type smallint not null,
      scope_value varchar(2000),
      remark varchar(255),
      is_deleted integer not null default 0,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now(),
      primary key (tenant_id, id),
      constraint scope_data_type_ck check (scope_type between 1 and 6)
    )`.execute(db);
  await sql`create unique index scope_data_code_uq on scope_data (tenant_id, code) where code is not null and is_deleted = 0`.execute(
    db,
  );
  await sql`create index scope_data_menu_idx on scope_data (tenant_id, menu_id)`.execute(db);

  // API scopes: `METHOD /api/...` patterns (`*` one segment, `**` the rest) a role may call.
  // scope_type 1 system API, 2 business API.
  await sql`
    create table scope_api (
      tenant_id varchar(12) not null,
      id bigint not null,
      menu_id bigint not null,
      resource_code varchar(64) not null,
      scope_name varchar(100) not null,
      scope_path varchar(255) not null,
      scope_type smallint not null default 1,
      remark varchar(255),
      is_deleted integer not null default 0,
      create_time timestamptz not null default now(),
      update_time timestamptz not null default now(),
      primary key (tenant_id, id),
      constraint scope_api_type_ck check (scope_type in (1, 2))
    )`.execute(db);
  await sql`create unique index scope_api_path_uq on scope_api (tenant_id, menu_id, scope_path) where is_deleted = 0`.execute(
    db,
  );

  // ---- grants (tenant data) ------------------------------------------------------------
  await sql`
    create table role_menu (
      tenant_id varchar(12) not null,
      role_id bigint not null,
      menu_id bigint not null,
      primary key (tenant_id, role_id, menu_id)
    )`.execute(db);
  await sql`
    create table role_top_menu (
      tenant_id varchar(12) not null,
      role_id bigint not null,
      top_menu_id bigint not null,
      primary key (tenant_id, role_id, top_menu_id)
    )`.execute(db);
  // scope_category 1 data scope, 2 API scope.
  await sql`
    create table role_scope (
      tenant_id varchar(12) not null,
      role_id bigint not null,
      scope_category smallint not null,
      scope_id bigint not null,
      primary key (tenant_id, role_id, scope_category, scope_id),
      constraint role_scope_category_ck check (scope_category in (1, 2))
    )`.execute(db);

  // ---- organisation --------------------------------------------------------------------
  // A tree; ancestors holds the ids from the root down to the parent (empty for a root).
  await sql`
    create table dept (
      tenant_id varchar(12) not null,
      id bigint not null,
      parent_id bigint not null default 0,
      ancestors bigint[] not null default '{}',
      dept_category smallint not null default 3,
      dept_name varchar(64) not null,
      full_name varchar(255),
      sort integer not null default 0,
      remark varchar(255),
      is_deleted integer not null default 0,
      create_user bigint,
      create_time timestamptz not null default now(),
      update_user bigint,
      update_time timestamptz not null default now(),
      primary key (tenant_id, id),
      constraint dept_category_ck check (dept_category in (1, 2, 3))
    )`.execute(db);
  await sql`comment on column dept.dept_category is '1 campus, 2 grade group, 3 department'`.execute(db);
  await sql`create index dept_parent_idx on dept (tenant_id, parent_id)`.execute(db);

  await sql`
    create table post (
      tenant_id varchar(12) not null,
      id bigint not null,
      category smallint not null default 3,
      post_code varchar(64) not null,
      post_name varchar(64) not null,
      sort integer not null default 0,
      remark varchar(255),
      is_deleted integer not null default 0,
      create_user bigint,
      create_time timestamptz not null default now(),
      update_user bigint,
      update_time timestamptz not null default now(),
      primary key (tenant_id, id),
      constraint post_category_ck check (category in (1, 2, 3, 4))
    )`.execute(db);
  await sql`comment on column post.category is '1 senior, 2 middle, 3 staff, 4 other'`.execute(db);
  await sql`create unique index post_code_uq on post (tenant_id, post_code) where is_deleted = 0`.execute(db);

  // A class (班级): grade 1 托班, 2 小班, 3 中班, 4 大班.
  await sql`
    create table clazz (
      tenant_id varchar(12) not null,
      id bigint not null,
      name varchar(64) not null,
      grade smallint not null,
      school_year varchar(9) not null,
      dept_id bigint,
      head_teacher_id bigint,
      teacher_ids bigint[] not null default '{}',
      caregiver_id bigint,
      room varchar(64),
      capacity integer,
      remark varchar(255),
      is_deleted integer not null default 0,
      create_user bigint,
      create_time timestamptz not null default now(),
      update_user bigint,
      update_time timestamptz not null default now(),
      primary key (tenant_id, id),
      constraint clazz_grade_ck check (grade between 1 and 4)
    )`.execute(db);
  await sql`create unique index clazz_name_uq on clazz (tenant_id, school_year, name) where is_deleted = 0`.execute(db);
  await sql`create index clazz_time_idx on clazz (tenant_id, create_time desc, id desc)`.execute(db);

  // A child (幼儿): gender 1 boy, 2 girl; status 1 in kindergarten, 2 left. dept_id follows the class.
  await sql`
    create table student (
      tenant_id varchar(12) not null,
      id bigint not null,
      name varchar(64) not null,
      gender smallint not null,
      birth_date date,
      class_id bigint,
      dept_id bigint,
      student_no varchar(32),
      enroll_date date,
      guardian_name varchar(64),
      guardian_phone varchar(30),
      notes varchar(500),
      status smallint not null default 1,
      is_deleted integer not null default 0,
      create_user bigint,
      create_time timestamptz not null default now(),
      update_user bigint,
      update_time timestamptz not null default now(),
      primary key (tenant_id, id),
      constraint student_gender_ck check (gender in (1, 2)),
      constraint student_status_ck check (status in (1, 2))
    )`.execute(db);
  await sql`create unique index student_no_uq on student (tenant_id, student_no) where is_deleted = 0 and student_no is not null`.execute(
    db,
  );
  await sql`create index student_class_idx on student (tenant_id, class_id, student_no, id)`.execute(db);
  await sql`create index student_time_idx on student (tenant_id, create_time desc, id desc)`.execute(db);
  // Dept scopes (own dept, dept and below, custom) count and filter children by dept.
  await sql`create index student_dept_idx on student (tenant_id, dept_id) where is_deleted = 0`.execute(db);

  // Users: a per-platform extension (BladeX update-platform) and a dept index for scoped lists.
  await sql`alter table app_user add column user_ext varchar(2000)`.execute(db);
  await sql`create index app_user_dept_idx on app_user (tenant_id, dept_id)`.execute(db);
  // A tenant's bound data source (BladeX tenant/datasource); the datasource family comes later.
  await sql`alter table tenant add column datasource_id bigint`.execute(db);

  // ---- row-level security --------------------------------------------------------------
  // Enabled, not forced (as the other tables): requests run as sprout_app and are always
  // confined; the owner (migrations, seed) is not.
  for (const table of CATALOGUE_TABLES) {
    await sql`alter table ${sql.table(table)} enable row level security`.execute(db);
    await sql`
      create policy catalogue_read on ${sql.table(table)} for select
      using (tenant_id = (select current_setting('app.tenant_id', true)) or tenant_id = '000000')`.execute(db);
    await sql`
      create policy catalogue_write on ${sql.table(table)}
      using ((select current_setting('app.tenant_id', true)) = '000000' and tenant_id = '000000')
      with check ((select current_setting('app.tenant_id', true)) = '000000' and tenant_id = '000000')`.execute(db);
    await sql`grant select, insert, update, delete on ${sql.table(table)} to sprout_app`.execute(db);
  }
  for (const table of TENANT_TABLES) {
    await sql`alter table ${sql.table(table)} enable row level security`.execute(db);
    await sql`
      create policy tenant_isolation on ${sql.table(table)}
      using (tenant_id = (select current_setting('app.tenant_id', true)))
      with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
    await sql`grant select, insert, update, delete on ${sql.table(table)} to sprout_app`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [...TENANT_TABLES].reverse()) await sql`drop table if exists ${sql.table(table)}`.execute(db);
  for (const table of [...CATALOGUE_TABLES].reverse()) await sql`drop table if exists ${sql.table(table)}`.execute(db);
  await sql`drop index if exists app_user_dept_idx`.execute(db);
  await sql`alter table app_user drop column if exists user_ext`.execute(db);
  await sql`alter table tenant drop column if exists datasource_id`.execute(db);
}
