import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTenant } from '../db';
import { foldEvents, loadState } from '../events/decider';
import { ensureReadModels } from '../events/projections/async';
import { readStream } from '../events/store';
import { MemoryQueue } from '../queue';
import { createTestDatabase, type TestDatabase } from '../testing/pg';
import { processDecider } from './engine';
import { FlowError } from './errors';
import { registerWorkflowProjections } from './projection';
import {
  deployDefinition,
  type FlowDeps,
  handleServiceJob,
  handleTimerJob,
  registerServiceHandler,
  runProcessCommand,
  SERVICE_QUEUE,
  startProcess,
  TIMER_QUEUE,
  type TimerJob,
} from './runtime';
import { bpmnXml, flow } from './testing';

/** The engine on real PostgreSQL: the store's optimistic concurrency decides every race. */
registerWorkflowProjections();

const T = { tenantId: '100001', userId: '11' };
let t: TestDatabase;
let deps: FlowDeps;
const sent: string[] = [];

beforeAll(async () => {
  t = await createTestDatabase(30);
  await ensureReadModels(t.database);
  deps = { database: t.database, queue: new MemoryQueue() };
  registerServiceHandler('test-broken', async () => {
    throw new Error('provider down');
  });
  registerServiceHandler('test-log', async (c) => {
    sent.push(c.instanceId);
    return { logged: true };
  });
  await deps.queue.process<TimerJob>(TIMER_QUEUE, (job) => handleTimerJob(deps, job.data), { concurrency: 4 });
  await deps.queue.process<{ tenantId: string; instanceId: string; jobId: string }>(
    SERVICE_QUEUE,
    (job) => handleServiceJob(deps, job.data, job.attempt),
    { concurrency: 4 },
  );
});
afterAll(async () => {
  await deps?.queue.close();
  await t?.drop();
});

async function deploy(key: string, body: string) {
  return inTenant(t.database, T, (trx) =>
    deployDefinition(trx, T.tenantId, { xml: bpmnXml(key, body), category: 'flow_1' }),
  );
}
const start = (definitionId: string, variables: Record<string, unknown> = {}) =>
  startProcess(deps, T, { definitionId, variables, startUser: '11', startUserName: 'Ann' });
const complete = (instanceId: string, taskId: string, userId: string, flag = 'ok') =>
  runProcessCommand(deps, { ...T, userId }, instanceId, (_s, def) => ({
    type: 'complete',
    def: def as never,
    taskId,
    userId,
    userName: userId,
    flag,
    comment: '',
    variables: {},
    now: new Date().toISOString(),
  }));
const tasksOf = (instanceId: string) =>
  inTenant(
    t.database,
    T,
    async (trx) =>
      (
        await sql<{ task_id: string; element_id: string; status: string; assignee: string | null }>`
        select task_id, element_id, status, assignee from flow_task where tenant_id = ${T.tenantId}
        and instance_id = ${instanceId} order by create_time, task_id`.execute(trx)
      ).rows,
  );
const versionOf = (instanceId: string) =>
  inTenant(t.database, T, async (trx) => (await readStream(trx, T.tenantId, instanceId)).length);

describe('workflow runtime (PostgreSQL)', () => {
  it('given a deployed process, when started and completed, then the task list follows at once and a replay equals the live state', async () => {
    const d = await deploy(
      'simple',
      `<bpmn:startEvent id="s" /><bpmn:userTask id="a" flowable:assignee="\${approver}" /><bpmn:endEvent id="e" />
       ${flow('f1', 's', 'a')}${flow('f2', 'a', 'e')}`,
    );
    const started = await start(d.id, { approver: '22' });
    expect(await tasksOf(started.instanceId)).toEqual([
      { task_id: `${started.instanceId}.t2`, element_id: 'a', status: 'open', assignee: '22' },
    ]);
    const done = await complete(started.instanceId, `${started.instanceId}.t2`, '22');
    expect(done.state.status).toBe('ended');
    expect((await tasksOf(started.instanceId))[0]?.status).toBe('completed');
    const replayed = await inTenant(t.database, T, async (trx) =>
      foldEvents(processDecider, await readStream(trx, T.tenantId, started.instanceId)),
    );
    expect(replayed.state).toEqual(done.state);
  });

  it('given a candidate-group task, when 20 users claim it at once, then exactly one wins and the rest are told it is taken', async () => {
    const d = await deploy(
      'claim20',
      `<bpmn:startEvent id="s" /><bpmn:userTask id="a" flowable:candidateGroups="principal" /><bpmn:endEvent id="e" />
       ${flow('f1', 's', 'a')}${flow('f2', 'a', 'e')}`,
    );
    const { instanceId } = await start(d.id);
    const taskId = `${instanceId}.t2`;
    const before = await versionOf(instanceId);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        runProcessCommand(deps, { ...T, userId: `${100 + i}` }, instanceId, () => ({
          type: 'claim',
          taskId,
          userId: `${100 + i}`,
          userName: `u${i}`,
          groups: ['principal'],
          now: new Date().toISOString(),
        })),
      ),
    );
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost.every((o) => o.reason instanceof FlowError && o.reason.messageKey === 'flow.taskClaimed')).toBe(true);
    expect(await versionOf(instanceId)).toBe(before + 1);
    const [row] = await tasksOf(instanceId);
    expect(row?.assignee).toBe(
      (won[0] as PromiseFulfilledResult<{ state: { tasks: Record<string, { assignee: string }> } }>).value.state.tasks[
        taskId
      ]?.assignee,
    );
  });

  it('given a parallel join, when both branches complete at the same moment, then exactly one continuation', async () => {
    const d = await deploy(
      'join2',
      `<bpmn:startEvent id="s" /><bpmn:parallelGateway id="fork" /><bpmn:parallelGateway id="join" />
       <bpmn:userTask id="a" flowable:assignee="31" /><bpmn:userTask id="b" flowable:assignee="32" />
       <bpmn:userTask id="after" flowable:assignee="33" /><bpmn:endEvent id="e" />
       ${flow('f1', 's', 'fork')}${flow('fa', 'fork', 'a')}${flow('fb', 'fork', 'b')}
       ${flow('ja', 'a', 'join')}${flow('jb', 'b', 'join')}${flow('f2', 'join', 'after')}${flow('f3', 'after', 'e')}`,
    );
    for (let round = 0; round < 5; round++) {
      const { instanceId, state } = await start(d.id);
      const open = Object.values(state.tasks);
      await Promise.all(open.map((task) => complete(instanceId, task.id, task.assignee as string)));
      const tasks = await tasksOf(instanceId);
      expect(tasks.filter((x) => x.element_id === 'after')).toHaveLength(1);
      const live = await inTenant(t.database, T, (trx) => loadState(trx, processDecider, T.tenantId, instanceId));
      expect(Object.keys(live.state.tokens)).toHaveLength(1);
    }
  });

  it('given a boundary timer, when it fires at the same moment as the completion, then exactly one of them wins', async () => {
    const d = await deploy(
      'race',
      `<bpmn:startEvent id="s" /><bpmn:userTask id="a" flowable:assignee="41" />
       <bpmn:boundaryEvent id="late" attachedToRef="a"><bpmn:timerEventDefinition><bpmn:timeDuration>P1D</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
       <bpmn:userTask id="remind" flowable:assignee="42" /><bpmn:endEvent id="e" /><bpmn:endEvent id="e2" />
       ${flow('f1', 's', 'a')}${flow('f2', 'a', 'e')}${flow('f3', 'late', 'remind')}${flow('f4', 'remind', 'e2')}`,
    );
    const winners = new Set<string>();
    for (let round = 0; round < 6; round++) {
      const { instanceId, state } = await start(d.id);
      const timer = Object.values(state.timers)[0];
      const task = Object.values(state.tasks)[0];
      if (!timer || !task) throw new Error('no timer or task');
      const fire = handleTimerJob(deps, {
        tenantId: T.tenantId,
        instanceId,
        timerId: timer.id,
        dueAt: new Date(0).toISOString(),
      });
      const results = await Promise.allSettled([complete(instanceId, task.id, '41'), fire]);
      const live = await inTenant(t.database, T, (trx) => loadState(trx, processDecider, T.tenantId, instanceId));
      const taskEnd = live.state.tasks[task.id]?.status;
      const timerEnd = live.state.timers[timer.id]?.status;
      if (taskEnd === 'completed') {
        expect(timerEnd).toBe('cancelled');
        expect(live.state.status).toBe('ended');
        winners.add('completion');
      } else {
        expect(taskEnd).toBe('cancelled');
        expect(timerEnd).toBe('fired');
        expect(results[0].status).toBe('rejected');
        expect(Object.values(live.state.tasks).filter((x) => x.elementId === 'remind')).toHaveLength(1);
        winners.add('timer');
      }
    }
    expect(winners.size).toBeGreaterThan(0);
  });

  it('given instances on version 1, when version 2 is deployed, then each runs on its own version', async () => {
    const v1 = await deploy(
      'upgrade',
      `<bpmn:startEvent id="s" /><bpmn:userTask id="a" flowable:assignee="51" /><bpmn:endEvent id="e" />${flow('f1', 's', 'a')}${flow('f2', 'a', 'e')}`,
    );
    const old = await start(v1.id);
    const v2 = await deploy(
      'upgrade',
      `<bpmn:startEvent id="s" /><bpmn:userTask id="a" flowable:assignee="51" /><bpmn:userTask id="b" flowable:assignee="52" />
       <bpmn:endEvent id="e" />${flow('f1', 's', 'a')}${flow('f2', 'a', 'b')}${flow('f3', 'b', 'e')}`,
    );
    expect([v1.version, v2.version]).toEqual([1, 2]);
    const fresh = await start(v2.id);
    expect((await complete(old.instanceId, `${old.instanceId}.t2`, '51')).state.status).toBe('ended');
    const second = await complete(fresh.instanceId, `${fresh.instanceId}.t2`, '51');
    expect(second.state.status).toBe('running');
    expect(Object.values(second.state.tasks).map((x) => [x.elementId, x.status])).toEqual([
      ['a', 'completed'],
      ['b', 'open'],
    ]);
  });

  it('given a suspended instance, when its task is completed, then a 400 and no event', async () => {
    const d = await deploy(
      'susp',
      `<bpmn:startEvent id="s" /><bpmn:userTask id="a" flowable:assignee="61" /><bpmn:endEvent id="e" />${flow('f1', 's', 'a')}${flow('f2', 'a', 'e')}`,
    );
    const { instanceId } = await start(d.id);
    await runProcessCommand(deps, T, instanceId, () => ({
      type: 'suspend',
      reason: 'hold',
      now: new Date().toISOString(),
    }));
    const before = await versionOf(instanceId);
    await expect(complete(instanceId, `${instanceId}.t2`, '61')).rejects.toMatchObject({
      status: 400,
      messageKey: 'flow.suspended',
    });
    expect(await versionOf(instanceId)).toBe(before);
  });

  it('given a timer and a service task, when their jobs run on the queue, then each moves the token once', async () => {
    const d = await deploy(
      'jobs',
      `<bpmn:startEvent id="s" /><bpmn:intermediateCatchEvent id="w"><bpmn:timerEventDefinition><bpmn:timeDuration>PT0.2S</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>
       <bpmn:serviceTask id="x" flowable:handler="test-log" /><bpmn:endEvent id="e" />
       ${flow('f1', 's', 'w')}${flow('f2', 'w', 'x')}${flow('f3', 'x', 'e')}`,
    );
    const { instanceId, state } = await start(d.id);
    const timerId = Object.keys(state.timers)[0] as string;
    await expect
      .poll(
        async () =>
          (await inTenant(t.database, T, (trx) => loadState(trx, processDecider, T.tenantId, instanceId))).state.status,
      )
      .toBe('ended');
    // Delivered again: nothing more happens.
    const v = await versionOf(instanceId);
    await handleTimerJob(deps, { tenantId: T.tenantId, instanceId, timerId, dueAt: new Date(0).toISOString() });
    const jobId = `${instanceId}.s4`;
    await handleServiceJob(deps, { tenantId: T.tenantId, instanceId, jobId }, 1);
    expect(await versionOf(instanceId)).toBe(v);
    expect(sent.filter((x) => x === instanceId)).toHaveLength(1);
    const events = await inTenant(t.database, T, (trx) => readStream(trx, T.tenantId, instanceId));
    expect(events.filter((e) => e.type === 'TimerFired')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'ServiceCompleted')).toHaveLength(1);
  });
  it('given a service task whose handler always fails, when its last try fails, then ServiceFailed once and the sweep leaves it', async () => {
    const d = await deploy(
      'broken',
      `<bpmn:startEvent id="s" /><bpmn:serviceTask id="x" flowable:handler="test-broken" flowable:retries="2" /><bpmn:endEvent id="e" />
       ${flow('f1', 's', 'x')}${flow('f2', 'x', 'e')}`,
    );
    const { instanceId } = await start(d.id);
    const failed = () =>
      inTenant(
        t.database,
        T,
        async (trx) => (await readStream(trx, T.tenantId, instanceId)).filter((e) => e.type === 'ServiceFailed').length,
      );
    await expect.poll(failed).toBe(1);
    const jobId = `${instanceId}.s3`;
    // A later delivery (the sweep's, a duplicate) records nothing more.
    await handleServiceJob(deps, { tenantId: T.tenantId, instanceId, jobId }, 2);
    expect(await failed()).toBe(1);
    const waits = await inTenant(
      t.database,
      T,
      async (trx) =>
        (
          await sql`select 1 from flow_wait where tenant_id = ${T.tenantId} and instance_id = ${instanceId}`.execute(
            trx,
          )
        ).rows.length,
    );
    expect(waits).toBe(0);
  });
});
