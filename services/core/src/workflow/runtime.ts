import { sql } from 'kysely';
import type { Database, TenantContext, Tx } from '../db';
import { inTenant } from '../db';
import { loadState } from '../events/decider';
import { VersionConflictError } from '../events/errors';
import { appendToStream } from '../events/store';
import type { EventMetadata } from '../events/types';
import { nextId } from '../ids';
import type { KeyValueStore } from '../kv';
import type { JobQueue } from '../queue';
import { compileBpmn } from './compile';
import { decideInstance, evolveInstance, type InstanceState, type ProcessCommand, processDecider } from './engine';
import { FlowError } from './errors';
import { PROCESS_STREAM, type ProcessEvent, type ProcessStartedData } from './events';
import { dueAt } from './iso';
import type { CompiledProcess } from './model';
import { registerWorkflowProjections } from './projection';

// Any process that runs the engine writes its work lists: the projections are registered with it.
registerWorkflowProjections();

/**
 * The engine's I/O: deployed definitions, commands on an instance's stream (optimistic, retried
 * on a conflict), and the continuations as queue jobs. Jobs are idempotent: a timer fires only
 * while the state says it is scheduled, and its append carries the idempotency key
 * `flow-timer:<id>`, so a job delivered twice, or re-enqueued by the sweep, never moves a token twice.
 */

export const TIMER_QUEUE = 'flow-timer';
export const SERVICE_QUEUE = 'flow-service';

export interface FlowDeps {
  database: Database;
  queue: JobQueue;
  /** The platform's key-value store (a service task's send limits); absent in the engine's own tests. */
  kv?: KeyValueStore;
  /** Production refuses private endpoints to handlers that call out (SSRF); default: production. */
  production?: boolean;
}

export interface TimerJob {
  tenantId: string;
  instanceId: string;
  timerId: string;
  /** A timer start event: start an instance of this definition when due (instanceId is the new one's). */
  startDefinitionId?: string;
  dueAt: string;
}

export interface ServiceJob {
  tenantId: string;
  instanceId: string;
  jobId: string;
}

// --- service task handlers -------------------------------------------------------------

export interface ServiceContext {
  database: Database;
  tenantId: string;
  instanceId: string;
  elementId: string;
  variables: Readonly<Record<string, unknown>>;
  startUser: string;
  /** 1 on the first try. */
  attempt: number;
  kv?: KeyValueStore;
  production: boolean;
}
/** A service task's work; its answer is merged into the instance's variables. Runs at least once: make it idempotent. */
export type ServiceHandler = (ctx: ServiceContext) => Promise<Record<string, unknown> | undefined>;

const handlers = new Map<string, ServiceHandler>();
export function registerServiceHandler(name: string, handler: ServiceHandler) {
  handlers.set(name, handler);
}
export const serviceHandlerNames = () => [...handlers.keys()];

// --- definitions -----------------------------------------------------------------------

export interface DeploymentRow {
  tenant_id: string;
  id: string;
  deployment_id: string;
  key: string;
  name: string;
  description: string;
  category: string;
  version: number;
  suspension_state: number;
  resource_name: string;
  deploy_time: Date;
  deploy_user: string | null;
}

const compiledCache = new Map<string, CompiledProcess>();

/** A deployed definition's compiled process (deployments never change: cached per process). */
export async function compiledOf(trx: Tx, tenantId: string, definitionId: string): Promise<CompiledProcess> {
  const key = `${tenantId}/${definitionId}`;
  const hit = compiledCache.get(key);
  if (hit) return hit;
  const row = (
    await sql<{ compiled: CompiledProcess }>`select compiled from flow_deployment
      where tenant_id = ${tenantId} and id = ${definitionId}`.execute(trx)
  ).rows[0];
  if (!row) throw new FlowError('flow.noDefinition', { id: definitionId });
  compiledCache.set(key, row.compiled);
  return row.compiled;
}

export interface DeployInput {
  xml: string;
  /** The definition key (a model's key); default the process's id. */
  key?: string;
  category: string;
  resourceName?: string;
  description?: string;
  userId?: string | null;
  deploymentId?: string;
}

/** Compiles (refusing what is outside the subset) and stores the next version of the process's key. */
export async function deployDefinition(trx: Tx, tenantId: string, input: DeployInput): Promise<DeploymentRow> {
  const read = await compileBpmn(input.xml, { handlers: serviceHandlerNames() });
  const compiled = input.key ? { ...read, key: input.key } : read;
  const next = (
    await sql<{ v: number }>`select coalesce(max(version), 0)::int + 1 as v from flow_deployment
      where tenant_id = ${tenantId} and key = ${compiled.key}`.execute(trx)
  ).rows[0]?.v as number;
  const deploymentId = input.deploymentId ?? nextId();
  const id = `${compiled.key}:${next}:${deploymentId}`;
  const rows =
    await sql<DeploymentRow>`insert into flow_deployment (tenant_id, id, deployment_id, key, name, description,
      category, version, resource_name, xml, compiled, deploy_user)
    values (${tenantId}, ${id}, ${deploymentId}, ${compiled.key}, ${compiled.name.slice(0, 100)},
      ${(input.description ?? '').slice(0, 500)}, ${input.category}, ${next},
      ${(input.resourceName ?? `${compiled.key}.bpmn20.xml`).slice(0, 200)}, ${input.xml}, ${JSON.stringify(compiled)}::jsonb,
      ${input.userId ?? null})
    returning tenant_id, id, deployment_id::text, key, name, description, category, version, suspension_state,
      resource_name, deploy_time, deploy_user::text`.execute(trx);
  return rows.rows[0] as DeploymentRow;
}

/** The timer start of a fresh deployment, as a job to enqueue after its transaction commits (or none). */
export function timerStartJob(
  tenantId: string,
  row: DeploymentRow,
  compiled: CompiledProcess,
  now = Date.now(),
): TimerJob | null {
  if (!compiled.timerStart) return null;
  const due = dueAt(compiled.timerStart.timer.kind, compiled.timerStart.timer.value, now);
  if (due === null) return null;
  return {
    tenantId,
    instanceId: `${row.deployment_id}s`,
    timerId: `${row.id}#start`,
    startDefinitionId: row.id,
    dueAt: new Date(due).toISOString(),
  };
}

// --- commands --------------------------------------------------------------------------

export interface CommandOutcome {
  state: InstanceState;
  events: ProcessEvent[];
  version: number;
}

/**
 * One command on an instance in the caller's transaction: load → decide (with the instance's
 * definition) → append expecting the loaded version. A concurrent writer makes it throw
 * VersionConflictError (retry on fresh state: `runProcessCommand`).
 */
export async function processCommandIn(
  trx: Tx,
  tenantId: string,
  instanceId: string,
  build: (state: InstanceState, def: CompiledProcess | null) => ProcessCommand,
  metadata: Omit<EventMetadata, 'tenantId'>,
): Promise<CommandOutcome> {
  const loaded = await loadState(trx, processDecider, tenantId, instanceId);
  const def = loaded.state.started ? await compiledOf(trx, tenantId, loaded.state.started.definitionId) : null;
  const command = build(loaded.state, def);
  const events = decideInstance(command, loaded.state);
  if (!events.length) return { state: loaded.state, events: [], version: loaded.version };
  const appended = await appendToStream(
    trx,
    { tenantId, type: PROCESS_STREAM, id: instanceId },
    loaded.version === 0 ? 'no_stream' : loaded.version,
    events,
    { ...metadata, tenantId },
  );
  if (appended.duplicate) return { state: loaded.state, events: [], version: loaded.version };
  return { state: events.reduce(evolveInstance, loaded.state), events, version: appended.nextExpectedVersion };
}

/** `processCommandIn` in its own tenant transaction, retried on a conflict, then its continuations enqueued. */
export async function runProcessCommand(
  deps: FlowDeps,
  ctx: TenantContext,
  instanceId: string,
  build: (state: InstanceState, def: CompiledProcess | null) => ProcessCommand,
  metadata: Omit<EventMetadata, 'tenantId'> = {},
): Promise<CommandOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      const outcome = await inTenant(deps.database, ctx, (trx) =>
        processCommandIn(trx, ctx.tenantId, instanceId, build, metadata),
      );
      await scheduleEffects(deps.queue, ctx.tenantId, instanceId, outcome.events, outcome.state);
      return outcome;
    } catch (err) {
      if (!(err instanceof VersionConflictError) || attempt >= 25) throw err;
    }
  }
}

export interface StartInput {
  definitionId: string;
  variables: Record<string, unknown>;
  startUser: string;
  startUserName: string;
  businessTable?: string;
  businessId?: string;
  instanceId?: string;
  startAt?: string;
}

/** Starts an instance in the caller's transaction (the definition must be active); enqueue with `scheduleEffects` after commit. */
export async function startProcessIn(
  trx: Tx,
  tenantId: string,
  input: StartInput,
  metadata: Omit<EventMetadata, 'tenantId'> = {},
): Promise<CommandOutcome & { instanceId: string }> {
  const row = (
    await sql<{ key: string; name: string; version: number; category: string; suspension_state: number }>`
      select key, name, version, category, suspension_state from flow_deployment
      where tenant_id = ${tenantId} and id = ${input.definitionId} and is_deleted = 0`.execute(trx)
  ).rows[0];
  if (!row) throw new FlowError('flow.noDefinition', { id: input.definitionId });
  if (row.suspension_state !== 1) throw new FlowError('flow.definitionSuspended');
  const def = await compiledOf(trx, tenantId, input.definitionId);
  const instanceId = input.instanceId ?? nextId();
  const started: Omit<ProcessStartedData, 'at'> = {
    instanceId,
    definitionId: input.definitionId,
    definitionKey: row.key,
    definitionName: row.name,
    definitionVersion: row.version,
    category: row.category,
    startUser: input.startUser,
    startUserName: input.startUserName,
    businessTable: input.businessTable ?? '',
    businessId: input.businessId ?? '',
    variables: input.variables,
  };
  const outcome = await processCommandIn(
    trx,
    tenantId,
    instanceId,
    () => ({
      type: 'start',
      def,
      started,
      now: new Date().toISOString(),
      ...(input.startAt ? { startAt: input.startAt } : {}),
    }),
    metadata,
  );
  return { ...outcome, instanceId };
}

export async function startProcess(
  deps: FlowDeps,
  ctx: TenantContext,
  input: StartInput,
  metadata: Omit<EventMetadata, 'tenantId'> = {},
) {
  const outcome = await inTenant(deps.database, ctx, (trx) => startProcessIn(trx, ctx.tenantId, input, metadata));
  await scheduleEffects(deps.queue, ctx.tenantId, outcome.instanceId, outcome.events, outcome.state);
  return outcome;
}

// --- continuations ---------------------------------------------------------------------

const timerJobId = (tenantId: string, timerId: string, round = '') =>
  `flow-timer-${tenantId}-${timerId}${round}`.replace(/:/g, '_');
const serviceJobId = (tenantId: string, jobId: string, round = '') =>
  `flow-service-${tenantId}-${jobId}${round}`.replace(/:/g, '_');

export async function enqueueTimer(queue: JobQueue, job: TimerJob, round = '') {
  const delayMs = Math.max(0, Date.parse(job.dueAt) - Date.now());
  await queue.enqueue(TIMER_QUEUE, job, { delayMs, jobId: timerJobId(job.tenantId, job.timerId, round), attempts: 5 });
}

export async function enqueueService(queue: JobQueue, job: ServiceJob, retries: number, round = '') {
  await queue.enqueue(SERVICE_QUEUE, job, {
    jobId: serviceJobId(job.tenantId, job.jobId, round),
    attempts: Math.max(1, retries),
    backoff: { type: 'exponential', delayMs: 500 },
  });
}

/** Enqueues what the events scheduled (after their transaction committed). */
export async function scheduleEffects(
  queue: JobQueue,
  tenantId: string,
  instanceId: string,
  events: readonly ProcessEvent[],
  state: InstanceState,
) {
  for (const e of events) {
    if (e.type === 'TimerScheduled') {
      if (state.timers[e.data.timerId]?.status === 'scheduled')
        await enqueueTimer(queue, { tenantId, instanceId, timerId: e.data.timerId, dueAt: e.data.dueAt });
    } else if (e.type === 'ServiceScheduled') {
      if (state.services[e.data.jobId]?.status === 'pending')
        await enqueueService(queue, { tenantId, instanceId, jobId: e.data.jobId }, e.data.retries);
    } else if (e.type === 'ProcessResumed') {
      // What waited while the instance was suspended runs again now.
      const round = `-r${Date.now()}`;
      for (const t of Object.values(state.timers))
        if (t.status === 'scheduled')
          await enqueueTimer(queue, { tenantId, instanceId, timerId: t.id, dueAt: t.dueAt }, round);
      for (const s of Object.values(state.services))
        if (s.status === 'pending')
          await enqueueService(queue, { tenantId, instanceId, jobId: s.id }, s.retries, round);
    }
  }
}

/** The timer queue's handler: fires the timer (or starts the timer-start instance) when due, once. */
export async function handleTimerJob(deps: FlowDeps, job: TimerJob): Promise<void> {
  const remaining = Date.parse(job.dueAt) - Date.now();
  if (remaining > 50) {
    // Delivered early (a sweep, a clock step): come back when due.
    await enqueueTimer(deps.queue, job, `-e${Date.now()}`);
    return;
  }
  const ctx = { tenantId: job.tenantId };
  if (job.startDefinitionId) {
    const definitionId = job.startDefinitionId;
    try {
      await inTenant(deps.database, ctx, async (trx) => {
        const def = await compiledOf(trx, job.tenantId, definitionId);
        const outcome = await startProcessIn(
          trx,
          job.tenantId,
          {
            definitionId,
            variables: {},
            startUser: '',
            startUserName: '',
            instanceId: job.instanceId,
            ...(def.timerStart ? { startAt: def.timerStart.id } : {}),
          },
          { idempotencyKey: `flow-timer:${job.timerId}` },
        );
        await scheduleEffects(deps.queue, job.tenantId, job.instanceId, outcome.events, outcome.state);
      });
    } catch (err) {
      // Started already (a second delivery): nothing to do.
      if (err instanceof FlowError && err.messageKey === 'flow.alreadyStarted') return;
      if (err instanceof VersionConflictError) return;
      throw err;
    }
    return;
  }
  await runProcessCommand(
    deps,
    ctx,
    job.instanceId,
    (_s, def) => ({
      type: 'fireTimer',
      def: def as CompiledProcess,
      timerId: job.timerId,
      now: new Date().toISOString(),
    }),
    { idempotencyKey: `flow-timer:${job.timerId}`, actorName: 'timer' },
  );
}

/** The service queue's handler: runs the named handler, then moves the token on (once). */
export async function handleServiceJob(deps: FlowDeps, job: ServiceJob, attempt: number): Promise<void> {
  const ctx = { tenantId: job.tenantId };
  const loaded = await inTenant(deps.database, ctx, (trx) =>
    loadState(trx, processDecider, job.tenantId, job.instanceId),
  );
  const state = loaded.state;
  const service = state.services[job.jobId];
  if (service?.status !== 'pending' || state.status !== 'running' || !state.tokens[service.tokenId]) return;
  const handler = handlers.get(service.handler);
  let variables: Record<string, unknown> = {};
  try {
    if (!handler) throw new FlowError('flow.noHandler', { handler: service.handler });
    variables =
      (await handler({
        database: deps.database,
        tenantId: job.tenantId,
        instanceId: job.instanceId,
        elementId: service.elementId,
        variables: state.variables,
        startUser: state.started?.startUser ?? '',
        attempt,
        kv: deps.kv,
        production: deps.production ?? true,
      })) ?? {};
  } catch (err) {
    if (attempt >= service.retries) {
      await runProcessCommand(deps, ctx, job.instanceId, () => ({
        type: 'serviceFailed',
        jobId: job.jobId,
        error: err instanceof Error ? err.message : String(err),
        now: new Date().toISOString(),
      }));
      return;
    }
    throw err;
  }
  await runProcessCommand(
    deps,
    ctx,
    job.instanceId,
    (_s, def) => ({
      type: 'serviceDone',
      def: def as CompiledProcess,
      jobId: job.jobId,
      variables,
      now: new Date().toISOString(),
    }),
    { idempotencyKey: `flow-service:${job.jobId}`, actorName: 'service' },
  );
}

/**
 * The sweep: timers overdue by more than `graceMs` and service jobs older than it are enqueued
 * again under a new job id (the first job was lost with a killed worker, or failed for good);
 * the handlers' idempotency makes extra deliveries harmless. Reads every tenant (owner).
 */
export async function sweepWaits(deps: FlowDeps, graceMs = 30_000): Promise<number> {
  const rows = await sql<{
    tenant_id: string;
    wait_id: string;
    instance_id: string;
    kind: string;
    due_at: Date;
    retries: number;
  }>`
    select tenant_id, wait_id, instance_id, kind, due_at, retries from flow_wait
    where due_at < now() - make_interval(secs => ${graceMs / 1000}) order by due_at limit 1000`.execute(
    deps.database.db,
  );
  const round = `-w${Math.floor(Date.now() / Math.max(1000, graceMs))}`;
  for (const r of rows.rows) {
    if (r.kind === 'timer')
      await enqueueTimer(
        deps.queue,
        { tenantId: r.tenant_id, instanceId: r.instance_id, timerId: r.wait_id, dueAt: r.due_at.toISOString() },
        round,
      );
    else
      await enqueueService(
        deps.queue,
        { tenantId: r.tenant_id, instanceId: r.instance_id, jobId: r.wait_id },
        r.retries,
        round,
      );
  }
  return rows.rows.length;
}
