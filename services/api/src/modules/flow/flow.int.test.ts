import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { bladeAuth } from '../../testing';
import { bpmnXml, flow } from '@sprout/core/workflow/testing';
import { useDemoConsole } from '../auth/console-fixture';
import { accessToken } from '../auth/fixtures';

const T = '100001';
const FLOW = '/api/blade-flow';
const LEAVE = '/api/blade-desk/process/leave';

/**
 * The workflow calls on PostgreSQL with the demo kindergarten: the default leave process from
 * application to approval through the work lists, models and deployments, bad input (a 400 and
 * no event), and 20 concurrent claims.
 */
describe('workflow calls', () => {
  const demo = useDemoConsole();
  const { call } = demo;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    for (const who of ['leader', 'teacher2', 'reviewer'])
      demo.tokens[who] = await accessToken(demo.app, T, who, 'sprout123');
    for (const who of ['leader', 'principal', 'teacher1', 'teacher2'])
      ids[who] = await inSystem(demo.t.database, async (trx) => {
        const r = await sql<{
          id: string;
        }>`select id::text from app_user where tenant_id = ${T} and account = ${who}`.execute(trx);
        return r.rows[0]?.id as string;
      });
  });
  const eventCount = () =>
    inSystem(demo.t.database, async (trx) => {
      const r = await sql<{
        n: string;
      }>`select count(*) as n from events where tenant_id = ${T} and stream_type = 'process'`.execute(trx);
      return Number(r.rows[0]?.n);
    });

  it('a teacher applies for 4 days of leave; her approver approves from the to-do list; the principal claims and approves; she sees it done with its history and diagram', async () => {
    const start = await call('teacher', 'GET', `${FLOW}/work/start-list?current=1&size=10`);
    expect(start.status).toBe(200);
    expect(start.body.data.records.map((r: { key: string; formRoute: string }) => [r.key, r.formRoute])).toContainEqual(
      ['leave', 'leave'],
    );

    const approvers = await call('teacher', 'GET', `${LEAVE}/approvers?name=leader`);
    expect(approvers.body.data).toEqual([{ id: ids.leader, name: expect.any(String), account: 'leader' }]);
    const applied = await call('teacher', 'POST', `${LEAVE}/start-process`, {
      startTime: '2026-12-01 08:00:00',
      endTime: '2026-12-05 08:00:00',
      reason: '探亲',
      taskUser: `taskUser_${ids.leader}`,
    });
    expect(applied.status, applied.raw).toBe(200);
    expect(applied.body.msg).toBe('请假申请已提交');
    const { id: businessId, processInstanceId } = applied.body.data;

    const todo = await call('leader', 'GET', `${FLOW}/work/todo-list?current=1&size=10`);
    const mine = todo.body.data.records.find(
      (r: { processInstanceId: string }) => r.processInstanceId === processInstanceId,
    );
    expect(mine).toMatchObject({
      taskName: '审批',
      status: 'todo',
      businessId,
      formRoute: 'leave',
      startUserName: expect.any(String),
    });

    // Not hers: the teacher cannot complete the approver's task.
    const before = await eventCount();
    const notHers = await call('teacher2', 'POST', `${FLOW}/work/complete-task`, { taskId: mine.taskId, flag: 'ok' });
    expect(notHers.status).toBe(400);
    expect(notHers.body.msg).toBe('该任务不是您的待办，不能办理');
    expect(await eventCount()).toBe(before);

    const ok = await call('leader', 'POST', `${FLOW}/work/complete-task`, {
      taskId: mine.taskId,
      flag: 'ok',
      comment: '同意',
    });
    expect(ok.status, ok.raw).toBe(200);

    // More than 3 days: the principal's group gets it to claim.
    const claim = await call('principal', 'GET', `${FLOW}/work/claim-list?current=1&size=10`);
    const toClaim = claim.body.data.records.find(
      (r: { processInstanceId: string }) => r.processInstanceId === processInstanceId,
    );
    expect(toClaim).toMatchObject({ taskName: '园长审批', status: 'claim', candidateGroups: ['principal'] });
    expect((await call('principal', 'GET', `${FLOW}/work/todo-count`)).body.data).toEqual({
      todo: 0,
      claim: 1,
      total: 1,
    });
    expect((await call('leader', 'GET', `${FLOW}/work/claim-list?current=1&size=10`)).body.data.records).toEqual([]);
    expect((await call('principal', 'POST', `${FLOW}/work/claim-task?taskId=${toClaim.taskId}`)).status).toBe(200);
    const again = await call('principal', 'POST', `${FLOW}/work/claim-task?taskId=${toClaim.taskId}`, undefined, 'en');
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe('This task is already yours');
    expect(
      (
        await call('principal', 'POST', `${FLOW}/work/complete-task`, {
          taskId: toClaim.taskId,
          flag: 'ok',
          comment: '准假',
        })
      ).status,
    ).toBe(200);

    const sent = await call('teacher', 'GET', `${FLOW}/work/send-list?current=1&size=10`);
    expect(sent.body.data.records[0]).toMatchObject({ processInstanceId, processIsFinished: 'finished' });
    const done = await call('leader', 'GET', `${FLOW}/work/done-list?current=1&size=10`);
    expect(done.body.data.records[0]).toMatchObject({
      processInstanceId,
      flag: 'ok',
      comment: '同意',
      status: 'finished',
    });

    const detail = await call('teacher', 'GET', `${LEAVE}/detail?businessId=${businessId}`);
    expect(detail.status, detail.raw).toBe(200);
    expect(detail.body.data).toMatchObject({ days: 4, reason: '探亲', taskUser: ids.leader, status: 'approved' });
    const history = await call(
      'teacher',
      'GET',
      `${FLOW}/process/history-flow-list?processInstanceId=${processInstanceId}`,
    );
    const tasks = history.body.data.filter(
      (s: { historyActivityType: string }) => s.historyActivityType === 'userTask',
    );
    expect(
      tasks.map((s: { historyActivityName: string; flag: string; comment: string; assignee: string }) => [
        s.historyActivityName,
        s.flag,
        s.comment,
        s.assignee,
      ]),
    ).toEqual([
      ['审批', 'ok', '同意', ids.leader],
      ['园长审批', 'ok', '准假', ids.principal],
    ]);
    const diagram = await call('teacher', 'GET', `${FLOW}/process/diagram-view?processInstanceId=${processInstanceId}`);
    expect(diagram.body.data.completed).toEqual(
      expect.arrayContaining(['start', 'approverTask', 'principalTask', 'end']),
    );
    expect(diagram.body.data.active).toEqual([]);
    expect(diagram.body.data.flows).toContain('toPrincipal');
    // Someone with nothing to do with it reads nothing.
    expect(
      (await call('teacher2', 'GET', `${FLOW}/process/history-flow-list?processInstanceId=${processInstanceId}`))
        .status,
    ).toBe(404);
  });

  it('a short leave ends after the approver; a refusal ends it refused', async () => {
    const short = await call('teacher', 'POST', `${LEAVE}/start-process`, {
      startTime: '2026-12-01 08:00:00',
      endTime: '2026-12-02 08:00:00',
      reason: '病假',
      taskUser: ids.leader,
    });
    const task = (await call('leader', 'GET', `${FLOW}/work/todo-list?current=1&size=10`)).body.data.records.find(
      (r: { businessId: string }) => r.businessId === short.body.data.id,
    );
    await call('leader', 'POST', `${FLOW}/work/complete-task`, {
      taskId: task.taskId,
      flag: 'refuse',
      comment: '人手不足',
    });
    const detail = await call('teacher', 'GET', `${LEAVE}/detail?businessId=${short.body.data.id}`);
    expect(detail.body.data.status).toBe('refused');
  });

  it('refuses bad leave input with the field named, in both languages, and starts nothing', async () => {
    const before = await eventCount();
    const fields = await demo.refused('teacher', `${LEAVE}/start-process`, {
      startTime: '2026-12-05 08:00:00',
      endTime: '2026-12-01 08:00:00',
      reason: 'x',
      taskUser: ids.leader,
    });
    expect(fields).toEqual([{ field: 'endTime', message: '结束时间必须晚于开始时间' }]);
    const en = await demo.refused(
      'teacher',
      `${LEAVE}/start-process`,
      { startTime: '2026-12-01 08:00:00', endTime: '2026-12-02 08:00:00', reason: 'x', taskUser: '999999' },
      'en',
    );
    expect(en).toEqual([{ field: 'taskUser', message: 'The approver does not exist or is disabled' }]);
    expect(await eventCount()).toBe(before);
  });

  it('models: save the modeler XML, refuse invalid XML and unsupported elements at deploy with the element id, deploy versions, suspend stops new starts', async () => {
    const twoStep = bpmnXml(
      'twostep',
      `<bpmn:startEvent id="s" /><bpmn:userTask id="first" name="第一步" flowable:assignee="\${initiator}" />
       <bpmn:userTask id="second" name="第二步" flowable:candidateGroups="principal" /><bpmn:endEvent id="e" />
       ${flow('f1', 's', 'first')}${flow('f2', 'first', 'second')}${flow('f3', 'second', 'e')}`,
      '两步流程',
    );
    const bad = await call('admin', 'POST', `${FLOW}/model/submit`, {
      modelKey: 'twostep',
      name: '两步',
      xml: '<bpmn:definitions',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/^BPMN XML 无法解析/);
    const saved = await call('admin', 'POST', `${FLOW}/model/submit`, {
      modelKey: 'twostep',
      name: '两步流程',
      xml: twoStep,
    });
    expect(saved.status, saved.raw).toBe(200);
    const modelId = saved.body.data.id;
    const list = await call('admin', 'GET', `${FLOW}/model/list?current=1&size=10&name=两步`);
    expect(list.body.data.records.map((r: { modelKey: string }) => r.modelKey)).toEqual(['twostep']);

    // Unsupported: a sub-process, named.
    const withSub = twoStep.replace(
      '<bpmn:endEvent id="e" />',
      '<bpmn:endEvent id="e" /><bpmn:subProcess id="inner" />',
    );
    await call('admin', 'POST', `${FLOW}/model/submit`, {
      id: modelId,
      modelKey: 'twostep',
      name: '两步流程',
      xml: withSub,
    });
    const refused = await call(
      'admin',
      'POST',
      `${FLOW}/model/deploy?modelId=${modelId}&category=flow_1`,
      undefined,
      'en',
    );
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('Element inner is not supported: SubProcess is outside the supported subset');
    const badFeel = twoStep.replace(flow('f3', 'second', 'e'), flow('f3', 'second', 'e', 'days > > 3'));
    await call('admin', 'POST', `${FLOW}/model/submit`, {
      id: modelId,
      modelKey: 'twostep',
      name: '两步流程',
      xml: badFeel,
    });
    const feel = await call('admin', 'POST', `${FLOW}/model/deploy?modelId=${modelId}`);
    expect(feel.status).toBe(400);
    expect(feel.body.msg).toMatch(/^流程元素 f3 不受支持：表达式不是有效的 FEEL/);

    await call('admin', 'POST', `${FLOW}/model/submit`, {
      id: modelId,
      modelKey: 'twostep',
      name: '两步流程',
      xml: twoStep,
    });
    const v1 = await call('admin', 'POST', `${FLOW}/model/deploy?modelId=${modelId}&category=flow_1`);
    expect(v1.status, v1.raw).toBe(200);
    const v2 = await call('admin', 'POST', `${FLOW}/model/deploy?modelId=${modelId}&category=flow_1`);
    expect([v1.body.data[0].version, v2.body.data[0].version]).toEqual([1, 2]);
    const latest = await call('admin', 'GET', `${FLOW}/manager/list?current=1&size=10&key=twostep&mode=latest`);
    expect(latest.body.data.records.map((r: { version: number }) => r.version)).toEqual([2]);

    // What a modeler draws: its own process id; deployed under the model's key.
    const drawn = twoStep.replace('id="twostep"', 'id="Process_0a1b2c"');
    const other = await call('admin', 'POST', `${FLOW}/model/submit`, {
      modelKey: 'drawn',
      name: '画的流程',
      xml: drawn,
    });
    expect(other.status, other.raw).toBe(200);
    const deployedDrawn = await call(
      'admin',
      'POST',
      `${FLOW}/model/deploy?modelId=${other.body.data.id}&category=flow_1`,
    );
    expect(deployedDrawn.body.data[0]).toMatchObject({ key: 'drawn', version: 1, name: '两步流程' });

    const state = await call(
      'admin',
      'POST',
      `${FLOW}/manager/change-state?processId=${encodeURIComponent(v2.body.data[0].id)}&state=suspended`,
    );
    expect(state.body.data.suspensionState).toBe(2);
    const starts = await call('teacher', 'GET', `${FLOW}/work/start-list?current=1&size=10`);
    expect(starts.body.data.records.map((r: { key: string }) => r.key)).not.toContain('twostep');
  });

  it('deploy-upload (multipart), follow-up, a suspended instance refuses completion with no event, delegate, terminate, remove only when nothing runs', async () => {
    const xml = bpmnXml(
      'uploaded',
      `<bpmn:startEvent id="s" /><bpmn:userTask id="a" name="办理" flowable:assignee="\${taskUser}" /><bpmn:endEvent id="e" />
       ${flow('f1', 's', 'a')}${flow('f2', 'a', 'e')}`,
      '上传流程',
    );
    const boundary = `----flow${Math.random().toString(16).slice(2)}`;
    const part = (name: string, value: string, file?: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"\r\nContent-Type: text/xml` : ''}\r\n\r\n${value}\r\n`;
    const upload = (files: Array<[string, string]>) =>
      demo.app.inject({
        method: 'POST',
        url: `${FLOW}/manager/deploy-upload`,
        headers: {
          ...bladeAuth(demo.tokens.admin as string),
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload: `${part('category', 'flow_1')}${part('tenantIds', T)}${files.map(([n, x]) => part('files', x, n)).join('')}--${boundary}--\r\n`,
      });
    const wrong = await upload([['notes.txt', xml]]);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().msg).toBe('只能上传 .bpmn 或 .xml 文件：notes.txt');
    const up = await upload([['uploaded.bpmn', xml]]);
    expect(up.statusCode, up.body).toBe(200);
    const definition = up.json().data[0] as { id: string; deploymentId: string; key: string; categoryName: string };
    expect(definition).toMatchObject({ key: 'uploaded', categoryName: '请假流程' });

    const { startProcess } = await import('@sprout/core/workflow');
    const started = await startProcess(
      { database: demo.t.database, queue: demo.app.queue },
      { tenantId: T },
      {
        definitionId: definition.id,
        variables: { taskUser: ids.teacher2 },
        startUser: ids.teacher1 as string,
        startUserName: '教师一',
      },
    );
    const follow = await call('admin', 'GET', `${FLOW}/follow/list?current=1&size=10&processDefinitionKey=uploaded`);
    expect(follow.body.data.records[0]).toMatchObject({
      processInstanceId: started.instanceId,
      currentTasks: [{ taskName: '办理', assignee: ids.teacher2 }],
    });
    const taskId = `${started.instanceId}.t2`;

    const suspended = await call(
      'admin',
      'POST',
      `${FLOW}/manager/change-state?processId=${encodeURIComponent(definition.id)}&state=suspended&tasks=true`,
    );
    expect(suspended.status, suspended.raw).toBe(200);
    const before = await eventCount();
    const refused = await call('teacher2', 'POST', `${FLOW}/work/complete-task`, { taskId, flag: 'ok' }, 'en');
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('The process is suspended; activate it first');
    expect(await eventCount()).toBe(before);
    await call(
      'admin',
      'POST',
      `${FLOW}/manager/change-state?processId=${encodeURIComponent(definition.id)}&state=active&tasks=true`,
    );

    // Delegating is the to-do list's (its API scope), but only the task's own holder may hand it on.
    const beforeDelegate = await eventCount();
    const nobody = await call('teacher2', 'POST', `${FLOW}/work/delegate-task?taskId=${taskId}&assignee=999999`);
    expect(nobody.status).toBe(400);
    expect(await eventCount()).toBe(beforeDelegate);

    const busy = await call('admin', 'POST', `${FLOW}/manager/remove?deploymentIds=${definition.deploymentId}`);
    expect(busy.status).toBe(400);
    expect(busy.body.msg).toBe(`部署 ${definition.deploymentId} 还有运行中的流程，不能删除`);
    const ended = await call(
      'admin',
      'POST',
      `${FLOW}/follow/delete-process-instance?processInstanceId=${started.instanceId}&deleteReason=重复申请`,
    );
    expect(ended.status, ended.raw).toBe(200);
    expect(
      (await call('teacher2', 'GET', `${FLOW}/work/todo-list?current=1&size=10`)).body.data.records.map(
        (r: { taskId: string }) => r.taskId,
      ),
    ).not.toContain(taskId);
    const history = await call(
      'admin',
      'GET',
      `${FLOW}/process/history-flow-list?processInstanceId=${started.instanceId}`,
    );
    expect(history.body.data.find((x: { historyActivityId: string }) => x.historyActivityId === 'a')).toMatchObject({
      comment: '重复申请',
    });
    expect(
      (await call('admin', 'POST', `${FLOW}/manager/remove?deploymentIds=${definition.deploymentId}`)).status,
    ).toBe(200);
  });

  it('a record-command service task approves a teaching record in review, once', async () => {
    const record = await inSystem(demo.t.database, async (trx) => {
      const r = await sql<{ id: string; kind: string }>`select id::text, kind from record_list where tenant_id = ${T}
        and status = 'trial' order by id limit 1`.execute(trx);
      return r.rows[0];
    });
    if (!record) throw new Error('no record in review in the demo');
    const xml = bpmnXml(
      'autoapprove',
      `<bpmn:startEvent id="s" /><bpmn:serviceTask id="approve" flowable:handler="record-command" /><bpmn:endEvent id="e" />
       ${flow('f1', 's', 'approve')}${flow('f2', 'approve', 'e')}`,
    );
    const wf = await import('@sprout/core/workflow');
    const deps = { database: demo.t.database, queue: demo.app.queue };
    const def = await inSystem(demo.t.database, (trx) => wf.deployDefinition(trx, T, { xml, category: '' }));
    const started = await wf.startProcess(
      deps,
      { tenantId: T },
      {
        definitionId: def.id,
        variables: {
          recordKind: record.kind,
          recordId: record.id,
          recordCommand: 'approve',
          recordComment: '流程自动通过',
        },
        startUser: ids.teacher1 as string,
        startUserName: '教师一',
      },
    );
    const jobId = Object.keys(started.state.services)[0] as string;
    await wf.handleServiceJob(deps, { tenantId: T, instanceId: started.instanceId, jobId }, 1);
    await wf.handleServiceJob(deps, { tenantId: T, instanceId: started.instanceId, jobId }, 1);
    const after = await inSystem(demo.t.database, async (trx) => {
      const r = await sql<{
        status: string;
      }>`select status from record_list where tenant_id = ${T} and id = ${record.id}`.execute(trx);
      const e = await sql<{
        n: string;
      }>`select count(*) as n from events where tenant_id = ${T} and stream_id = ${record.id}
        and type = 'RecordApproved'`.execute(trx);
      const i = await sql<{
        status: string;
      }>`select status from flow_instance where tenant_id = ${T} and instance_id = ${started.instanceId}`.execute(trx);
      return { status: r.rows[0]?.status, approvals: Number(e.rows[0]?.n), instance: i.rows[0]?.status };
    });
    expect(after).toEqual({ status: 'success', approvals: 1, instance: 'ended' });
  });

  it('a send-sms service task sends through the tenant’s enabled SMS configuration, logged, once', async () => {
    const xml = bpmnXml(
      'remind',
      `<bpmn:startEvent id="s" /><bpmn:serviceTask id="sms" flowable:handler="send-sms" /><bpmn:endEvent id="e" />
       ${flow('f1', 's', 'sms')}${flow('f2', 'sms', 'e')}`,
    );
    const wf = await import('@sprout/core/workflow');
    const deps = { database: demo.t.database, queue: demo.app.queue, kv: demo.app.auth.kv, production: false };
    const def = await inSystem(demo.t.database, (trx) => wf.deployDefinition(trx, T, { xml, category: '' }));
    const started = await wf.startProcess(
      deps,
      { tenantId: T },
      {
        definitionId: def.id,
        variables: { smsTo: '13800000042，13800000043', smsText: '明天春游，请准时到园' },
        startUser: ids.teacher1 as string,
        startUserName: '教师一',
      },
    );
    const jobId = Object.keys(started.state.services)[0] as string;
    // Delivered twice (a retried job): the numbers are sent once.
    await wf.handleServiceJob(deps, { tenantId: T, instanceId: started.instanceId, jobId }, 1);
    await wf.handleServiceJob(deps, { tenantId: T, instanceId: started.instanceId, jobId }, 1);
    const logged = await call('admin', 'GET', '/api/blade-resource/sms/log/list?size=50');
    const mine = logged.body.data.records.filter((r: { phone: string }) => r.phone.startsWith('138000000'));
    expect(
      mine
        .filter((r: { params: string }) => r.params.includes(started.instanceId))
        .map((r: { phone: string; status: string; smsCode: string; params: string }) => ({
          phone: r.phone,
          status: r.status,
          smsCode: r.smsCode,
          text: JSON.parse(r.params).text,
        }))
        .sort((a: { phone: string }, b: { phone: string }) => a.phone.localeCompare(b.phone)),
    ).toEqual([
      { phone: '13800000042', status: 'sent', smsCode: 'demo-log', text: '明天春游，请准时到园' },
      { phone: '13800000043', status: 'sent', smsCode: 'demo-log', text: '明天春游，请准时到园' },
    ]);
    const instance = await inSystem(demo.t.database, async (trx) => {
      const r = await sql<{
        status: string;
      }>`select status from flow_instance where tenant_id = ${T} and instance_id = ${started.instanceId}`.execute(trx);
      return r.rows[0]?.status;
    });
    expect(instance).toBe('ended');
  });

  it('20 candidates claiming one task at once: exactly one wins, the others are told it is taken', async () => {
    const applied = await call('teacher', 'POST', `${LEAVE}/start-process`, {
      startTime: '2026-12-01 08:00:00',
      endTime: '2026-12-09 08:00:00',
      reason: '长假',
      taskUser: ids.leader,
    });
    const task = (await call('leader', 'GET', `${FLOW}/work/todo-list?current=1&size=10`)).body.data.records.find(
      (r: { businessId: string }) => r.businessId === applied.body.data.id,
    );
    await call('leader', 'POST', `${FLOW}/work/complete-task`, { taskId: task.taskId, flag: 'ok' });
    const open = (await call('principal', 'GET', `${FLOW}/work/claim-list?current=1&size=10`)).body.data.records.find(
      (r: { businessId: string }) => r.businessId === applied.body.data.id,
    );
    // Twenty principals.
    const roleId = await inSystem(demo.t.database, async (trx) => {
      const r = await sql<{
        id: string;
      }>`select id::text from role where tenant_id = ${T} and role_alias = 'principal'`.execute(trx);
      return r.rows[0]?.id as string;
    });
    const tokens: string[] = [];
    for (let i = 0; i < 20; i++) {
      const account = `boss${i}`;
      const created = await call('admin', 'POST', '/api/blade-user/submit', {
        account,
        name: account,
        realName: `园长${i}`,
        password: 'sprout123',
        password2: 'sprout123',
        roleId,
        deptId: '',
      });
      expect(created.status, created.raw).toBe(200);
      demo.tokens[account] = await accessToken(demo.app, T, account, 'sprout123');
      tokens.push(demo.tokens[account]);
    }
    const before = await eventCount();
    const answers = await Promise.all(
      tokens.map((_, i) => call(`boss${i}`, 'POST', `${FLOW}/work/claim-task?taskId=${open.taskId}`)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const losers = answers.filter((a) => a.status !== 200);
    expect(losers.every((a) => a.status === 400 && a.body.msg === '该任务已被他人签收')).toBe(true);
    expect(await eventCount()).toBe(before + 1);
  });
});
