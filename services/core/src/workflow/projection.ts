import { sql } from 'kysely';
import type { Tx } from '../db';
import { type ProjectionDefinition, projectionNamed, registerProjection } from '../events/projections/registry';
import type { RecordedEvent } from '../events/types';
import { PROCESS_EVENT_TYPES, type ProcessEvent } from './events';

/**
 * The work lists' read models, inline (a list read right after a call sees it):
 * `flow_instance` (one row per process instance: the follow-up and sent lists),
 * `flow_task` (one row per user task: claim, to-do and done lists),
 * `flow_wait` (timers and service jobs not yet done: the worker's sweep re-enqueues them).
 */

const asProcess = (e: RecordedEvent) => e as unknown as ProcessEvent & RecordedEvent;

export const flowInstanceProjection: ProjectionDefinition = {
  name: 'flow_instance',
  kind: 'inline',
  eventTypes: [
    'ProcessStarted',
    'VariablesSet',
    'ProcessSuspended',
    'ProcessResumed',
    'ProcessEnded',
    'ProcessTerminated',
  ],
  async createTable(trx, table) {
    await sql`
      create table ${sql.table(table)} (
        tenant_id varchar(12) not null,
        instance_id varchar(40) not null,
        definition_id varchar(120) not null,
        definition_key varchar(64) not null,
        definition_name varchar(100) not null,
        definition_version integer not null,
        category varchar(64) not null,
        start_user varchar(40) not null,
        start_user_name varchar(64) not null,
        business_table varchar(64) not null,
        business_id varchar(40) not null,
        status varchar(12) not null,
        variables jsonb not null,
        reason varchar(500) not null default '',
        start_time timestamptz not null,
        end_time timestamptz,
        primary key (tenant_id, instance_id)
      )`.execute(trx);
    const idx = (s: string) => sql.raw(`${table}_${s}`);
    await sql`create index ${idx('starter')} on ${sql.table(table)} (tenant_id, start_user, start_time desc)`.execute(
      trx,
    );
    await sql`create index ${idx('status')} on ${sql.table(table)} (tenant_id, status, start_time desc)`.execute(trx);
    await sql`create index ${idx('definition')} on ${sql.table(table)} (tenant_id, definition_id, status)`.execute(trx);
  },
  async handle(trx, events, ctx) {
    const t = sql.table(ctx.table);
    for (const raw of events) {
      const e = asProcess(raw);
      const key = sql`tenant_id = ${e.tenantId} and instance_id = ${e.streamId}`;
      switch (e.type) {
        case 'ProcessStarted': {
          const d = e.data;
          await sql`insert into ${t} (tenant_id, instance_id, definition_id, definition_key, definition_name,
              definition_version, category, start_user, start_user_name, business_table, business_id, status, variables, start_time)
            values (${e.tenantId}, ${e.streamId}, ${d.definitionId}, ${d.definitionKey}, ${d.definitionName},
              ${d.definitionVersion}, ${d.category}, ${d.startUser}, ${d.startUserName}, ${d.businessTable}, ${d.businessId},
              'running', ${JSON.stringify(d.variables)}::jsonb, ${d.at}::timestamptz)
            on conflict do nothing`.execute(trx);
          break;
        }
        case 'VariablesSet':
          await sql`update ${t} set variables = variables || ${JSON.stringify(e.data.variables)}::jsonb where ${key}`.execute(
            trx,
          );
          break;
        case 'ProcessSuspended':
          await sql`update ${t} set status = 'suspended' where ${key}`.execute(trx);
          break;
        case 'ProcessResumed':
          await sql`update ${t} set status = 'running' where ${key}`.execute(trx);
          break;
        case 'ProcessEnded':
          await sql`update ${t} set status = 'ended', end_time = ${e.data.at}::timestamptz where ${key}`.execute(trx);
          break;
        case 'ProcessTerminated':
          await sql`update ${t} set status = 'terminated', end_time = ${e.data.at}::timestamptz,
            reason = ${e.data.reason.slice(0, 500)} where ${key}`.execute(trx);
          break;
        default:
          break;
      }
    }
  },
};

export const flowTaskProjection: ProjectionDefinition = {
  name: 'flow_task',
  kind: 'inline',
  eventTypes: [
    'ProcessStarted',
    'TaskCreated',
    'TaskClaimed',
    'TaskDelegated',
    'TaskCompleted',
    'TaskCancelled',
    'ProcessSuspended',
    'ProcessResumed',
    'ProcessEnded',
    'ProcessTerminated',
  ],
  async createTable(trx, table) {
    await sql`
      create table ${sql.table(table)} (
        tenant_id varchar(12) not null,
        task_id varchar(60) not null,
        instance_id varchar(40) not null,
        definition_id varchar(120) not null default '',
        definition_key varchar(64) not null default '',
        definition_name varchar(100) not null default '',
        definition_version integer not null default 0,
        category varchar(64) not null default '',
        start_user varchar(40) not null default '',
        start_user_name varchar(64) not null default '',
        business_table varchar(64) not null default '',
        business_id varchar(40) not null default '',
        element_id varchar(100) not null,
        name varchar(200) not null,
        assignee varchar(40),
        candidate_users text[] not null default '{}',
        candidate_groups text[] not null default '{}',
        status varchar(10) not null,
        process_status varchar(12) not null default 'running',
        create_time timestamptz not null,
        claim_time timestamptz,
        due_date timestamptz,
        end_time timestamptz,
        completed_by varchar(40),
        completed_by_name varchar(64),
        flag varchar(10) not null default '',
        comment varchar(1000) not null default '',
        primary key (tenant_id, task_id)
      )`.execute(trx);
    const idx = (s: string) => sql.raw(`${table}_${s}`);
    await sql`create index ${idx('assignee')} on ${sql.table(table)} (tenant_id, assignee, create_time desc) where status = 'open'`.execute(
      trx,
    );
    await sql`create index ${idx('groups')} on ${sql.table(table)} using gin (candidate_groups) where status = 'open' and assignee is null`.execute(
      trx,
    );
    await sql`create index ${idx('done')} on ${sql.table(table)} (tenant_id, completed_by, end_time desc) where status = 'completed'`.execute(
      trx,
    );
    await sql`create index ${idx('instance')} on ${sql.table(table)} (tenant_id, instance_id)`.execute(trx);
  },
  async handle(trx, events, ctx) {
    const t = sql.table(ctx.table);
    // The instance's fields each task row repeats, from ProcessStarted (kept per stream for this batch).
    const started = new Map<string, Extract<ProcessEvent, { type: 'ProcessStarted' }>['data']>();
    for (const raw of events) {
      const e = asProcess(raw);
      const task = (id: string) => sql`tenant_id = ${e.tenantId} and task_id = ${id}`;
      switch (e.type) {
        case 'ProcessStarted':
          started.set(e.streamId, e.data);
          break;
        case 'TaskCreated': {
          const d = e.data;
          const s = started.get(e.streamId) ?? (await startedOf(trx, e.tenantId, e.streamId));
          await sql`insert into ${t} (tenant_id, task_id, instance_id, definition_id, definition_key, definition_name,
              definition_version, category, start_user, start_user_name, business_table, business_id, element_id, name,
              assignee, candidate_users, candidate_groups, status, create_time, due_date)
            values (${e.tenantId}, ${d.taskId}, ${e.streamId}, ${s?.definitionId ?? ''}, ${s?.definitionKey ?? ''},
              ${s?.definitionName ?? ''}, ${s?.definitionVersion ?? 0}, ${s?.category ?? ''}, ${s?.startUser ?? ''},
              ${s?.startUserName ?? ''}, ${s?.businessTable ?? ''}, ${s?.businessId ?? ''}, ${d.elementId}, ${d.name.slice(0, 200)},
              ${d.assignee}, ${d.candidateUsers}::text[], ${d.candidateGroups}::text[], 'open', ${d.at}::timestamptz,
              ${d.dueDate}::timestamptz)
            on conflict do nothing`.execute(trx);
          break;
        }
        case 'TaskClaimed':
          await sql`update ${t} set assignee = ${e.data.userId}, claim_time = ${e.data.at}::timestamptz where ${task(e.data.taskId)}`.execute(
            trx,
          );
          break;
        case 'TaskDelegated':
          await sql`update ${t} set assignee = ${e.data.to} where ${task(e.data.taskId)}`.execute(trx);
          break;
        case 'TaskCompleted':
          await sql`update ${t} set status = 'completed', end_time = ${e.data.at}::timestamptz, completed_by = ${e.data.userId},
            completed_by_name = ${e.data.userName.slice(0, 64)}, flag = ${e.data.flag.slice(0, 10)},
            comment = ${e.data.comment.slice(0, 1000)} where ${task(e.data.taskId)}`.execute(trx);
          break;
        case 'TaskCancelled':
          await sql`update ${t} set status = 'cancelled', end_time = ${e.data.at}::timestamptz where ${task(e.data.taskId)}`.execute(
            trx,
          );
          break;
        case 'ProcessSuspended':
        case 'ProcessResumed':
        case 'ProcessEnded':
        case 'ProcessTerminated': {
          const status = {
            ProcessSuspended: 'suspended',
            ProcessResumed: 'running',
            ProcessEnded: 'ended',
            ProcessTerminated: 'terminated',
          }[e.type];
          await sql`update ${t} set process_status = ${status} where tenant_id = ${e.tenantId} and instance_id = ${e.streamId}`.execute(
            trx,
          );
          break;
        }
        default:
          break;
      }
    }
  },
};

async function startedOf(trx: Tx, tenantId: string, instanceId: string) {
  const rows = await sql<{ data: Extract<ProcessEvent, { type: 'ProcessStarted' }>['data'] }>`
    select data from events where tenant_id = ${tenantId} and stream_id = ${instanceId} and stream_version = 1`.execute(
    trx,
  );
  return rows.rows[0]?.data;
}

export const flowWaitProjection: ProjectionDefinition = {
  name: 'flow_wait',
  kind: 'inline',
  eventTypes: [
    'TimerScheduled',
    'TimerFired',
    'TimerCancelled',
    'ServiceScheduled',
    'ServiceCompleted',
    'ServiceFailed',
    'ProcessEnded',
    'ProcessTerminated',
  ],
  async createTable(trx, table) {
    await sql`
      create table ${sql.table(table)} (
        tenant_id varchar(12) not null,
        wait_id varchar(60) not null,
        instance_id varchar(40) not null,
        kind varchar(8) not null,
        due_at timestamptz not null,
        retries integer not null default 1,
        primary key (tenant_id, wait_id)
      )`.execute(trx);
    await sql`create index ${sql.raw(`${table}_due`)} on ${sql.table(table)} (due_at)`.execute(trx);
  },
  async handle(trx, events, ctx) {
    const t = sql.table(ctx.table);
    for (const raw of events) {
      const e = asProcess(raw);
      const drop = (id: string) =>
        sql`delete from ${t} where tenant_id = ${e.tenantId} and wait_id = ${id}`.execute(trx);
      switch (e.type) {
        case 'TimerScheduled':
          await sql`insert into ${t} (tenant_id, wait_id, instance_id, kind, due_at)
            values (${e.tenantId}, ${e.data.timerId}, ${e.streamId}, 'timer', ${e.data.dueAt}::timestamptz) on conflict do nothing`.execute(
            trx,
          );
          break;
        case 'ServiceScheduled':
          await sql`insert into ${t} (tenant_id, wait_id, instance_id, kind, due_at, retries)
            values (${e.tenantId}, ${e.data.jobId}, ${e.streamId}, 'service', ${e.data.at}::timestamptz, ${e.data.retries})
            on conflict do nothing`.execute(trx);
          break;
        case 'TimerFired':
        case 'TimerCancelled':
          await drop(e.data.timerId);
          break;
        case 'ServiceCompleted':
        case 'ServiceFailed':
          await drop(e.data.jobId);
          break;
        case 'ProcessEnded':
        case 'ProcessTerminated':
          await sql`delete from ${t} where tenant_id = ${e.tenantId} and instance_id = ${e.streamId}`.execute(trx);
          break;
        default:
          break;
      }
    }
  },
};

/** Registers the workflow read models once per process (imported by events/catalog.ts). */
export function registerWorkflowProjections() {
  for (const p of [flowInstanceProjection, flowTaskProjection, flowWaitProjection])
    if (!projectionNamed(p.name)) registerProjection(p);
}

export const WORKFLOW_EVENT_TYPES = PROCESS_EVENT_TYPES;
