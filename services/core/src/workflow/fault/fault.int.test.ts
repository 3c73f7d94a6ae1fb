import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem, inTenant } from '../../db';
import { ensureReadModels } from '../../events/projections/async';
import { BullQueue } from '../../queue/bullmq';
import { createTestDatabase, type TestDatabase } from '../../testing/pg';
import { testRedisUrl } from '../../testing/services';
import { registerWorkflowProjections } from '../projection';
import { deployDefinition, registerServiceHandler, startProcessIn, scheduleEffects } from '../runtime';
import { bpmnXml, flow } from '../testing';

/**
 * Fault test on PostgreSQL + Redis (BullMQ): 200 instances wait on timers, then service tasks;
 * the worker process is killed (SIGKILL) mid-run and started again. Every timer fires exactly
 * once, every service task completes once, every instance ends: counts and a checksum of each
 * instance's event sequence against the one expected.
 */
registerWorkflowProjections();
registerServiceHandler('fault-slow', async () => ({ served: true }));

const T = { tenantId: '100001' };
const N = 200;
const ROOT = path.resolve(import.meta.dirname, '../../../../..');
let t: TestDatabase;
let queue: BullQueue;
let prefix: string;
let redisUrl: string;
const children: ChildProcess[] = [];

function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/core/src/workflow/fault/worker.ts'], {
    cwd: ROOT,
    env: { ...process.env, FAULT_DATABASE_URL: t.url, FAULT_REDIS_URL: redisUrl, FAULT_PREFIX: prefix },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`worker exited ${code}`)));
  });
}

const counts = () =>
  inSystem(t.database, async (trx) => {
    const r = await sql<{ type: string; n: string }>`select type, count(*) as n from events
      where tenant_id = ${T.tenantId} and stream_type = 'process' group by type`.execute(trx);
    return Object.fromEntries(r.rows.map((x) => [x.type, Number(x.n)]));
  });

beforeAll(async () => {
  t = await createTestDatabase(10);
  await ensureReadModels(t.database);
  redisUrl = await testRedisUrl();
  prefix = `fault${randomBytes(4).toString('hex')}`;
  queue = new BullQueue(redisUrl, prefix);
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await queue?.close();
  await t?.drop();
});

describe('worker killed while 200 instances wait on timers and service tasks', () => {
  it('after a restart every timer has fired exactly once and every instance ended', { timeout: 240_000 }, async () => {
    const def = await inTenant(t.database, T, (trx) =>
      deployDefinition(trx, T.tenantId, {
        category: '',
        xml: bpmnXml(
          'fault',
          `<bpmn:startEvent id="s" />
           <bpmn:intermediateCatchEvent id="wait"><bpmn:timerEventDefinition><bpmn:timeDuration>PT2S</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>
           <bpmn:serviceTask id="work" flowable:handler="fault-slow" flowable:retries="5" />
           <bpmn:intermediateCatchEvent id="again"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1S</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>
           <bpmn:endEvent id="e" />
           ${flow('f1', 's', 'wait')}${flow('f2', 'wait', 'work')}${flow('f3', 'work', 'again')}${flow('f4', 'again', 'e')}`,
        ),
      }),
    );
    const ids: string[] = [];
    for (let i = 0; i < N; i++) {
      const started = await inTenant(t.database, T, (trx) =>
        startProcessIn(trx, T.tenantId, {
          definitionId: def.id,
          variables: { i },
          startUser: '1',
          startUserName: 'fault',
        }),
      );
      await scheduleEffects(queue, T.tenantId, started.instanceId, started.events, started.state);
      ids.push(started.instanceId);
    }
    const first = await startWorker();
    // Kill it once part of the work is done: some timers fired, some service tasks done, many waiting.
    await expect
      .poll(async () => (await counts()).ServiceCompleted ?? 0, { timeout: 60_000, interval: 100 })
      .toBeGreaterThan(30);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const atKill = await counts();
    expect(atKill.ProcessEnded ?? 0).toBeLessThan(N);
    await startWorker();
    try {
      await expect.poll(async () => (await counts()).ProcessEnded ?? 0, { timeout: 120_000, interval: 500 }).toBe(N);
    } catch (err) {
      const stuck = await inSystem(t.database, async (trx) => {
        const r = await sql<{
          stream_id: string;
          types: string;
        }>`select stream_id, string_agg(type, ',' order by stream_version) as types
          from events where tenant_id = ${T.tenantId} and stream_type = 'process' group by stream_id
          having not bool_or(type = 'ProcessEnded') limit 5`.execute(trx);
        const w = await sql`select * from flow_wait limit 5`.execute(trx);
        return { stories: r.rows, waits: w.rows };
      });
      console.error('stuck instances', JSON.stringify(stuck, null, 1));
      throw err;
    }

    const after = await counts();
    expect(after).toMatchObject({
      ProcessStarted: N,
      TimerScheduled: 2 * N,
      TimerFired: 2 * N,
      ServiceScheduled: N,
      ServiceCompleted: N,
      ProcessEnded: N,
    });
    // Each instance's story, exactly as expected (no event twice, none missing, in order).
    const expected = [
      'ProcessStarted',
      'TokenMoved',
      'TokenMoved',
      'TimerScheduled',
      'TimerFired',
      'TokenMoved',
      'ServiceScheduled',
      'VariablesSet',
      'ServiceCompleted',
      'TokenMoved',
      'TimerScheduled',
      'TimerFired',
      'TokenMoved',
      'TokenConsumed',
      'ProcessEnded',
    ].join(',');
    const checksum = await inSystem(t.database, async (trx) => {
      const r = await sql<{ sum: string; bad: string }>`
        with story as (
          select stream_id, string_agg(type, ',' order by stream_version) as types from events
          where tenant_id = ${T.tenantId} and stream_type = 'process' group by stream_id)
        select md5(string_agg(stream_id || ':' || types, ';' order by stream_id)) as sum,
          count(*) filter (where types <> ${expected}) as bad from story`.execute(trx);
      return r.rows[0];
    });
    const want = await inSystem(t.database, async (trx) => {
      const r = await sql<{ sum: string }>`select md5(string_agg(id || ':' || ${expected}, ';' order by id)) as sum
        from unnest(${ids}::text[]) as id`.execute(trx);
      return r.rows[0]?.sum;
    });
    expect(Number(checksum?.bad)).toBe(0);
    expect(checksum?.sum).toBe(want);
    const waits = await inSystem(
      t.database,
      async (trx) => (await sql`select 1 from flow_wait`.execute(trx)).rows.length,
    );
    expect(waits).toBe(0);
  });
});
