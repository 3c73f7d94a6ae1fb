// Workflow (issue 20): models, deployed process definitions (versioned) and leave requests.
// Instances are event streams (`process`); their lists are inline projections (flow_task, flow_instance, flow_wait).
import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has shipped; add a new file instead. Never import app code.

const TABLES = ['flow_model', 'flow_deployment', 'flow_leave'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table flow_model (
      tenant_id varchar(12) not null,
      id bigint not null,
      model_key varchar(64) not null,
      name varchar(100) not null,
      description varchar(500) not null default '',
      xml text not null,
      version integer not null default 1,
      is_deleted integer not null default 0,
      create_user bigint,
      create_time timestamptz not null default now(),
      update_user bigint,
      update_time timestamptz not null default now(),
      primary key (tenant_id, id)
    )`.execute(db);
  await sql`create unique index flow_model_key_uq on flow_model (tenant_id, model_key) where is_deleted = 0`.execute(
    db,
  );
  await sql`
    create table flow_deployment (
      tenant_id varchar(12) not null,
      id varchar(120) not null,
      deployment_id bigint not null,
      key varchar(64) not null,
      name varchar(100) not null,
      description varchar(500) not null default '',
      category varchar(64) not null default '',
      version integer not null,
      suspension_state smallint not null default 1,
      resource_name varchar(200) not null,
      xml text not null,
      compiled jsonb not null,
      deploy_user bigint,
      deploy_time timestamptz not null default now(),
      is_deleted integer not null default 0,
      primary key (tenant_id, id),
      constraint flow_deployment_state_ck check (suspension_state in (1, 2))
    )`.execute(db);
  await sql`create unique index flow_deployment_version_uq on flow_deployment (tenant_id, key, version)`.execute(db);
  await sql`create index flow_deployment_deploy_idx on flow_deployment (tenant_id, deployment_id)`.execute(db);
  await sql`
    create table flow_leave (
      tenant_id varchar(12) not null,
      id bigint not null,
      process_definition_id varchar(120) not null,
      process_instance_id varchar(40) not null,
      start_time timestamptz not null,
      end_time timestamptz not null,
      days numeric(6, 2) not null,
      reason varchar(500) not null,
      task_user bigint not null,
      apply_time timestamptz not null default now(),
      create_user bigint not null,
      primary key (tenant_id, id)
    )`.execute(db);
  await sql`create index flow_leave_instance_idx on flow_leave (tenant_id, process_instance_id)`.execute(db);
  for (const t of TABLES) {
    await sql`alter table ${sql.table(t)} enable row level security`.execute(db);
    await sql`
      create policy tenant_isolation on ${sql.table(t)}
      using (tenant_id = (select current_setting('app.tenant_id', true)))
      with check (tenant_id = (select current_setting('app.tenant_id', true)))`.execute(db);
    await sql`grant select, insert, update, delete on ${sql.table(t)} to sprout_app`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [...TABLES].reverse()) await sql`drop table if exists ${sql.table(t)}`.execute(db);
}
