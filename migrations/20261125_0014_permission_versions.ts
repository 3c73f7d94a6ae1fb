// Permission versions stamped by the database (issue 14), and which catalogue entries each
// tenant's seeded roles were offered.
//
// Every change to what a user's ability is built from (roles, grants, users' roles, the
// catalogue, depts, classes, a user's status or dept) bumps a version in the same transaction,
// by trigger, so no write path can forget it and a crash after the commit cannot leave it
// unbumped: a process that missed the broadcast finds the new version the next time it looks
// (docs/ARCHITECTURE.md "Permissions in one place"). Policies compare with
// (select current_setting(...)): an InitPlan evaluated once per statement, not once per row.
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

/** Scope '*': the catalogue (every tenant); otherwise a tenant id. */
const CATALOGUE = '*';

/** Tables whose every insert, update and delete changes grants (statement-level: one bump per statement). */
const STATEMENT_TABLES: ReadonlyArray<{ table: string; scope: 'tenant' | 'catalogue'; events: string[] }> = [
  { table: 'user_role', scope: 'tenant', events: ['insert', 'update', 'delete'] },
  { table: 'role_menu', scope: 'tenant', events: ['insert', 'update', 'delete'] },
  { table: 'role_scope', scope: 'tenant', events: ['insert', 'update', 'delete'] },
  { table: 'menu', scope: 'catalogue', events: ['insert', 'update', 'delete'] },
  { table: 'scope_api', scope: 'catalogue', events: ['insert', 'update', 'delete'] },
  { table: 'scope_data', scope: 'catalogue', events: ['insert', 'update', 'delete'] },
  // A new dept extends the subtrees of the depts above it; a new class gives its teachers a class.
  { table: 'dept', scope: 'tenant', events: ['insert', 'delete'] },
  { table: 'clazz', scope: 'tenant', events: ['insert', 'delete'] },
  { table: 'role', scope: 'tenant', events: ['delete'] },
  { table: 'app_user', scope: 'tenant', events: ['delete'] },
];

/** Tables where only some columns matter (row-level, WHEN those columns changed): sign-ins and profile edits do not bump. */
const COLUMN_TABLES: ReadonlyArray<{ table: string; columns: string[] }> = [
  { table: 'app_user', columns: ['status', 'is_deleted', 'dept_id'] },
  { table: 'role', columns: ['is_deleted', 'role_alias'] },
  { table: 'dept', columns: ['ancestors', 'is_deleted'] },
  { table: 'clazz', columns: ['head_teacher_id', 'caregiver_id', 'teacher_ids', 'is_deleted'] },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table permission_version (
      scope varchar(12) primary key,
      version bigint not null,
      updated_at timestamptz not null default now()
    )`.execute(db);
  // The app role reads its tenant's version and the catalogue's; it writes only through the
  // function below (any tenant: a platform command may change another tenant's grants).
  await sql`alter table permission_version enable row level security`.execute(db);
  await sql`
    create policy permission_version_read on permission_version for select
    using (scope = (select current_setting('app.tenant_id', true)) or scope = ${sql.lit(CATALOGUE)})`.execute(db);
  await sql`grant select on permission_version to sprout_app`.execute(db);

  await sql`
    create function sprout_bump_permission_version(p_scope varchar) returns bigint
    language sql volatile security definer set search_path = pg_catalog, public as $fn$
      insert into public.permission_version as v (scope, version) values (p_scope, 1)
      on conflict (scope) do update set version = v.version + 1, updated_at = now()
      returning v.version
    $fn$`.execute(db);

  // Statement-level: the changed rows are the transition table `changed`.
  await sql`
    create function sprout_permissions_changed() returns trigger
    language plpgsql as $fn$
    begin
      if tg_argv[0] = 'catalogue' then
        if exists (select 1 from changed) then
          perform sprout_bump_permission_version(${sql.lit(CATALOGUE)});
        end if;
      else
        perform sprout_bump_permission_version(t.tenant_id)
        from (select distinct tenant_id from changed order by tenant_id) t;
      end if;
      return null;
    end
    $fn$`.execute(db);
  await sql`
    create function sprout_permissions_row_changed() returns trigger
    language plpgsql as $fn$
    begin
      perform sprout_bump_permission_version(new.tenant_id);
      return null;
    end
    $fn$`.execute(db);

  for (const { table, scope, events } of STATEMENT_TABLES) {
    for (const event of events) {
      const name = sql.raw(`${table}_permissions_${event}`);
      const transition = sql.raw(event === 'delete' ? 'old table as changed' : 'new table as changed');
      await sql`
        create trigger ${name} after ${sql.raw(event)} on ${sql.table(table)}
        referencing ${transition}
        for each statement execute function sprout_permissions_changed(${sql.lit(scope)})`.execute(db);
    }
  }
  for (const { table, columns } of COLUMN_TABLES) {
    const old = sql.join(columns.map((c) => sql.ref(`old.${c}`)));
    const cur = sql.join(columns.map((c) => sql.ref(`new.${c}`)));
    await sql`
      create trigger ${sql.raw(`${table}_permissions_update`)} after update on ${sql.table(table)}
      for each row when ((${old}) is distinct from (${cur}))
      execute function sprout_permissions_row_changed()`.execute(db);
  }

  // Which catalogue entries (menus and buttons, API scopes, data scopes, top menus) each seeded
  // role of a tenant has been offered: the seed grants an entry a role's definition includes
  // once, so an entry added to the catalogue later reaches existing tenants, and an entry a
  // tenant's administrator revoked is never granted again.
  await sql`
    create table role_catalogue_offer (
      tenant_id varchar(12) not null,
      role_id bigint not null,
      entry varchar(200) not null,
      offered_at timestamptz not null default now(),
      primary key (tenant_id, role_id, entry)
    )`.execute(db);
  await sql`alter table role_catalogue_offer enable row level security`.execute(db);
  await sql`
    create policy tenant_isolation on role_catalogue_offer
    using (tenant_id = (select current_setting('app.tenant_id', true)))
    with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
  await sql`grant select, insert, update, delete on role_catalogue_offer to sprout_app`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists role_catalogue_offer`.execute(db);
  for (const { table } of COLUMN_TABLES)
    await sql`drop trigger if exists ${sql.raw(`${table}_permissions_update`)} on ${sql.table(table)}`.execute(db);
  for (const { table, events } of STATEMENT_TABLES)
    for (const event of events)
      await sql`drop trigger if exists ${sql.raw(`${table}_permissions_${event}`)} on ${sql.table(table)}`.execute(db);
  await sql`drop function if exists sprout_permissions_row_changed`.execute(db);
  await sql`drop function if exists sprout_permissions_changed`.execute(db);
  await sql`drop function if exists sprout_bump_permission_version`.execute(db);
  await sql`drop table if exists permission_version`.execute(db);
}
