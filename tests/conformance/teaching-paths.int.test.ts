import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { type FastifyInstance, testApp } from '../../services/api/src/testing';
import { type Caller, signedIn } from './support';

/**
 * Spec §7 "Teacher plan", "Research and projects", "Other record families" (class summary,
 * class work, half follow, half flow list): every call answers, as its method says, for the
 * demo kindergarten's principal (the whole school) and a teacher — never a 404 (a path or
 * record that is not there) nor a 5xx. Calls naming a record get a live demo record of the
 * family (a visit's items: the visit).
 */
const SPEC: Array<[family: string, base: string, calls: string]> = [
  [
    'teacher_plan',
    '/api/teacher_plan/plan',
    'GET list, POST list, GET detail, POST remove, POST submit, GET allListForId, GET removeId',
  ],
  [
    'research',
    '/api/teacher_research/listResearch',
    'GET list, POST list, GET detail, POST remove, POST submit, GET allListForId, GET listForProjectId',
  ],
  [
    'project',
    '/api/teacher_project/project',
    'GET list, GET detail, POST remove, POST submit, GET projectList, POST project',
  ],
  [
    'class_summary',
    '/api/t_class_summary/classsummary',
    'GET list, GET detail, POST remove, POST submit, GET ForSummaryId',
  ],
  ['class_work', '/api/t_class_work/classwork', 'GET listById, GET detail, POST remove, POST submit, GET ForWorkId'],
  ['half_flow', '/api/t_half_flow/halfflow', 'GET list, GET detail, POST remove, POST submit'],
  ['half_flow_item', '/api/t_half_flow_list/halfflowlist', 'GET listById, GET detail, POST remove, POST submit'],
];
/** Where a teacher finds a demo record of each family (the id the calls name). */
const FIND: Record<string, string> = {
  teacher_plan: '/api/teacher_plan/plan/list',
  research: '/api/teacher_research/listResearch/list',
  project: '/api/teacher_project/project/projectList',
  class_summary: '/api/t_class_summary/classsummary/list',
  class_work: '/api/t_class_work/classwork/listById',
  half_flow: '/api/t_half_flow/halfflow/list',
};

describe('the teaching families’ spec calls all answer', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  const as: Record<string, Caller> = {};
  const found: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    ({ app } = await testApp(t.database));
    as.principal = await signedIn(app, '100001', 'principal', 'sprout123');
    as.teacher = await signedIn(app, '100001', 'teacher1', 'sprout123');
    for (const [family, url] of Object.entries(FIND)) {
      const a = await (as.teacher as Caller).get(`${url}?size=50`);
      const rows = (a.body.data as { records: Array<{ id: string; status: string }> }).records;
      // A record no call may delete (submitted or approved): every call still finds it.
      found[family] = (rows.find((r) => r.status === 'success' || r.status === 'trial') ?? rows[0])?.id as string;
    }
    const items = await (as.teacher as Caller).get(`/api/t_half_flow_list/halfflowlist/listById?id=${found.half_flow}`);
    found.half_flow_item = (items.body.data as { records: Array<{ id: string }> }).records[0]?.id as string;
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  for (const [family, base, calls] of SPEC)
    for (const call of calls.split(', ')) {
      const [method, name] = call.split(' ') as ['GET' | 'POST', string];
      it(`${family}: ${method} ${name}`, async () => {
        const id = found[family] as string;
        expect(id).toMatch(/^\d+$/);
        // A visit's items are listed by the visit's id.
        const named = name === 'listById' && family === 'half_flow_item' ? (found.half_flow as string) : id;
        for (const who of ['principal', 'teacher']) {
          const caller = as[who] as Caller;
          const url = `${base}/${name}?id=${named}&ids=${id}&deptId=1`;
          const a = method === 'GET' ? await caller.get(url) : await caller.post(url, {});
          expect(a.status, `${who}: ${JSON.stringify(a.body).slice(0, 200)}`).not.toBe(404);
          expect(a.status, `${who}: ${JSON.stringify(a.body).slice(0, 200)}`).toBeLessThan(500);
        }
      });
    }
});
