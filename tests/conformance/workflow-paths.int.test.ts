import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { type FastifyInstance, testApp } from '../../services/api/src/testing';
import { type Caller, signedIn } from './support';

/**
 * Spec §7 "Workflow": every workflow call answers — never a 404 (a path that is not there)
 * nor a 5xx — for the kindergarten's administrator and for the teacher who applied for leave,
 * with the ids of a live leave request (Saber's request shapes: parameters in the query string).
 */
describe('the workflow spec calls all answer', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  const as: Record<string, Caller> = {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    ({ app } = await testApp(t.database));
    as.admin = await signedIn(app, '100001', 'admin', 'sprout123');
    as.teacher = await signedIn(app, '100001', 'teacher1', 'sprout123');
    as.leader = await signedIn(app, '100001', 'leader', 'sprout123');
    const users = await (as.admin as Caller).get('/api/blade-user/page?current=1&size=50&account=leader');
    const leader = (users.body.data as { records: Array<{ id: string; account: string }> }).records.find(
      (u) => u.account === 'leader',
    );
    const applied = await (as.teacher as Caller).post('/api/blade-desk/process/leave/start-process', {
      startTime: '2026-12-01 08:00:00',
      endTime: '2026-12-03 08:00:00',
      reason: '事假',
      taskUser: leader?.id,
    });
    const data = applied.body.data as { id: string; processInstanceId: string; processDefinitionId: string };
    ids.businessId = data.id;
    ids.processInstanceId = data.processInstanceId;
    ids.processDefinitionId = data.processDefinitionId;
    const models = await (as.admin as Caller).get('/api/blade-flow/model/list?current=1&size=10');
    ids.modelId = (models.body.data as { records: Array<{ id: string }> }).records[0]?.id as string;
    const todo = await (as.leader as Caller).get('/api/blade-flow/work/todo-list?current=1&size=10');
    ids.taskId = (todo.body.data as { records: Array<{ taskId: string }> }).records[0]?.taskId as string;
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  const CALLS: Array<[who: string, method: 'GET' | 'POST', url: () => string, body?: object]> = [
    ['admin', 'GET', () => '/api/blade-flow/model/list?current=1&size=10'],
    ['admin', 'GET', () => `/api/blade-flow/model/detail?id=${ids.modelId}`],
    ['admin', 'POST', () => '/api/blade-flow/model/submit', { modelKey: 'probe', name: 'probe' }],
    ['admin', 'POST', () => `/api/blade-flow/model/deploy?modelId=${ids.modelId}&category=flow_1`],
    ['admin', 'POST', () => '/api/blade-flow/model/remove?ids=1'],
    ['admin', 'GET', () => '/api/blade-flow/manager/list?current=1&size=10'],
    [
      'admin',
      'POST',
      () =>
        `/api/blade-flow/manager/change-state?processId=${encodeURIComponent(ids.processDefinitionId as string)}&state=active`,
    ],
    ['admin', 'POST', () => '/api/blade-flow/manager/remove?deploymentIds=1'],
    ['admin', 'GET', () => '/api/blade-flow/follow/list?current=1&size=10'],
    ['admin', 'GET', () => `/api/blade-flow/process/history-flow-list?processInstanceId=${ids.processInstanceId}`],
    ['admin', 'GET', () => `/api/blade-flow/process/diagram-view?processInstanceId=${ids.processInstanceId}`],
    [
      'admin',
      'GET',
      () =>
        `/api/blade-flow/process/model-view?processDefinitionId=${encodeURIComponent(ids.processDefinitionId as string)}`,
    ],
    ['teacher', 'GET', () => '/api/blade-flow/work/start-list?current=1&size=10'],
    ['teacher', 'GET', () => '/api/blade-flow/work/claim-list?current=1&size=10'],
    ['teacher', 'GET', () => '/api/blade-flow/work/todo-list?current=1&size=10'],
    ['teacher', 'GET', () => '/api/blade-flow/work/send-list?current=1&size=10'],
    ['teacher', 'GET', () => '/api/blade-flow/work/done-list?current=1&size=10'],
    ['teacher', 'GET', () => `/api/blade-flow/process/history-flow-list?processInstanceId=${ids.processInstanceId}`],
    ['teacher', 'GET', () => `/api/blade-flow/process/detail?processInstanceId=${ids.processInstanceId}`],
    ['teacher', 'GET', () => `/api/blade-desk/process/leave/detail?businessId=${ids.businessId}`],
    [
      'teacher',
      'POST',
      () => '/api/blade-desk/process/leave/start-process',
      { startTime: '', endTime: '', reason: '', taskUser: '' },
    ],
    ['leader', 'POST', () => `/api/blade-flow/work/claim-task?taskId=${ids.taskId}`],
    ['leader', 'POST', () => '/api/blade-flow/work/complete-task', { taskId: 'x', flag: 'ok' }],
    [
      'admin',
      'POST',
      () =>
        `/api/blade-flow/follow/delete-process-instance?processInstanceId=${ids.processInstanceId}&deleteReason=probe`,
    ],
  ];

  for (const [who, method, url, body] of CALLS)
    it(`${who}: ${method} ${url().split('?')[0]}`, async () => {
      const caller = as[who] as Caller;
      const a = method === 'GET' ? await caller.get(url()) : await caller.post(url(), body ?? {});
      expect(a.status, JSON.stringify(a.body).slice(0, 300)).not.toBe(404);
      expect(a.status, JSON.stringify(a.body).slice(0, 300)).toBeLessThan(500);
    });
});
