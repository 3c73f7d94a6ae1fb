import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { DB } from '@sprout/core/db';
import { AppError, badRequest, forbidden, notFound } from '@sprout/core/errors';
import { loadState, readStream } from '@sprout/core/events';
import { offsetOf, PageQuerySchema, pageOf } from '@sprout/core/http/paging';
import { nextId } from '@sprout/core/ids';
import { t as translate } from '@sprout/core/i18n';
import { formatDateTime, parseDateTime } from '@sprout/core/time';
import {
  type CompiledProcess,
  compiledOf,
  type DeploymentRow,
  deployDefinition,
  type FlowDeps,
  processDecider,
  processOf,
  runProcessCommand,
  scheduleEffects,
  startProcessIn,
  timerStartJob,
  enqueueTimer,
} from '@sprout/core/workflow';
import { text } from '../../http/answer';
import { IdSchema, requiredText } from '../../http/params';
import { Routes } from '../../http/routes';
import { permissionsOf } from '../../plugins/auth';
import { tenantOf } from '../../plugins/context';
import { pageSchema } from '../../plugins/serialization';
import {
  type Caller,
  callerOf,
  categoryJoin,
  type DeploymentListRow,
  type InstanceRow,
  liveUser,
  type ModelRow,
  TASK_COLUMNS,
  TASK_FROM,
  type TaskRow,
  userName,
} from './flow-repo';
import { emptyModelXml, LEAVE_CATEGORY, LEAVE_KEY } from './leave-process';
import {
  DeploymentAnswer,
  FlowAnswer,
  HistoryAnswer,
  highlightOf,
  historyOf,
  ModelAnswer,
  presentDeployment,
  presentInstance,
  presentModel,
  presentTask,
} from './present';

export const FLOW = '/api/blade-flow';
export const LEAVE = '/api/blade-desk/process/leave';

const search = (max = 100) => z.string().trim().max(max).optional();
const like = (v: string) => `%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const tzOf = (request: FastifyRequest) => request.server.config.TIME_ZONE;
const langOf = (request: FastifyRequest) => (request.lang === 'en' ? 'en' : 'zh');

/** One page of a list statement: `select <columns> from <from> where <where> order by <order>`, total beside. */
async function page<Row>(
  trx: Kysely<DB>,
  q: { current: number; size: number },
  columns: RawBuilder<unknown>,
  from: RawBuilder<unknown>,
  where: RawBuilder<unknown>,
  order: RawBuilder<unknown>,
) {
  const rows = await sql<Row & { __total: string }>`select ${columns}, count(*) over () as __total from ${from}
    where ${where} order by ${order} limit ${q.size} offset ${offsetOf(q)}`.execute(trx);
  const total = Number(rows.rows[0]?.__total ?? 0);
  if (!rows.rows.length && q.current > 1) {
    const n = await sql<{ n: string }>`select count(*) as n from ${from} where ${where}`.execute(trx);
    return { rows: [] as Row[], total: Number(n.rows[0]?.n ?? 0) };
  }
  return { rows: rows.rows as Row[], total };
}

const and = (parts: Array<RawBuilder<unknown> | false | '' | undefined>) => {
  const list = parts.filter(Boolean) as RawBuilder<unknown>[];
  return list.length ? sql.join(list, sql` and `) : sql`true`;
};

const DEPLOYMENT_COLUMNS = sql`d.id, d.deployment_id::text as deployment_id, d.tenant_id, d.key, d.name, d.description, d.category,
  cat.category_name, cat.form_route, d.version, d.suspension_state, d.resource_name, d.deploy_time`;
const DEPLOYMENT_FROM = sql`flow_deployment d ${categoryJoin('d')}`;

const INSTANCE_COLUMNS = sql`i.instance_id, i.definition_id, i.definition_key, i.definition_name, i.definition_version, i.category,
  cat.category_name, cat.form_route, i.start_user, i.start_user_name, i.business_table, i.business_id, i.status, i.variables,
  i.start_time, i.end_time`;
const INSTANCE_FROM = sql`flow_instance i ${categoryJoin('i')}`;

async function openTasksOf(trx: Kysely<DB>, tenantId: string, instanceIds: string[]) {
  if (!instanceIds.length) return new Map<string, TaskRow[]>();
  const rows = await sql<TaskRow>`select ${TASK_COLUMNS} from ${TASK_FROM}
    where t.tenant_id = ${tenantId} and t.instance_id = any(${instanceIds}::text[]) and t.status = 'open'
    order by t.create_time, t.task_id`.execute(trx);
  const map = new Map<string, TaskRow[]>();
  for (const r of rows.rows) map.set(r.instance_id, [...(map.get(r.instance_id) ?? []), r]);
  return map;
}

async function deploymentsOf(trx: Kysely<DB>, tenantId: string, ids: string[]) {
  return (
    await sql<DeploymentListRow>`select ${DEPLOYMENT_COLUMNS} from ${DEPLOYMENT_FROM}
      where d.tenant_id = ${tenantId} and d.id = any(${ids}::text[])`.execute(trx)
  ).rows;
}

/** The tenants a deployment goes to: the caller's own; the platform administrator may name others. */
async function targetTenants(request: FastifyRequest, tenantIds: string | undefined): Promise<string[]> {
  const own = tenantOf(request).tenantId;
  const list = (tenantIds ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!list.length) return [own];
  const perms = await permissionsOf(request);
  if (!perms.isPlatformAdministrator) {
    if (list.some((t) => t !== own)) throw forbidden();
    return [own];
  }
  const known = await request.server.database.db
    .selectFrom('tenant')
    .select('tenant_id')
    .where('tenant_id', 'in', list)
    .where('is_deleted', '=', 0)
    .execute();
  const have = new Set(known.map((k) => k.tenant_id));
  const unknown = list.filter((t) => !have.has(t));
  if (unknown.length) throw badRequest('flow.unknownTenant', { ids: unknown.join(',') });
  return [...new Set(list)];
}

/** Deploys the XMLs to the tenants, all or none; answers the new deployments (of the caller's tenant, else the first). */
async function deployAll(
  request: FastifyRequest,
  deps: FlowDeps,
  files: Array<{ xml: string; name: string; key?: string }>,
  category: string,
  tenants: string[],
) {
  const { userId } = tenantOf(request);
  const made: Array<{ tenantId: string; row: DeploymentRow; compiled: CompiledProcess }> = [];
  const deploymentId = nextId();
  for (const tenantId of tenants) {
    const work = async (trx: Kysely<DB>) => {
      for (const f of files) {
        const row = await deployDefinition(trx, tenantId, {
          xml: f.xml,
          ...(f.key ? { key: f.key } : {}),
          category,
          resourceName: f.name,
          userId: tenantId === tenantOf(request).tenantId ? (userId ?? null) : null,
          deploymentId,
        });
        made.push({ tenantId, row, compiled: await compiledOf(trx, tenantId, row.id) });
      }
    };
    if (tenantId === tenantOf(request).tenantId) await request.tx(work);
    else await request.server.database.db.transaction().execute((trx) => work(trx));
  }
  for (const m of made) {
    const job = timerStartJob(m.tenantId, m.row, m.compiled);
    if (job) await enqueueTimer(deps.queue, job);
  }
  const mine = made.filter((m) => m.tenantId === tenantOf(request).tenantId);
  const shown = mine.length ? mine : made.slice(0, files.length);
  const rows = await request.tx((trx) =>
    deploymentsOf(
      trx,
      tenantOf(request).tenantId,
      shown.map((m) => m.row.id),
    ),
  );
  const tz = tzOf(request);
  return shown.map((m) => {
    const r = rows.find((x) => x.id === m.row.id);
    return presentDeployment(
      r ?? { ...m.row, category_name: null, form_route: null, deployment_id: String(m.row.deployment_id) },
      tz,
    );
  });
}

/** Who may read an instance: its starter, anyone named on one of its tasks, or the follow-up screen. */
async function requireReader(request: FastifyRequest, trx: Kysely<DB>, instanceId: string, caller: Caller) {
  const { tenantId } = tenantOf(request);
  const perms = await permissionsOf(request);
  if (perms.allows(`GET ${FLOW}/follow/list`)) return;
  const row = (
    await sql<{ ok: boolean }>`select exists (select 1 from flow_instance i where i.tenant_id = ${tenantId}
      and i.instance_id = ${instanceId} and i.start_user = ${caller.id})
      or exists (select 1 from flow_task t where t.tenant_id = ${tenantId} and t.instance_id = ${instanceId}
      and (t.assignee = ${caller.id} or t.completed_by = ${caller.id} or ${caller.id} = any(t.candidate_users)
           or t.candidate_groups && ${caller.groups}::text[])) as ok`.execute(trx)
  ).rows[0];
  if (!row?.ok) throw notFound('flow.noInstance');
}

const BOOL = z.enum(['true', 'false', '1', '0']).optional();

/** The workflow calls (docs/API.md "Workflow"). */
export async function flowRoutes(app: FastifyInstance) {
  {
    const deps = (): FlowDeps => ({ database: app.database, queue: app.queue });
    await app.register(multipart);
    const route = new Routes(app, ['workflow']);
    const callerIn = (request: FastifyRequest, trx: Kysely<DB>) => {
      const { tenantId, userId = '' } = tenantOf(request);
      return callerOf(trx, tenantId, userId);
    };

    // --- models --------------------------------------------------------------------------
    route.get(`${FLOW}/model/list`, {
      summary: 'Process models, newest update first, paged (modelKey, name: contains)',
      query: PageQuerySchema.extend({ modelKey: search(64), name: search() }),
      data: pageSchema(ModelAnswer),
      handler: async (request, q) => {
        const { tenantId } = tenantOf(request);
        const out = await request.tx((trx) =>
          page<ModelRow>(
            trx,
            q,
            sql`m.id::text as id, m.model_key, m.name, m.description, '' as xml, m.version, m.create_time, m.update_time`,
            sql`flow_model m`,
            and([
              sql`m.tenant_id = ${tenantId} and m.is_deleted = 0`,
              q.modelKey && sql`m.model_key ilike ${like(q.modelKey)}`,
              q.name && sql`m.name ilike ${like(q.name)}`,
            ]),
            sql`m.update_time desc, m.id desc`,
          ),
        );
        return pageOf(
          out.rows.map((r) => presentModel(r, tzOf(request))),
          out.total,
          q,
        );
      },
    });

    const modelById = (trx: Kysely<DB>, tenantId: string, id: string) =>
      sql<ModelRow>`select m.id::text as id, m.model_key, m.name, m.description, m.xml, m.version, m.create_time, m.update_time
        from flow_model m where m.tenant_id = ${tenantId} and m.id = ${id} and m.is_deleted = 0`
        .execute(trx)
        .then((r) => r.rows[0]);

    route.get(`${FLOW}/model/detail`, {
      summary: 'One model with its BPMN XML',
      query: z.object({ id: IdSchema }),
      data: ModelAnswer,
      handler: async (request, q) => {
        const row = await request.tx((trx) => modelById(trx, tenantOf(request).tenantId, q.id));
        if (!row) throw notFound();
        return presentModel(row, tzOf(request), true);
      },
    });

    route.post(`${FLOW}/model/submit`, {
      summary: 'Saves a model (the modeler’s XML); a new one without XML gets a process with one start event',
      description:
        'The XML must parse and its one process’s id must be the modelKey (400 otherwise). Subset checks come at deploy.',
      config: { buttons: ['flow_model_add', 'flow_model_edit'] },
      body: z.object({
        id: IdSchema.nullish(),
        modelKey: z
          .string({ error: '$flow.modelKey' })
          .trim()
          .regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/, '$flow.modelKey'),
        name: requiredText(100, '$flow.modelName'),
        description: z.string().trim().max(500).nullish(),
        xml: z.string().max(1_000_000, '$flow.xmlTooLong').nullish(),
      }),
      data: ModelAnswer,
      done: (b) => (b.id ? 'http.updated' : 'http.added'),
      handler: async (request, b) => {
        const { tenantId, userId } = tenantOf(request);
        const xml = b.xml?.trim() ? b.xml : emptyModelXml(b.modelKey, b.name);
        // The XML must parse and hold one process; its id may differ (the model's key names the definition).
        await processOf(xml);
        return request.tx(async (trx) => {
          const taken = (
            await sql<{ id: string }>`select id::text as id from flow_model where tenant_id = ${tenantId}
              and model_key = ${b.modelKey} and is_deleted = 0`.execute(trx)
          ).rows[0];
          if (taken && taken.id !== b.id) throw badRequest('flow.modelKeyTaken', { modelKey: b.modelKey });
          let id = b.id ?? null;
          if (id) {
            const updated = await sql`update flow_model set model_key = ${b.modelKey}, name = ${b.name},
                description = ${b.description ?? ''}, xml = ${xml}, version = version + 1, update_user = ${userId ?? null},
                update_time = now() where tenant_id = ${tenantId} and id = ${id} and is_deleted = 0`.execute(trx);
            if (!Number(updated.numAffectedRows ?? 0)) throw notFound();
          } else {
            id = nextId();
            await sql`insert into flow_model (tenant_id, id, model_key, name, description, xml, create_user, update_user)
              values (${tenantId}, ${id}, ${b.modelKey}, ${b.name}, ${b.description ?? ''}, ${xml}, ${userId ?? null},
              ${userId ?? null})`.execute(trx);
          }
          const row = await modelById(trx, tenantId, id);
          if (!row) throw notFound();
          return presentModel(row, tzOf(request), true);
        });
      },
    });

    route.post(`${FLOW}/model/remove`, {
      summary: 'Removes models (ids); their deployments stay',
      config: { buttons: ['flow_model_delete'] },
      merged: z.object({ ids: z.string().trim().min(1, '$validation.required').max(4000) }),
      data: z.null(),
      done: 'http.removed',
      handler: async (request, { ids }) => {
        const list = ids.split(',').map((s) => s.trim());
        if (list.some((id) => !/^[1-9][0-9]{0,18}$/.test(id))) throw badRequest('error.badRequest');
        await request.tx(
          (trx) =>
            sql`update flow_model set is_deleted = 1, update_time = now() where tenant_id = ${tenantOf(request).tenantId}
              and id = any(${list}::bigint[])`.execute(trx) as Promise<unknown>,
        );
        return null;
      },
    });

    route.post(`${FLOW}/model/deploy`, {
      summary:
        'Deploys a model: checks the supported subset (400 naming the element and the reason) and stores the next version of its key',
      config: { buttons: ['flow_model_deploy'] },
      merged: z.object({ modelId: IdSchema, category: z.string().trim().max(64).optional(), tenantIds: search(2000) }),
      data: z.array(DeploymentAnswer),
      done: 'flow.deployed',
      handler: async (request, b) => {
        const model = await request.tx((trx) => modelById(trx, tenantOf(request).tenantId, b.modelId));
        if (!model) throw notFound();
        const tenants = await targetTenants(request, b.tenantIds);
        return deployAll(
          request,
          deps(),
          [{ xml: model.xml, name: `${model.model_key}.bpmn20.xml`, key: model.model_key }],
          b.category ?? '',
          tenants,
        );
      },
    });

    // --- deployments ---------------------------------------------------------------------
    route.get(`${FLOW}/manager/list`, {
      summary:
        'Deployed definitions, every version, newest first (category, key, name; mode=latest: the latest version per key)',
      query: PageQuerySchema.extend({ category: search(64), key: search(64), name: search(), mode: search(10) }),
      data: pageSchema(DeploymentAnswer),
      handler: async (request, q) => {
        const { tenantId } = tenantOf(request);
        const out = await request.tx((trx) =>
          page<DeploymentListRow>(
            trx,
            q,
            DEPLOYMENT_COLUMNS,
            DEPLOYMENT_FROM,
            and([
              sql`d.tenant_id = ${tenantId} and d.is_deleted = 0`,
              q.category && sql`d.category = ${q.category}`,
              q.key && sql`d.key ilike ${like(q.key)}`,
              q.name && sql`d.name ilike ${like(q.name)}`,
              q.mode === 'latest' &&
                sql`d.version = (select max(x.version) from flow_deployment x where x.tenant_id = d.tenant_id and x.key = d.key and x.is_deleted = 0)`,
            ]),
            sql`d.deploy_time desc, d.key, d.version desc`,
          ),
        );
        return pageOf(
          out.rows.map((r) => presentDeployment(r, tzOf(request))),
          out.total,
          q,
        );
      },
    });

    route.post(`${FLOW}/manager/change-state`, {
      summary:
        'Suspends or activates a definition (processId, state=active|suspended); tasks=true also suspends/resumes its running instances',
      config: { buttons: ['flow_manager_state'] },
      merged: z.object({
        processId: z.string().trim().min(1, '$validation.required').max(120),
        state: z.enum(['active', 'suspended'], { error: '$flow.state' }),
        tasks: BOOL,
      }),
      data: DeploymentAnswer,
      handler: async (request, b) => {
        const ctx = tenantOf(request);
        const caller = await request.tx((trx) => callerIn(request, trx));
        const instances = await request.tx(async (trx) => {
          const r = await sql`update flow_deployment set suspension_state = ${b.state === 'active' ? 1 : 2}
            where tenant_id = ${ctx.tenantId} and id = ${b.processId} and is_deleted = 0`.execute(trx);
          if (!Number(r.numAffectedRows ?? 0))
            throw new AppError('bad_request', 'flow.noDefinition', { id: b.processId });
          if (b.tasks !== 'true' && b.tasks !== '1') return [];
          return (
            await sql<{ instance_id: string }>`select instance_id from flow_instance where tenant_id = ${ctx.tenantId}
              and definition_id = ${b.processId} and status = ${b.state === 'active' ? 'suspended' : 'running'}`.execute(
              trx,
            )
          ).rows.map((x) => x.instance_id);
        });
        for (const id of instances)
          await runProcessCommand(
            deps(),
            ctx,
            id,
            () =>
              b.state === 'active'
                ? { type: 'resume', now: new Date().toISOString() }
                : { type: 'suspend', reason: 'definition suspended', now: new Date().toISOString() },
            { actorId: ctx.userId, actorName: caller.name },
          );
        const [row] = await request.tx((trx) => deploymentsOf(trx, ctx.tenantId, [b.processId]));
        if (!row) throw notFound();
        return presentDeployment(row, tzOf(request));
      },
    });

    route.post(`${FLOW}/manager/deploy-upload`, {
      summary: 'Deploys uploaded .bpmn / .xml files (multipart category, tenantIds, files): all or none',
      config: { buttons: ['flow_manager_upload'] },
      data: z.array(DeploymentAnswer),
      done: 'flow.deployed',
      handler: async (request) => {
        if (!request.isMultipart()) throw badRequest('flow.noFile');
        const files: Array<{ xml: string; name: string }> = [];
        const fields: Record<string, string> = {};
        try {
          for await (const part of request.parts({
            limits: { files: 20, fileSize: 1_000_000, fields: 10, fieldSize: 2000 },
          })) {
            if (part.type === 'file') {
              if (!/\.(bpmn|xml)$/i.test(part.filename)) {
                part.file.resume();
                throw badRequest('flow.fileType', { name: part.filename });
              }
              const buf = await part.toBuffer();
              files.push({ xml: buf.toString('utf8'), name: part.filename.slice(0, 200) });
            } else fields[part.fieldname] = String(part.value ?? '');
          }
        } catch (err) {
          if (err instanceof AppError) throw err;
          throw badRequest('flow.fileTooLarge');
        }
        const q = request.query as Record<string, string | undefined>;
        if (!files.length) throw badRequest('flow.noFile');
        const category = (fields.category ?? q.category ?? '').trim().slice(0, 64);
        const tenants = await targetTenants(request, fields.tenantIds ?? q.tenantIds);
        return deployAll(request, deps(), files, category, tenants);
      },
    });

    const removeDeployments = async (request: FastifyRequest, ids: string) => {
      const list = ids
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (!list.length || list.some((x) => !/^[0-9]{1,19}$/.test(x))) throw badRequest('error.badRequest');
      const { tenantId } = tenantOf(request);
      await request.tx(async (trx) => {
        const busy = (
          await sql<{
            deployment_id: string;
          }>`select distinct d.deployment_id::text as deployment_id from flow_deployment d
            join flow_instance i on i.tenant_id = d.tenant_id and i.definition_id = d.id and i.status in ('running', 'suspended')
            where d.tenant_id = ${tenantId} and d.deployment_id = any(${list}::bigint[])`.execute(trx)
        ).rows[0];
        if (busy) throw badRequest('flow.deploymentBusy', { id: busy.deployment_id });
        await sql`update flow_deployment set is_deleted = 1 where tenant_id = ${tenantId}
          and deployment_id = any(${list}::bigint[])`.execute(trx);
      });
      return null;
    };
    for (const path of ['remove', 'delete-deployment'])
      route.post(`${FLOW}/manager/${path}`, {
        summary: 'Removes deployments (deploymentIds) without running instances (400 naming the one that has some)',
        config: { buttons: ['flow_manager_delete'] },
        merged: z.object({ deploymentIds: z.string().trim().min(1, '$validation.required').max(4000) }),
        data: z.null(),
        done: 'http.removed',
        handler: (request, b) => removeDeployments(request, b.deploymentIds),
      });

    // --- follow-up -----------------------------------------------------------------------
    route.get(`${FLOW}/follow/list`, {
      summary:
        'Running and suspended instances with their current tasks and variables (processDefinitionKey, processInstanceId, startUser)',
      query: PageQuerySchema.extend({
        processDefinitionKey: search(64),
        processInstanceId: search(40),
        startUser: search(40),
      }),
      data: pageSchema(FlowAnswer),
      handler: async (request, q) => {
        const { tenantId } = tenantOf(request);
        return request.tx(async (trx) => {
          const out = await page<InstanceRow>(
            trx,
            q,
            INSTANCE_COLUMNS,
            INSTANCE_FROM,
            and([
              sql`i.tenant_id = ${tenantId} and i.status in ('running', 'suspended')`,
              q.processDefinitionKey && sql`i.definition_key = ${q.processDefinitionKey}`,
              q.processInstanceId && sql`i.instance_id = ${q.processInstanceId}`,
              q.startUser && sql`(i.start_user = ${q.startUser} or i.start_user_name ilike ${like(q.startUser)})`,
            ]),
            sql`i.start_time desc, i.instance_id desc`,
          );
          const tasks = await openTasksOf(
            trx,
            tenantId,
            out.rows.map((r) => r.instance_id),
          );
          return pageOf(
            out.rows.map((r) => presentInstance(r, tzOf(request), tasks.get(r.instance_id) ?? [])),
            out.total,
            q,
          );
        });
      },
    });

    for (const path of ['delete-process-instance', 'delete-process'])
      route.post(`${FLOW}/follow/${path}`, {
        summary: 'Terminates an instance with a reason (event ProcessTerminated; its open tasks close)',
        config: { buttons: ['flow_follow_delete'] },
        merged: z.object({
          processInstanceId: z.string().trim().min(1, '$validation.required').max(40),
          deleteReason: z.string().trim().max(500).optional(),
        }),
        data: z.null(),
        done: 'http.removed',
        handler: async (request, b) => {
          const ctx = tenantOf(request);
          const caller = await request.tx((trx) => callerIn(request, trx));
          await runProcessCommand(
            deps(),
            ctx,
            b.processInstanceId,
            () => ({
              type: 'terminate',
              reason: b.deleteReason ?? '',
              userId: caller.id,
              userName: caller.name,
              now: new Date().toISOString(),
            }),
            { actorId: caller.id, actorName: caller.name },
          );
          return null;
        },
      });

    // --- one instance: history, diagram, detail --------------------------------------------
    const InstanceQuery = z.object({ processInstanceId: z.string().trim().min(1, '$validation.required').max(40) });

    async function historyFor(request: FastifyRequest, trx: Kysely<DB>, instanceId: string) {
      const { tenantId } = tenantOf(request);
      const events = await readStream(trx, tenantId, instanceId);
      if (!events.length) throw notFound('flow.noInstance');
      const started = events[0]?.data as { definitionId: string };
      const def = await compiledOf(trx, tenantId, started.definitionId);
      const names = Object.fromEntries(Object.values(def.nodes).map((n) => [n.id, { name: n.name, type: n.type }]));
      const ids = new Set<string>();
      for (const e of events) {
        const d = e.data as Record<string, unknown>;
        for (const k of ['assignee', 'userId', 'to'])
          if (typeof d[k] === 'string' && /^[0-9]{1,19}$/.test(d[k] as string)) ids.add(d[k] as string);
      }
      const users = ids.size
        ? (
            await sql<{ id: string; name: string }>`select u.id::text as id, ${userName('u')} as name from app_user u
              where u.tenant_id = ${tenantId} and u.id = any(${[...ids]}::bigint[])`.execute(trx)
          ).rows
        : [];
      const steps = historyOf(events, names, new Map(users.map((u) => [u.id, u.name])), tzOf(request), langOf(request));
      return { events, def, steps };
    }

    route.get(`${FLOW}/process/history-flow-list`, {
      summary: 'Every step of an instance, oldest first: who, when, flag, comment, duration',
      query: InstanceQuery,
      data: z.array(HistoryAnswer),
      handler: (request, q) =>
        request.tx(async (trx) => {
          await requireReader(request, trx, q.processInstanceId, await callerIn(request, trx));
          return (await historyFor(request, trx, q.processInstanceId)).steps;
        }),
    });

    route.get(`${FLOW}/process/model-view`, {
      summary: 'The BPMN XML of a deployed definition (processDefinitionId)',
      query: z.object({ processDefinitionId: z.string().trim().min(1, '$validation.required').max(120) }),
      data: z.object({ xml: text }),
      handler: (request, q) =>
        request.tx(async (trx) => {
          const row = (
            await sql<{ xml: string }>`select xml from flow_deployment where tenant_id = ${tenantOf(request).tenantId}
              and id = ${q.processDefinitionId}`.execute(trx)
          ).rows[0];
          if (!row) throw notFound('flow.noDefinition', { id: q.processDefinitionId });
          return { xml: row.xml };
        }),
    });

    route.get(`${FLOW}/process/diagram-view`, {
      summary: 'An instance’s diagram: the definition’s XML with the elements done and current and the flows taken',
      query: InstanceQuery,
      data: z.object({ xml: text, completed: z.array(text), active: z.array(text), flows: z.array(text) }),
      handler: (request, q) =>
        request.tx(async (trx) => {
          const { tenantId } = tenantOf(request);
          await requireReader(request, trx, q.processInstanceId, await callerIn(request, trx));
          const loaded = await loadState(trx, processDecider, tenantId, q.processInstanceId);
          if (!loaded.state.started) throw notFound('flow.noInstance');
          const row = (
            await sql<{ xml: string }>`select xml from flow_deployment where tenant_id = ${tenantId}
              and id = ${loaded.state.started.definitionId}`.execute(trx)
          ).rows[0];
          return { xml: row?.xml ?? '', ...highlightOf(loaded.state) };
        }),
    });

    route.get(`${FLOW}/process/detail`, {
      summary: 'One instance: its row with the current tasks and variables, and its history',
      query: InstanceQuery,
      data: FlowAnswer.extend({ history: z.array(HistoryAnswer) }),
      handler: (request, q) =>
        request.tx(async (trx) => {
          const { tenantId } = tenantOf(request);
          await requireReader(request, trx, q.processInstanceId, await callerIn(request, trx));
          const row = (
            await sql<InstanceRow>`select ${INSTANCE_COLUMNS} from ${INSTANCE_FROM}
              where i.tenant_id = ${tenantId} and i.instance_id = ${q.processInstanceId}`.execute(trx)
          ).rows[0];
          if (!row) throw notFound('flow.noInstance');
          const tasks = await openTasksOf(trx, tenantId, [row.instance_id]);
          const { steps } = await historyFor(request, trx, q.processInstanceId);
          return { ...presentInstance(row, tzOf(request), tasks.get(row.instance_id) ?? []), history: steps };
        }),
    });

    // --- work lists ----------------------------------------------------------------------
    const WorkQuery = PageQuerySchema.extend({
      taskName: search(),
      processDefinitionName: search(),
      category: search(64),
    });
    const taskFilters = (q: z.output<typeof WorkQuery>) => [
      q.taskName && sql`t.name ilike ${like(q.taskName)}`,
      q.processDefinitionName && sql`t.definition_name ilike ${like(q.processDefinitionName)}`,
      q.category && sql`t.category = ${q.category}`,
    ];
    const taskPage = (
      request: FastifyRequest,
      q: z.output<typeof WorkQuery>,
      where: (c: Caller) => RawBuilder<unknown>,
      order: RawBuilder<unknown>,
    ) =>
      request.tx(async (trx) => {
        const caller = await callerIn(request, trx);
        const out = await page<TaskRow>(
          trx,
          q,
          TASK_COLUMNS,
          TASK_FROM,
          and([sql`t.tenant_id = ${tenantOf(request).tenantId}`, where(caller), ...taskFilters(q)]),
          order,
        );
        return pageOf(
          out.rows.map((r) => presentTask(r, tzOf(request))),
          out.total,
          q,
        );
      });

    route.get(`${FLOW}/work/start-list`, {
      summary: 'Active latest definitions the caller may start (category, name)',
      query: PageQuerySchema.extend({ category: search(64), name: search() }),
      data: pageSchema(DeploymentAnswer),
      handler: async (request, q) => {
        const { tenantId } = tenantOf(request);
        const out = await request.tx((trx) =>
          page<DeploymentListRow>(
            trx,
            q,
            DEPLOYMENT_COLUMNS,
            DEPLOYMENT_FROM,
            and([
              sql`d.tenant_id = ${tenantId} and d.is_deleted = 0 and d.suspension_state = 1`,
              sql`d.version = (select max(x.version) from flow_deployment x where x.tenant_id = d.tenant_id and x.key = d.key and x.is_deleted = 0)`,
              q.category && sql`d.category = ${q.category}`,
              q.name && sql`d.name ilike ${like(q.name)}`,
            ]),
            sql`d.category, d.name`,
          ),
        );
        return pageOf(
          out.rows.map((r) => presentDeployment(r, tzOf(request))),
          out.total,
          q,
        );
      },
    });

    route.get(`${FLOW}/work/claim-list`, {
      summary: 'Open unclaimed tasks of which the caller is a candidate (user, or one of her roles or post)',
      query: WorkQuery,
      data: pageSchema(FlowAnswer),
      handler: (request, q) =>
        taskPage(
          request,
          q,
          (c) => sql`t.status = 'open' and t.assignee is null and t.process_status = 'running'
            and (${c.id} = any(t.candidate_users) or t.candidate_groups && ${c.groups}::text[])`,
          sql`t.create_time desc, t.task_id`,
        ),
    });

    route.get(`${FLOW}/work/todo-list`, {
      summary: 'Open tasks assigned to the caller (claimed or assigned)',
      query: WorkQuery,
      data: pageSchema(FlowAnswer),
      handler: (request, q) =>
        taskPage(
          request,
          q,
          (c) => sql`t.status = 'open' and t.assignee = ${c.id}`,
          sql`t.create_time desc, t.task_id`,
        ),
    });

    route.get(`${FLOW}/work/done-list`, {
      summary: 'Tasks the caller completed, newest first',
      query: WorkQuery,
      data: pageSchema(FlowAnswer),
      handler: (request, q) =>
        taskPage(
          request,
          q,
          (c) => sql`t.status = 'completed' and t.completed_by = ${c.id}`,
          sql`t.end_time desc, t.task_id`,
        ),
    });

    route.get(`${FLOW}/work/todo-count`, {
      summary: 'The caller’s workflow to-dos for the home dashboard: tasks assigned to her, tasks she may claim',
      config: { access: 'authenticated' },
      data: z.object({ todo: z.number().int(), claim: z.number().int(), total: z.number().int() }),
      handler: (request) =>
        request.tx(async (trx) => {
          const caller = await callerIn(request, trx);
          const row = (
            await sql<{ todo: string; claim: string }>`select
                count(*) filter (where t.assignee = ${caller.id}) as todo,
                count(*) filter (where t.assignee is null and t.process_status = 'running'
                  and (${caller.id} = any(t.candidate_users) or t.candidate_groups && ${caller.groups}::text[])) as claim
              from flow_task t where t.tenant_id = ${tenantOf(request).tenantId} and t.status = 'open'`.execute(trx)
          ).rows[0];
          const todo = Number(row?.todo ?? 0);
          const claim = Number(row?.claim ?? 0);
          return { todo, claim, total: todo + claim };
        }),
    });

    route.get(`${FLOW}/work/send-list`, {
      summary: 'Instances the caller started, newest first (with the current task, if any)',
      query: PageQuerySchema.extend({ processDefinitionName: search(), category: search(64) }),
      data: pageSchema(FlowAnswer),
      handler: (request, q) =>
        request.tx(async (trx) => {
          const { tenantId, userId = '' } = tenantOf(request);
          const out = await page<InstanceRow>(
            trx,
            q,
            INSTANCE_COLUMNS,
            INSTANCE_FROM,
            and([
              sql`i.tenant_id = ${tenantId} and i.start_user = ${userId}`,
              q.processDefinitionName && sql`i.definition_name ilike ${like(q.processDefinitionName)}`,
              q.category && sql`i.category = ${q.category}`,
            ]),
            sql`i.start_time desc, i.instance_id desc`,
          );
          const tasks = await openTasksOf(
            trx,
            tenantId,
            out.rows.map((r) => r.instance_id),
          );
          return pageOf(
            out.rows.map((r) => presentInstance(r, tzOf(request), tasks.get(r.instance_id) ?? [])),
            out.total,
            q,
          );
        }),
    });

    /** The instance a task belongs to, from the task list (400 when there is no such task of the tenant). */
    const instanceOfTask = async (request: FastifyRequest, taskId: string) => {
      const row = await request.tx(
        async (trx) =>
          (
            await sql<{
              instance_id: string;
            }>`select instance_id from flow_task where tenant_id = ${tenantOf(request).tenantId}
              and task_id = ${taskId}`.execute(trx)
          ).rows[0],
      );
      if (!row) throw badRequest('flow.noTask', { id: taskId });
      return row.instance_id;
    };
    const TaskId = z.string().trim().min(1, '$validation.required').max(60);

    route.post(`${FLOW}/work/claim-task`, {
      summary:
        'Claims a task of which the caller is a candidate: one of concurrent claimers wins, the others get a 400',
      config: { buttons: ['work_claim_sign'] },
      merged: z.object({ taskId: TaskId }),
      data: z.null(),
      done: 'flow.claimed',
      handler: async (request, b) => {
        const ctx = tenantOf(request);
        const instanceId = await instanceOfTask(request, b.taskId);
        const caller = await request.tx((trx) => callerIn(request, trx));
        await runProcessCommand(
          deps(),
          ctx,
          instanceId,
          () => ({
            type: 'claim',
            taskId: b.taskId,
            userId: caller.id,
            userName: caller.name,
            groups: caller.groups,
            now: new Date().toISOString(),
          }),
          { actorId: caller.id, actorName: caller.name },
        );
        return null;
      },
    });

    route.post(`${FLOW}/work/complete-task`, {
      summary:
        'Completes the caller’s task: flag ok|refuse, comment, variables (merged into the instance; pass = flag is ok)',
      config: { buttons: ['work_todo_handle'] },
      body: z.object({
        taskId: TaskId,
        processInstanceId: z.string().trim().max(40).nullish(),
        flag: z.enum(['ok', 'refuse'], { error: '$flow.flag' }).default('ok'),
        comment: z.string().trim().max(1000, '$flow.commentTooLong').nullish(),
        variables: z.record(z.string().max(64), z.unknown()).nullish(),
      }),
      data: z.null(),
      done: 'flow.completed',
      handler: async (request, b) => {
        const ctx = tenantOf(request);
        const instanceId = await instanceOfTask(request, b.taskId);
        if (b.processInstanceId && b.processInstanceId !== instanceId)
          throw badRequest('flow.noTask', { id: b.taskId });
        const variables = b.variables ?? {};
        if (JSON.stringify(variables).length > 20_000) throw badRequest('flow.variablesTooLarge');
        const caller = await request.tx((trx) => callerIn(request, trx));
        await runProcessCommand(
          deps(),
          ctx,
          instanceId,
          (_s, def) => ({
            type: 'complete',
            def: def as CompiledProcess,
            taskId: b.taskId,
            userId: caller.id,
            userName: caller.name,
            flag: b.flag,
            comment: b.comment ?? '',
            variables,
            now: new Date().toISOString(),
          }),
          { actorId: caller.id, actorName: caller.name },
        );
        return null;
      },
    });

    route.post(`${FLOW}/work/delegate-task`, {
      summary: 'Hands the caller’s task to another user of the tenant (taskId, assignee)',
      config: { buttons: ['work_todo_handle'] },
      merged: z.object({ taskId: TaskId, assignee: IdSchema }),
      data: z.null(),
      done: 'flow.delegated',
      handler: async (request, b) => {
        const ctx = tenantOf(request);
        const instanceId = await instanceOfTask(request, b.taskId);
        const [caller, to] = await request.tx(async (trx) => [
          await callerIn(request, trx),
          await liveUser(trx, ctx.tenantId, b.assignee),
        ]);
        if (!to) throw badRequest('flow.unknownUser', { id: b.assignee });
        await runProcessCommand(
          deps(),
          ctx,
          instanceId,
          () => ({
            type: 'delegate',
            taskId: b.taskId,
            userId: caller?.id ?? '',
            userName: caller?.name ?? '',
            to: to.id,
            toName: to.name,
            now: new Date().toISOString(),
          }),
          { actorId: ctx.userId, actorName: caller?.name ?? '' },
        );
        return null;
      },
    });

    // --- leave ---------------------------------------------------------------------------
    const LeaveAnswer = z.object({
      id: text,
      processDefinitionId: text,
      processInstanceId: text,
      startTime: z.string().nullable(),
      endTime: z.string().nullable(),
      days: z.number(),
      reason: text,
      taskUser: text,
      taskUserName: text,
      applyTime: z.string().nullable(),
      createUser: text,
      createUserName: text,
      status: text,
      flow: z.object({ history: z.array(HistoryAnswer), currentTasks: FlowAnswer.shape.currentTasks }),
    });

    route.post(`${LEAVE}/start-process`, {
      summary:
        'Applies for leave (startTime, endTime, reason, taskUser = the approver’s user id): starts the tenant’s leave process',
      config: { buttons: ['work_start_leave'] },
      body: z.object({
        startTime: z.string({ error: '$flow.leave.startTime' }).trim().min(1, '$flow.leave.startTime').max(19),
        endTime: z.string({ error: '$flow.leave.endTime' }).trim().min(1, '$flow.leave.endTime').max(19),
        reason: requiredText(500, '$flow.leave.reason'),
        taskUser: z
          .string({ error: '$flow.leave.taskUser' })
          .trim()
          .min(1, '$flow.leave.taskUser')
          .max(40)
          .transform((v) => v.replace(/^taskUser_/, '')),
      }),
      data: z.object({ id: text, processInstanceId: text, processDefinitionId: text }),
      done: 'flow.leave.started',
      handler: async (request, b) => {
        const ctx = tenantOf(request);
        const tz = tzOf(request);
        const start = parseDateTime(b.startTime, tz);
        const end = parseDateTime(b.endTime, tz);
        if (!start) throw fieldError(request, 'startTime', 'flow.leave.badTime');
        if (!end) throw fieldError(request, 'endTime', 'flow.leave.badTime');
        if (end.getTime() <= start.getTime()) throw fieldError(request, 'endTime', 'flow.leave.endBeforeStart');
        const days = Math.round(((end.getTime() - start.getTime()) / 86_400_000) * 100) / 100;
        const outcome = await request.tx(async (trx) => {
          const approver = await liveUser(trx, ctx.tenantId, b.taskUser);
          if (!approver) throw fieldError(request, 'taskUser', 'flow.leave.unknownApprover');
          if (approver.id === ctx.userId) throw fieldError(request, 'taskUser', 'flow.leave.selfApprover');
          const def = (
            await sql<{
              id: string;
            }>`select id from flow_deployment where tenant_id = ${ctx.tenantId} and key = ${LEAVE_KEY}
              and is_deleted = 0 order by version desc limit 1`.execute(trx)
          ).rows[0];
          if (!def) throw badRequest('flow.noDefinition', { id: LEAVE_KEY });
          const caller = await callerIn(request, trx);
          const businessId = nextId();
          const started = await startProcessIn(
            trx,
            ctx.tenantId,
            {
              definitionId: def.id,
              variables: { taskUser: approver.id, days, reason: b.reason, applicant: caller.id },
              startUser: caller.id,
              startUserName: caller.name,
              businessTable: 'flow_leave',
              businessId,
            },
            { actorId: caller.id, actorName: caller.name },
          );
          await sql`insert into flow_leave (tenant_id, id, process_definition_id, process_instance_id, start_time, end_time,
              days, reason, task_user, create_user)
            values (${ctx.tenantId}, ${businessId}, ${def.id}, ${started.instanceId}, ${start}, ${end}, ${days}, ${b.reason},
              ${approver.id}, ${caller.id})`.execute(trx);
          return { businessId, definitionId: def.id, ...started };
        });
        await scheduleEffects(deps().queue, ctx.tenantId, outcome.instanceId, outcome.events, outcome.state);
        return {
          id: outcome.businessId,
          processInstanceId: outcome.instanceId,
          processDefinitionId: outcome.definitionId,
        };
      },
    });

    route.get(`${LEAVE}/approvers`, {
      summary:
        'Who a leave may go to: the live users of the tenant but the caller (name: contains), for the approver picker',
      query: z.object({ name: search(64) }),
      data: z.array(z.object({ id: text, name: text, account: text })),
      handler: (request, q) =>
        request.tx(async (trx) => {
          const { tenantId, userId = '' } = tenantOf(request);
          const rows = await sql<{ id: string; name: string; account: string }>`
            select u.id::text as id, ${userName('u')} as name, u.account from app_user u
            where u.tenant_id = ${tenantId} and u.is_deleted = 0 and u.status = 1 and u.id <> ${userId}
              ${q.name ? sql`and (u.real_name ilike ${like(q.name)} or u.name ilike ${like(q.name)} or u.account ilike ${like(q.name)})` : sql``}
            order by u.account limit 200`.execute(trx);
          return rows.rows;
        }),
    });

    route.get(`${LEAVE}/detail`, {
      summary: 'A leave request with its process: status, history and current tasks (businessId)',
      query: z.object({ businessId: IdSchema }),
      data: LeaveAnswer,
      handler: (request, q) =>
        request.tx(async (trx) => {
          const { tenantId } = tenantOf(request);
          const row = (
            await sql<{
              id: string;
              process_definition_id: string;
              process_instance_id: string;
              start_time: Date;
              end_time: Date;
              days: string;
              reason: string;
              task_user: string;
              task_user_name: string | null;
              apply_time: Date;
              create_user: string;
              create_user_name: string | null;
              status: string | null;
            }>`select l.id::text as id, l.process_definition_id, l.process_instance_id, l.start_time, l.end_time, l.days, l.reason,
                l.task_user::text as task_user, ${userName('tu')} as task_user_name, l.apply_time, l.create_user::text as create_user,
                ${userName('cu')} as create_user_name, i.status
              from flow_leave l
              left join app_user tu on tu.tenant_id = l.tenant_id and tu.id = l.task_user
              left join app_user cu on cu.tenant_id = l.tenant_id and cu.id = l.create_user
              left join flow_instance i on i.tenant_id = l.tenant_id and i.instance_id = l.process_instance_id
              where l.tenant_id = ${tenantId} and l.id = ${q.businessId}`.execute(trx)
          ).rows[0];
          if (!row) throw notFound();
          await requireReader(request, trx, row.process_instance_id, await callerIn(request, trx));
          const { steps } = await historyFor(request, trx, row.process_instance_id);
          const tasks =
            (await openTasksOf(trx, tenantId, [row.process_instance_id])).get(row.process_instance_id) ?? [];
          const lastFlag = [...steps].reverse().find((s) => s.flag)?.flag;
          const status =
            row.status === 'ended'
              ? lastFlag === 'refuse'
                ? 'refused'
                : 'approved'
              : row.status === 'terminated'
                ? 'terminated'
                : 'running';
          const tz = tzOf(request);
          const current = presentInstance(
            {
              instance_id: row.process_instance_id,
              definition_id: row.process_definition_id,
              definition_key: LEAVE_KEY,
              definition_name: '',
              definition_version: 0,
              category: LEAVE_CATEGORY,
              category_name: null,
              form_route: null,
              start_user: row.create_user,
              start_user_name: '',
              business_table: 'flow_leave',
              business_id: row.id,
              status: row.status ?? 'running',
              variables: {},
              start_time: row.apply_time,
              end_time: null,
            },
            tz,
            tasks,
          ).currentTasks;
          return {
            id: row.id,
            processDefinitionId: row.process_definition_id,
            processInstanceId: row.process_instance_id,
            startTime: formatDateTime(row.start_time, tz),
            endTime: formatDateTime(row.end_time, tz),
            days: Number(row.days),
            reason: row.reason,
            taskUser: row.task_user,
            taskUserName: row.task_user_name ?? '',
            applyTime: formatDateTime(row.apply_time, tz),
            createUser: row.create_user,
            createUserName: row.create_user_name ?? '',
            status,
            flow: { history: steps, currentTasks: current },
          };
        }),
    });
  }
}

/** A 400 naming the field, in the caller's language. */
function fieldError(request: FastifyRequest, field: string, key: string) {
  return new AppError('bad_request', key, undefined, [{ field, message: translate(request.lang, key) }]);
}
