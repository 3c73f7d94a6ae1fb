import { type Kysely, sql } from 'kysely';
import { type DB, inTenant } from '@sprout/core/db';
import { handleCommand, registerDecider } from '@sprout/core/events/decider';
import { recordDecider, recordKinds } from '@sprout/core/records';
import { registerMessages } from '@sprout/core/i18n';
import { nextId } from '@sprout/core/ids';
import { PLATFORM_TENANT_ID } from '@sprout/core/permissions/constants';
import {
  deployDefinition,
  handleServiceJob,
  handleTimerJob,
  processDecider,
  registerServiceHandler,
  SERVICE_QUEUE,
  type ServiceJob,
  sweepWaits,
  TIMER_QUEUE,
  type TimerJob,
} from '@sprout/core/workflow';
import type { Processor, WorkerService } from '@sprout/worker';
import type { ServerContext } from '../../context';
import { sendSms, smsProviders } from '../sms';
import { flowRoutes } from './flow-routes';
import { FLOW_MENUS } from './menus';
import { LEAVE_BPMN, LEAVE_CATEGORY, LEAVE_KEY } from './leave-process';

registerMessages({
  zh: {
    'flow.modelKey': '请输入模型标识（字母开头，可含字母、数字、_ . -）',
    'flow.modelName': '请输入模型名称',
    'flow.xmlTooLong': '模型 XML 过大',
    'flow.modelKeyTaken': '模型标识已存在：{modelKey}',
    'flow.deployed': '部署成功',
    'flow.unknownTenant': '租户不存在：{ids}',
    'flow.state': '状态只能是 active 或 suspended',
    'flow.noFile': '请选择 .bpmn 或 .xml 文件',
    'flow.fileType': '只能上传 .bpmn 或 .xml 文件：{name}',
    'flow.fileTooLarge': '文件过大（每个不超过 1 MB）',
    'flow.deploymentBusy': '部署 {id} 还有运行中的流程，不能删除',
    'flow.claimed': '签收成功',
    'flow.completed': '办理成功',
    'flow.delegated': '转办成功',
    'flow.flag': '审批结果只能是 ok 或 refuse',
    'flow.commentTooLong': '审批意见过长',
    'flow.variablesTooLarge': '流程变量过大',
    'flow.unknownUser': '用户不存在：{id}',
    'flow.leave.startTime': '请选择开始时间',
    'flow.leave.endTime': '请选择结束时间',
    'flow.leave.reason': '请输入请假理由',
    'flow.leave.taskUser': '请选择审批人',
    'flow.leave.started': '请假申请已提交',
    'flow.leave.badTime': '时间格式应为 yyyy-MM-dd HH:mm:ss',
    'flow.leave.endBeforeStart': '结束时间必须晚于开始时间',
    'flow.leave.unknownApprover': '审批人不存在或已停用',
    'flow.leave.selfApprover': '不能选择自己作为审批人',
    'flow.notice.title': '流程通知：{name}',
  },
  en: {
    'flow.modelKey': 'Please enter the model key (a letter first, then letters, digits, _ . -)',
    'flow.modelName': 'Please enter the model name',
    'flow.xmlTooLong': 'The model XML is too large',
    'flow.modelKeyTaken': 'A model with the key {modelKey} already exists',
    'flow.deployed': 'Deployed',
    'flow.unknownTenant': 'No such tenant: {ids}',
    'flow.state': 'The state is active or suspended',
    'flow.noFile': 'Please choose a .bpmn or .xml file',
    'flow.fileType': 'Only .bpmn or .xml files can be deployed: {name}',
    'flow.fileTooLarge': 'The file is too large (1 MB at most each)',
    'flow.deploymentBusy': 'Deployment {id} still has running processes; it cannot be removed',
    'flow.claimed': 'Claimed',
    'flow.completed': 'Done',
    'flow.delegated': 'Handed over',
    'flow.flag': 'The decision is ok or refuse',
    'flow.commentTooLong': 'The comment is too long',
    'flow.variablesTooLarge': 'The process variables are too large',
    'flow.unknownUser': 'No such user: {id}',
    'flow.leave.startTime': 'Please choose the start time',
    'flow.leave.endTime': 'Please choose the end time',
    'flow.leave.reason': 'Please enter the reason for the leave',
    'flow.leave.taskUser': 'Please choose the approver',
    'flow.leave.started': 'Leave request submitted',
    'flow.leave.badTime': 'The time must be yyyy-MM-dd HH:mm:ss',
    'flow.leave.endBeforeStart': 'The end time must be after the start time',
    'flow.leave.unknownApprover': 'The approver does not exist or is disabled',
    'flow.leave.selfApprover': 'You cannot be your own approver',
    'flow.notice.title': 'Process notice: {name}',
  },
});

registerDecider(processDecider);

/**
 * Service task handlers (docs/WORKFLOW.md): `send-notice` puts a message in a user's in-app inbox
 * (`noticeTo`, else the starter), `send-sms` sends a text through the tenant's SMS configuration
 * (`smsTo`: numbers, `smsCode`: which configuration, else the enabled one; `smsText` / `smsParams`),
 * with the SMS screen's limits and log; `record-command` below.
 */
registerServiceHandler('send-notice', async (c) => {
  const to = String(c.variables.noticeTo ?? c.startUser ?? '');
  if (!/^[1-9][0-9]{0,18}$/.test(to)) return { noticeSent: false };
  const title = String(c.variables.noticeTitle ?? c.elementId).slice(0, 200);
  const business = String(c.variables.businessId ?? '0');
  // Idempotent: one message per instance and element (a retried job writes none again).
  await c.database.db.transaction().execute(async (trx) => {
    const seen = await sql`select 1 from inbox_message where tenant_id = ${c.tenantId} and user_id = ${to}
      and kind = 'flow' and title = ${title} and comment = ${`${c.instanceId}/${c.elementId}`}`.execute(trx);
    if (seen.rows.length) return;
    await sql`insert into inbox_message (tenant_id, id, user_id, record_id, kind, event, title, actor_id, actor_name, comment)
      values (${c.tenantId}, ${nextId()}, ${to}, ${/^[0-9]{1,19}$/.test(business) ? business : '0'}, 'flow', 'notice',
        ${title}, 0, 'workflow', ${`${c.instanceId}/${c.elementId}`})`.execute(trx);
  });
  return { noticeSent: true };
});
registerServiceHandler('send-sms', async (c) => {
  // Once per instance and element: a retried job (the send failed after the provider took it,
  // or the worker died before the token moved) finds its numbers logged and sends nothing again.
  const mark = `flow:${c.instanceId}/${c.elementId}`;
  const phones = String(c.variables.smsTo ?? '')
    .split(/[,，\s]+/)
    .filter((p) => /^\+?[0-9]{5,20}$/.test(p));
  if (!phones.length) return { smsSent: 0 };
  if (!c.kv) throw new Error('send-sms needs the key-value store (the send limits)');
  const seen = await inTenant(c.database, { tenantId: c.tenantId }, (trx) =>
    sql`select 1 from sms_log where tenant_id = ${c.tenantId} and params::jsonb ->> '_flow' = ${mark} limit 1`.execute(
      trx,
    ),
  );
  if (seen.rows.length) return { smsSent: phones.length };
  const params: Record<string, string> = { _flow: mark };
  const given = c.variables.smsParams;
  if (given && typeof given === 'object')
    for (const [k, v] of Object.entries(given)) if (k !== '_flow') params[k] = String(v);
  if (c.variables.smsText !== undefined) params.text = String(c.variables.smsText);
  const { sent } = await sendSms(
    { database: c.database, kv: c.kv, byCategory: smsProviders(c.production) },
    {
      tenantId: c.tenantId,
      userId: null,
      code: c.variables.smsCode ? String(c.variables.smsCode) : undefined,
      phones,
      params,
    },
  );
  return { smsSent: sent };
});

/**
 * `record-command`: a teaching record's review step as a service task — `recordKind` (e.g.
 * `teacher_plan`), `recordId`, `recordCommand` (`approve` | `return`), `recordComment`. The
 * record's decider decides (a record not in review refuses: the job fails and retries, then
 * `ServiceFailed`); the idempotency key makes a retried job apply it once.
 */
registerServiceHandler('record-command', async (c) => {
  const kind = String(c.variables.recordKind ?? '');
  const id = String(c.variables.recordId ?? '');
  const command = String(c.variables.recordCommand ?? '');
  if (!recordKinds().some((k) => k.kind === kind)) throw new Error(`unknown record kind ${kind}`);
  if (!/^[1-9][0-9]{0,18}$/.test(id)) throw new Error('recordId is not an id');
  const actor = { id: '0', name: 'workflow' };
  const at = new Date().toISOString();
  const comment = String(c.variables.recordComment ?? '');
  const cmd =
    command === 'approve'
      ? { type: 'ApproveRecord' as const, actor, at, comment }
      : command === 'return'
        ? { type: 'ReturnRecord' as const, actor, at, comment: comment || 'workflow' }
        : null;
  if (!cmd) throw new Error(`unknown record command ${command}`);
  const done = await handleCommand(c.database, { tenantId: c.tenantId }, recordDecider(kind), id, cmd, {
    metadata: { actorName: 'workflow', idempotencyKey: `flow-record:${c.instanceId}/${c.elementId}` },
  });
  return { recordStatus: (done.state as { status?: string }).status ?? '' };
});

/** The `flow` system dictionary (the platform's): category key → name and the page it opens (remark). */
async function seedFlowDict(trx: Kysely<DB>) {
  const have =
    await sql`select 1 from dict where tenant_id = ${PLATFORM_TENANT_ID} and parent_id = 0 and code = 'flow'`.execute(
      trx,
    );
  if (have.rows.length) return;
  const parent = nextId();
  await sql`insert into dict (tenant_id, id, parent_id, code, dict_key, dict_value, sort, remark, is_sealed)
    values (${PLATFORM_TENANT_ID}, ${parent}, 0, 'flow', '-1', '流程类型', 30, 'Flow categories', 1),
      (${PLATFORM_TENANT_ID}, ${nextId()}, ${parent}, 'flow', '1', '请假流程', 1, 'leave', 1)`.execute(trx);
}

/** Every tenant gets the default leave process, once (a tenant that removed it keeps it removed: a model row marks it). */
async function seedTenant(trx: Kysely<DB>, tenantId: string) {
  if (tenantId === PLATFORM_TENANT_ID) await seedFlowDict(trx);
  const have = await sql`select 1 from flow_model where tenant_id = ${tenantId} and model_key = ${LEAVE_KEY}`.execute(
    trx,
  );
  if (have.rows.length) return;
  await sql`insert into flow_model (tenant_id, id, model_key, name, description, xml)
    values (${tenantId}, ${nextId()}, ${LEAVE_KEY}, '请假流程', '审批人审批，超过 3 天再由园长审批', ${LEAVE_BPMN})`.execute(
    trx,
  );
  const deployed =
    await sql`select 1 from flow_deployment where tenant_id = ${tenantId} and key = ${LEAVE_KEY}`.execute(trx);
  if (!deployed.rows.length)
    await deployDefinition(trx, tenantId, {
      xml: LEAVE_BPMN,
      category: LEAVE_CATEGORY,
      resourceName: 'leave.bpmn20.xml',
    });
}

const processors: Processor[] = [
  {
    queue: TIMER_QUEUE,
    handler: (platform) => (job) => handleTimerJob(platform, job.data as TimerJob),
    options: { concurrency: 4 },
  },
  {
    queue: SERVICE_QUEUE,
    handler: (platform) => (job) =>
      handleServiceJob(
        { ...platform, production: platform.config.NODE_ENV === 'production' },
        job.data as ServiceJob,
        job.attempt,
      ),
    options: { concurrency: 4 },
  },
];

/** Re-enqueues timers and service jobs a killed worker lost (every FLOW_SWEEP_MS, default 10 s; grace 30 s). */
const sweepService: WorkerService = {
  name: 'flow-sweep',
  async start(platform, log) {
    const every = Number(process.env.FLOW_SWEEP_MS ?? 10_000);
    const grace = Number(process.env.FLOW_SWEEP_GRACE_MS ?? 30_000);
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      sweepWaits(platform, grace)
        .then((n) => {
          if (n) log(`flow sweep: ${n} waits enqueued again`);
        })
        .catch((err) => log(`flow sweep failed: ${err instanceof Error ? err.message : String(err)}`))
        .finally(() => {
          running = false;
        });
    }, every);
    timer.unref();
    return {
      async stop() {
        clearInterval(timer);
      },
    };
  },
};

/** Workflow (issue 20): models, deployments, follow-up, the work lists, leave; the engine's jobs. */
export const flowContext: ServerContext = {
  name: 'flow',
  routes: flowRoutes,
  menus: FLOW_MENUS,
  tenantSeed: seedTenant,
  processors,
  workerServices: [sweepService],
};
