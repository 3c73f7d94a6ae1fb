import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5 } from '@sprout/core/auth/password';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { testRedisUrl } from '@sprout/core/testing/services';
import { clientBasic, type FastifyInstance, testApp, testConfig } from '../../testing';
import { addTenant, addUser, uniquePrefix } from './fixtures';

/**
 * Random parameters and headers thrown at the token endpoint: whatever arrives, the
 * answer is a 400 or 401 carrying an error_description, never a 500 (and never a token:
 * the generator never knows a right password).
 */
describe('token endpoint under random input (fast-check)', () => {
  let t: TestDatabase;
  let app: FastifyInstance;

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: false });
    await addTenant(t.database, { tenant_id: '100001' });
    await addTenant(t.database, { tenant_id: '100002', expire_time: new Date(Date.now() - 1000) });
    await addUser(t.database, { tenantId: '100001', account: 'teacher1', password: 'the-one-secret' });
    const config = testConfig({
      REDIS_URL: await testRedisUrl(),
      KV_PREFIX: uniquePrefix(),
      LOGIN_MAX_FAILURES_PER_IP: '100000',
    });
    ({ app } = await testApp(t.database, { config }));
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  const text = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.constantFrom(
      '',
      ' ',
      '000000',
      '100001',
      '100002',
      '999999',
      'teacher1',
      'admin',
      md5('admin-not-the-password'),
      md5('wrong'),
      'null',
      '[]',
      '{}',
      '%00',
      "' or 1=1 --",
      'x'.repeat(5000),
    ),
  );
  const headerText = fc.oneof(
    fc.string({ unit: 'grapheme-ascii', maxLength: 60 }),
    fc.constantFrom('100001', '000000', 'bearer x', 'Basic', 'Basic ====', ''),
  );
  // Mostly well-formed requests with one thing off, so every grant's deeper checks are reached.
  const known = fc.record(
    {
      grant_type: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom('password', 'captcha', 'refresh_token', 'social') },
        { weight: 1, arbitrary: text },
      ),
      tenantId: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom('100001', '100002', '000000') },
        { weight: 1, arbitrary: text },
      ),
      username: fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom('teacher1', 'admin') },
        { weight: 1, arbitrary: text },
      ),
      password: fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom(md5('wrong'), md5('admin!')) },
        { weight: 1, arbitrary: text },
      ),
      refresh_token: text,
      source: fc.oneof(fc.constant('sprout-oidc'), text),
      code: text,
      state: fc.oneof(fc.constant('A'.repeat(32)), text),
      scope: fc.constant('all'),
    },
    { requiredKeys: [] },
  );
  const params = fc
    .tuple(
      known,
      fc.dictionary(
        fc.oneof(fc.constantFrom('__proto__', 'constructor', 'grant_type', 'tenantId'), fc.string({ maxLength: 10 })),
        text,
        { maxKeys: 3 },
      ),
    )
    .map(([k, extra]) => ({ ...extra, ...k }) as Record<string, string>);
  const authorization = fc.oneof(
    { weight: 8, arbitrary: fc.constant(clientBasic()) },
    { weight: 1, arbitrary: fc.constant(clientBasic('saber', 'wrong')) },
    { weight: 1, arbitrary: fc.record({ authorization: headerText }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }))
        .map(([id, secret]) => clientBasic(id, secret)),
    },
    { weight: 1, arbitrary: fc.constant({}) },
  );
  const extra = fc.record(
    {
      'tenant-id': headerText,
      'captcha-key': headerText,
      'captcha-code': headerText,
      'accept-language': fc.constantFrom('en', 'zh-CN', 'fr', '*'),
    },
    { requiredKeys: [] },
  );
  const body = fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    params.map((p) => ({ type: 'application/x-www-form-urlencoded', payload: new URLSearchParams(p).toString() })),
    params.map((p) => ({ type: 'application/json', payload: JSON.stringify(p) })),
    fc.jsonValue().map((v) => ({ type: 'application/json', payload: JSON.stringify(v) })),
    fc.string({ maxLength: 50 }).map((s) => ({ type: 'application/json', payload: s })),
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          'text/plain',
          'multipart/form-data; boundary=x',
          'application/xml',
          'application/json; charset=utf-8',
        )
        .map((type) => ({ type, payload: '<x>1</x>' })),
    },
  );

  it('answers every request with 400, 401 or 429 and an error_description, never 500', async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(params, authorization, extra, body, async (query, auth, headers, b) => {
        const qs = new URLSearchParams(query).toString();
        const r = await app.inject({
          method: 'POST',
          url: `/api/blade-auth/oauth/token${qs ? `?${qs}` : ''}`,
          headers: { ...auth, ...headers, ...(b ? { 'content-type': b.type } : {}) },
          ...(b ? { payload: b.payload } : {}),
        });
        // 429: an address past its budget of wrong client secrets (each costs an argon2 verify).
        expect([400, 401, 429], r.body.slice(0, 300)).toContain(r.statusCode);
        const json = r.json();
        expect(typeof json.error_description).toBe('string');
        expect(json.error_description.length).toBeGreaterThan(0);
        expect(json.error_code).toBe(r.statusCode);
        expect(json).not.toHaveProperty('access_token');
        seen.add(json.errorCode);
      }),
      { numRuns: 400 },
    );
    // The runs reached the checks deep inside each grant, not only the client gate.
    for (const code of [
      'invalid_client',
      'invalid_request',
      'unsupported_grant_type',
      'tenant_not_found',
      'tenant_expired',
      'bad_credentials',
      'captcha_invalid',
      'refresh_invalid',
      'social_state_invalid',
    ])
      expect(seen, code).toContain(code);
  });
});
