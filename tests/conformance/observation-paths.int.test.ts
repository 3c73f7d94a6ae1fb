import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { accessToken } from '../../services/api/src/modules/auth/fixtures';
import { bladeAuth, type FastifyInstance, testApp } from '../../services/api/src/testing';

type Answer = { status: number; body: { data: unknown } | string };
type Caller = { get(url: string): Promise<Answer>; post(url: string, body?: object): Promise<Answer> };

/**
 * Spec §7 "Observations", "Review of observations", "Regional observation", "Hearken": every
 * call answers, as its method says, for the demo kindergarten's principal (the whole school,
 * read only) and a teacher — never a 404 (a path or record that is not there) nor a 5xx. Calls
 * naming a record get a live demo record of the family.
 */
const SPEC: Array<[family: string, base: string, calls: string]> = [
  [
    'observation',
    '/api/t_observation/observation',
    'POST submit, POST update, POST trialObservationList, POST successObservationList, POST successAutoObservationList, ' +
      'POST trialAutoObservationList, POST listAutoObservation, POST alllistFor, POST alllistForObservationTrial, ' +
      'POST alllistForObservationTrialSuccess, POST alllistForTrial, POST alllistForTrialSuccess, ' +
      'POST listobservationByNickName, POST ExcellentObservation, POST addExcellent, POST DelExcellentObservation, ' +
      'POST Collection, POST cancelCollection, POST collectionByUserId, GET alllistForId, GET removeId, ' +
      'GET exportForId, GET exportObservationForId, GET exportObservationUrlForId',
  ],
  [
    'creview',
    '/api/t_observation_creview/creview',
    'GET listById, GET detail, POST remove, POST submit, POST update, GET ForCreviewId, ' +
      'POST trialObservationCreviewList, POST successObservationCreviewList',
  ],
  [
    'regional',
    '/api/observation_regional/observationregional',
    'GET list, GET listById, GET detail, POST remove, POST submit, POST update, GET ForRegionalId, ' +
      'POST trialObservationRegionalList, POST successObservationRegionalList',
  ],
  [
    'hearken',
    '/api/t_hearken/hearken',
    'POST submit, POST update, POST alllistFor, POST trialHearkenList, POST successHearkenList, ' +
      'POST listHearkenByNickName, GET allListForId, GET removeId',
  ],
];
const MINE: Record<string, string> = {
  observation: '/api/t_observation/observation/alllistFor',
  creview: '/api/t_observation_creview/creview/listById',
  regional: '/api/observation_regional/observationregional/listById',
  hearken: '/api/t_hearken/hearken/alllistFor',
};

describe('the observation families’ spec calls all answer', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  const as: Record<string, Caller> = {};
  const approved: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    ({ app } = await testApp(t.database));
    // A Word file is an answer too: bodies that are not JSON are kept as text.
    const signedIn = async (account: string): Promise<Caller> => {
      const headers = bladeAuth(await accessToken(app, '100001', account, 'sprout123'));
      const send = async (method: 'GET' | 'POST', url: string, payload?: object) => {
        const r = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
        const json = String(r.headers['content-type'] ?? '').includes('json');
        return { status: r.statusCode, body: json ? r.json() : r.headers['content-type'] };
      };
      return { get: (url) => send('GET', url), post: (url, body) => send('POST', url, body) };
    };
    as.principal = await signedIn('principal');
    as.teacher = await signedIn('teacher1');
    for (const [family, url] of Object.entries(MINE)) {
      const a = url.endsWith('listById')
        ? await as.teacher.get(`${url}?size=50`)
        : await as.teacher.post(url, { size: 50 });
      const rows = ((a.body as { data: unknown }).data as { records: Array<{ id: string; status: string }> }).records;
      approved[family] = rows.find((r) => r.status === 'success')?.id as string;
    }
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  for (const [family, base, calls] of SPEC)
    for (const call of calls.split(', ')) {
      const [method, name] = call.split(' ') as ['GET' | 'POST', string];
      it(`${family}: ${method} ${name}`, async () => {
        const id = approved[family] as string;
        expect(id).toMatch(/^\d+$/);
        for (const who of ['principal', 'teacher']) {
          const caller = as[who] as Caller;
          const url = `${base}/${name}?id=${id}&ids=${id}&nickName=${encodeURIComponent('小')}`;
          const a = method === 'GET' ? await caller.get(url) : await caller.post(url, {});
          expect(a.status, `${who}: ${JSON.stringify(a.body).slice(0, 200)}`).not.toBe(404);
          expect(a.status, `${who}: ${JSON.stringify(a.body).slice(0, 200)}`).toBeLessThan(500);
        }
      });
    }
});
