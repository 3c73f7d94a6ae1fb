import { Engine } from 'bpmn-engine';
import { sql } from 'kysely';
import pg from 'pg';
import { inSystem, inTenant } from '@sprout/core/db';
import { ensureReadModels } from '@sprout/core/events';
import { seed } from '@sprout/core/seed';
import { createTestDatabase } from '@sprout/core/testing/pg';
import {
  type CompiledProcess,
  deployDefinition,
  type FlowDeps,
  MemoryQueue,
  registerWorkflowProjections,
  runProcessCommand,
  startProcess,
} from '@sprout/core/workflow';
import { LEAVE_BPMN } from '../services/api/src/modules/flow/leave-process';
import { bladeAuth, testApp, testConfig } from '../services/api/src/testing';
import { accessToken } from '../services/api/src/modules/auth/fixtures';
import { table } from './lib';

/**
 * Issue 20: the leave process from start to end (start, the approver's completion, the
 * principal's claim and completion) through Sprout's engine — every step a command on the
 * instance's event stream, the work lists' inline projections written in the same transaction —
 * against the same process on `bpmn-engine`, its state loaded from and saved to PostgreSQL at
 * every step (recover → resume → signal → getState → save: what a Node team would otherwise run),
 * same server, same pool size, 1 and 8 concurrent starters. Target ≥ 1.0×. Then complete-task
 * through HTTP (the API on PostgreSQL, 8 callers): p50 / p99.
 */
const TENANT = '100001';
const POOL = 10;

/** The leave process for bpmn-engine: the same elements, its conditions in its own script form. */
const PEER_XML = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="leave_definitions" targetNamespace="x">
<process id="leave" isExecutable="true">
<startEvent id="start" /><userTask id="approverTask" /><exclusiveGateway id="approverDecision" default="toEnd" />
<userTask id="principalTask" /><exclusiveGateway id="principalDecision" default="principalToEnd" />
<endEvent id="end" /><endEvent id="refused" />
<sequenceFlow id="toApprover" sourceRef="start" targetRef="approverTask" />
<sequenceFlow id="toDecision" sourceRef="approverTask" targetRef="approverDecision" />
<sequenceFlow id="approverRefused" sourceRef="approverDecision" targetRef="refused"><conditionExpression xsi:type="tFormalExpression" language="js">next(null, environment.variables.pass === false)</conditionExpression></sequenceFlow>
<sequenceFlow id="toPrincipal" sourceRef="approverDecision" targetRef="principalTask"><conditionExpression xsi:type="tFormalExpression" language="js">next(null, environment.variables.days &gt; 3)</conditionExpression></sequenceFlow>
<sequenceFlow id="toEnd" sourceRef="approverDecision" targetRef="end" />
<sequenceFlow id="toPrincipalDecision" sourceRef="principalTask" targetRef="principalDecision" />
<sequenceFlow id="principalRefused" sourceRef="principalDecision" targetRef="refused"><conditionExpression xsi:type="tFormalExpression" language="js">next(null, environment.variables.pass === false)</conditionExpression></sequenceFlow>
<sequenceFlow id="principalToEnd" sourceRef="principalDecision" targetRef="end" />
</process></definitions>`;

async function runFor(seconds: number, starters: number, one: (tag: string) => Promise<void>) {
  const stopAt = performance.now() + seconds * 1000;
  const started = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: starters }, async (_, s) => {
      for (let i = 0; performance.now() < stopAt; i++) {
        await one(`${s}-${i}-${Math.random().toString(36).slice(2, 8)}`);
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

export async function benchWorkflow(opts: { seconds: number; rounds: number; httpTasks: number }) {
  registerWorkflowProjections();
  const t = await createTestDatabase(POOL);
  const peerDb = await createTestDatabase(2);
  const peer = new pg.Pool({ connectionString: peerDb.url, max: POOL });
  try {
    await seed(t.database, { demo: true });
    await ensureReadModels(t.database);
    await peer.query(
      'create table bpmn_state (id text primary key, state jsonb not null, updated timestamptz not null default now())',
    );
    const deps: FlowDeps = { database: t.database, queue: new MemoryQueue() };
    const ctx = { tenantId: TENANT };
    const def = await inTenant(t.database, ctx, async (trx) => {
      const id = (
        await sql<{
          id: string;
        }>`select id from flow_deployment where tenant_id = ${TENANT} and key = 'leave' order by version desc limit 1`.execute(
          trx,
        )
      ).rows[0]?.id;
      return id ?? (await deployDefinition(trx, TENANT, { xml: LEAVE_BPMN, category: 'flow_1' })).id;
    });
    const now = () => new Date().toISOString();
    const sprout = async () => {
      const s = await startProcess(deps, ctx, {
        definitionId: def,
        variables: { taskUser: '2', days: 4 },
        startUser: '1',
        startUserName: 'bench',
      });
      const id = s.instanceId;
      const complete = (taskId: string, userId: string) =>
        runProcessCommand(deps, { ...ctx, userId }, id, (_st, d) => ({
          type: 'complete',
          def: d as CompiledProcess,
          taskId,
          userId,
          userName: userId,
          flag: 'ok',
          comment: '',
          variables: {},
          now: now(),
        }));
      const a = await complete(`${id}.t2`, '2');
      const principal = Object.values(a.state.tasks).find((x) => x.status === 'open');
      if (!principal) throw new Error('no principal task');
      await runProcessCommand(deps, { ...ctx, userId: '3' }, id, () => ({
        type: 'claim',
        taskId: principal.id,
        userId: '3',
        userName: '3',
        groups: ['principal'],
        now: now(),
      }));
      const end = await complete(principal.id, '3');
      if (end.state.status !== 'ended') throw new Error(`sprout: ${end.state.status}`);
    };
    const bpmnEngine = async (tag: string) => {
      const id = `leave-${tag}`;
      const engine = new Engine({ name: id, source: PEER_XML });
      await engine.execute({ variables: { taskUser: '2', days: 4, pass: true } });
      await peer.query('insert into bpmn_state (id, state) values ($1, $2)', [
        id,
        JSON.stringify(await engine.getState()),
      ]);
      engine.stop();
      for (const task of ['approverTask', 'principalTask']) {
        const { rows } = await peer.query<{ state: unknown }>('select state from bpmn_state where id = $1', [id]);
        const next = new Engine({ name: id, source: PEER_XML }).recover(rows[0]?.state);
        const execution = await next.resume();
        execution.signal({ id: task });
        await peer.query('update bpmn_state set state = $2, updated = now() where id = $1', [
          id,
          JSON.stringify(await next.getState()),
        ]);
        if (task === 'principalTask' && next.state !== 'idle') throw new Error(`bpmn-engine: ${next.state}`);
        next.stop();
      }
    };

    const rows: Array<Record<string, string>> = [];
    for (const starters of [1, 8]) {
      const ours: number[] = [];
      const theirs: number[] = [];
      // Alternating rounds, the same seconds each: the machine's load falls on both alike.
      for (let r = 0; r < opts.rounds; r++) {
        ours.push(await runFor(opts.seconds, starters, sprout));
        theirs.push(await runFor(opts.seconds, starters, bpmnEngine));
      }
      const o = ours.reduce((a, b) => a + b, 0) / ours.length;
      const p = theirs.reduce((a, b) => a + b, 0) / theirs.length;
      rows.push({
        run: `leave start→end, ${starters} starter(s)`,
        'Sprout engine': `${o.toFixed(1)}/s`,
        'bpmn-engine + PostgreSQL state': `${p.toFixed(1)}/s`,
        ratio: `${(o / p).toFixed(2)}×`,
        target: '≥ 1.0',
      });
    }
    table(rows);

    // complete-task through HTTP: the leader's approvals of fresh leave requests, 8 at a time.
    const { app } = await testApp(t.database, { config: testConfig() });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const leader = await inSystem(
      t.database,
      async (trx) =>
        (
          await sql<{
            id: string;
          }>`select id::text from app_user where tenant_id = ${TENANT} and account = 'leader'`.execute(trx)
        ).rows[0]?.id,
    );
    const teacherAuth = bladeAuth(await accessToken(app, TENANT, 'teacher1', 'sprout123'));
    const leaderAuth = bladeAuth(await accessToken(app, TENANT, 'leader', 'sprout123'));
    const tasks: string[] = [];
    for (let i = 0; i < opts.httpTasks; i++) {
      const r = await app.inject({
        method: 'POST',
        url: '/api/blade-desk/process/leave/start-process',
        headers: teacherAuth,
        payload: {
          startTime: '2026-12-01 08:00:00',
          endTime: '2026-12-02 08:00:00',
          reason: 'bench',
          taskUser: leader,
        },
      });
      tasks.push(`${(r.json() as { data: { processInstanceId: string } }).data.processInstanceId}.t2`);
    }
    const latencies: number[] = [];
    let next = 0;
    let failed = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < tasks.length) {
          const taskId = tasks[next++] as string;
          const t0 = performance.now();
          const r = await fetch(`${base}/api/blade-flow/work/complete-task`, {
            method: 'POST',
            headers: { ...leaderAuth, 'content-type': 'application/json' },
            body: JSON.stringify({ taskId, flag: 'ok', comment: 'ok' }),
          });
          await r.arrayBuffer();
          latencies.push(performance.now() - t0);
          if (r.status !== 200) failed++;
        }
      }),
    );
    await app.close();
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
    table([
      {
        'complete-task over HTTP': '8 callers',
        calls: latencies.length,
        failed,
        p50: `${pct(50).toFixed(1)} ms`,
        p99: `${pct(99).toFixed(1)} ms`,
      },
    ]);
    await deps.queue.close();
  } finally {
    await peer.end();
    await peerDb.drop();
    await t.drop();
  }
}
