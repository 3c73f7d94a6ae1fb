import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5 } from '@sprout/core/auth/password';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { bladeAuth, clientBasic, type FastifyInstance, testApp, testConfig } from '../testing';
import { accessToken } from '../modules/auth/fixtures';

/**
 * The text rule on every route: a NUL byte, another control character or a lone surrogate
 * in any query, path, header or body value is a 400 naming the field in the caller's language
 * (these reached PostgreSQL before and answered 500), whether or not the route has a schema
 * for that part; clean text (tabs, line breaks, emoji, Chinese) still passes.
 */
describe('text rule: NUL, control characters and lone surrogates are a 400 naming the field', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  let admin = '';
  let platform = '';

  const signIn = (tenantId: string, username: string, password: string) =>
    accessToken(app, tenantId, username, password);

  /** The refusal as a user sees it: status, the named field, the message in both languages. */
  const refused = async (req: InjectOptions & { url: string; headers?: Record<string, string> }, field: string) => {
    const zh = await app.inject(req);
    expect(zh.statusCode, `${String(req.url)}: ${zh.body}`).toBe(400);
    expect(zh.json()).toMatchObject({
      success: false,
      errorCode: 'validation_failed',
      fields: [{ field, message: '不能包含控制字符（如 NUL）或无效的 Unicode 字符' }],
    });
    expect(zh.json().msg).toBe(`参数校验失败：${field}: 不能包含控制字符（如 NUL）或无效的 Unicode 字符`);
    const headers = { ...(req.headers ?? {}), 'accept-language': 'en' };
    const en = await app.inject({ ...req, headers });
    expect(en.statusCode).toBe(400);
    expect(en.json().fields).toEqual([
      { field, message: 'must not contain control characters (such as NUL) or invalid Unicode' },
    ]);
  };

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    ({ app } = await testApp(t.database, { config: testConfig() }));
    admin = await signIn('100001', 'admin', 'sprout123');
    platform = await signIn('000000', 'admin', 'admin');
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('refuses a NUL in the query of lists that filter with it in SQL (schema or not)', async () => {
    const get = (url: string, token = admin) => ({ method: 'GET' as const, url, headers: bladeAuth(token) });
    await refused(get('/api/blade-user/page?account=ad%00min'), 'account');
    await refused(get('/api/blade-system/post/list?postName=%00'), 'postName');
    await refused(get('/api/clazz/classinfo/list?name=%00'), 'name');
    await refused(get('/api/student/student/listStudents?name=a%00'), 'name');
    await refused(get('/api/week/week/tenantList?theme=%00'), 'theme');
    await refused(get('/api/week/week/tenantList?authorName=x%00y'), 'authorName');
    await refused(get('/api/week/week/tenantList?semester=%00'), 'semester');
    await refused(get('/api/blade-log/security/list?account=%00'), 'account');
    // Other control characters too (XML 1.0 refuses them in the Word export).
    await refused(get('/api/week/week/tenantList?theme=a%0Bb'), 'theme');
    await refused(get('/api/week/week/tenantList?theme=a%1Fb'), 'theme');
  });

  it('refuses them without any sign-in on the public tenant calls, in the query and in headers', async () => {
    await refused({ method: 'GET', url: '/api/blade-system/tenant/info?domain=a%00b' }, 'domain');
    await refused({ method: 'GET', url: '/api/blade-system/tenant/getBackgroundUrl?tenantId=%00' }, 'tenantId');
    await refused(
      { method: 'GET', url: '/api/blade-system/tenant/getBackgroundUrl', headers: { 'tenant-id': '1000\u00001' } },
      'tenant-id',
    );
  });

  it('refuses path parameters, form bodies and nested JSON bodies, naming the path inside the body', async () => {
    await refused(
      { method: 'GET', url: '/api/audit/streams/week-1%00/events', headers: bladeAuth(platform) },
      'streamId',
    );
    await refused(
      {
        method: 'POST',
        url: '/api/blade-system/post/submit',
        headers: { ...bladeAuth(admin), 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'postName=a%00&postCode=x&category=1',
      },
      'postName',
    );
    await refused(
      {
        method: 'POST',
        url: '/api/week/week/add',
        headers: bladeAuth(admin),
        payload: { content: { theme: 'ok', days: [{ note: 'fine' }, { note: 'bad\u0000' }] } },
      },
      'content.days.1.note',
    );
    // A bad key is named too, printable.
    await refused(
      {
        method: 'POST',
        url: '/api/week/week/add',
        headers: { ...bladeAuth(admin), 'content-type': 'application/json' },
        payload: '{"content":{"the\\u0000me":"x"}}',
      },
      'content.the\uFFFDme',
    );
  });

  it('refuses lone surrogates (which PostgreSQL rejects in jsonb and the drivers silently replace in text)', async () => {
    const post = (payload: string) => ({
      method: 'POST' as const,
      url: '/api/blade-system/post/submit',
      headers: { ...bladeAuth(admin), 'content-type': 'application/json' },
      payload,
    });
    await refused(post('{"postName":"a\\ud800","postCode":"x","category":1}'), 'postName');
    await refused(post('{"postName":"\\udc00a","postCode":"x","category":1}'), 'postName');
    await refused(
      {
        method: 'GET',
        url: `/api/week/week/tenantList?theme=${encodeURIComponent('x')}%EF%BF%BF`,
        headers: bladeAuth(admin),
      },
      'theme',
    );
    await refused(
      {
        method: 'POST',
        url: '/api/week/week/add',
        headers: { ...bladeAuth(admin), 'content-type': 'application/json' },
        payload: '{"content":{"theme":"\\ud83d"}}',
      },
      'content.theme',
    );
  });

  it('keeps clean text: tabs, line breaks, Chinese and emoji (a surrogate pair) are saved as sent', async () => {
    const postName = '岗位\t一\n二😀';
    const r = await app.inject({
      method: 'POST',
      url: '/api/blade-system/post/submit',
      headers: bladeAuth(admin),
      payload: { postName, postCode: 'textRule', category: 1, sort: 9 },
    });
    expect(r.statusCode, r.body).toBe(200);
    const list = await app.inject({
      method: 'GET',
      url: `/api/blade-system/post/list?postCode=textRule`,
      headers: bladeAuth(admin),
    });
    expect(list.json().data.records.map((p: { postName: string }) => p.postName)).toEqual([postName]);
  });

  it('still asks an anonymous caller to sign in first (the rule runs after the sign-in check)', async () => {
    const r = await app.inject({ method: 'GET', url: '/api/blade-user/page?account=%00', headers: clientBasic() });
    expect(r.statusCode).toBe(401);
  });
});

describe('odd bytes in the headers read before any route', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: false });
    ({ app } = await testApp(t.database, { config: testConfig() }));
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('a NUL in the client id of Authorization: Basic is a 401 for bad client credentials, not a 500', async () => {
    const r = await app.inject({ method: 'GET', url: '/api/blade-user/info', headers: clientBasic('sab\u0000er') });
    expect(r.statusCode).toBe(401);
    expect(r.json().errorCode).toBe('unauthorized');
  });

  it('a NUL in the token header (which the text rule leaves to the auth hook) is a 401', async () => {
    const r = await app.inject({
      method: 'GET',
      url: '/api/blade-user/info',
      headers: { ...clientBasic(), 'blade-auth': 'bearer abc\u0000def' },
    });
    expect(r.statusCode).toBe(401);
  });

  it('a malformed language cookie falls back to Chinese instead of failing the request', async () => {
    const r = await app.inject({ method: 'GET', url: '/api/health', headers: { cookie: 'language=%E0%A4%A' } });
    expect(r.statusCode).toBe(200);
  });
});

describe('the token endpoint names the field in its OAuth-shaped refusal', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: false });
    ({ app } = await testApp(t.database, { config: testConfig() }));
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('a NUL in the username or the Tenant-Id header is invalid_request naming it, not a 500', async () => {
    const grant = (query: Record<string, string>, headers: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url: `/api/blade-auth/oauth/token?${new URLSearchParams({ grant_type: 'password', tenantId: '000000', password: 'x', ...query })}`,
        headers: { ...clientBasic(), ...headers },
      });
    const user = await grant({ username: 'ad\u0000min' });
    expect(user.statusCode).toBe(400);
    expect(user.json()).toMatchObject({ error: 'invalid_request', msg: '缺少或无效的参数：username' });
    const header = await grant({ username: 'admin' }, { 'tenant-id': '0\u000000000', 'accept-language': 'en' });
    expect(header.statusCode).toBe(400);
    expect(header.json()).toMatchObject({ error: 'invalid_request', msg: 'Missing or invalid parameter: tenant-id' });
  });
});

describe('every route, present and future, applies the text rule', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: false });
    ({ app } = await testApp(t.database, { config: testConfig() }));
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('a NUL in an unknown query parameter is a 400 naming it on every route the caller may call', async () => {
    const r = await app.inject({
      method: 'POST',
      url: `/api/blade-auth/oauth/token?${new URLSearchParams({ grant_type: 'password', tenantId: '000000', username: 'admin', password: md5('admin') })}`,
      headers: { ...clientBasic(), 'tenant-id': '000000' },
    });
    const token = r.json().access_token as string;
    const routes = app.routeTable.filter((x) => x.method !== 'HEAD' && x.method !== 'OPTIONS');
    const missed: string[] = [];
    let checked = 0;
    for (const route of routes) {
      const url = route.url.replace(/:[A-Za-z]+/g, '1').replace(/\*/g, 'x');
      const res = await app.inject({
        method: route.method as 'GET',
        url: `${url}${url.includes('?') ? '&' : '?'}probe=%00`,
        headers: bladeAuth(token),
      });
      // The platform administrator may call every route but those for guests (403) or
      // another client; anything that reached the route must have been refused for `probe`.
      if (res.statusCode === 403 || res.statusCode === 401) continue;
      checked++;
      // The envelope's fields, or (the token endpoint's OAuth shape) its message, name it.
      const body = res.statusCode === 400 ? res.json() : {};
      const named =
        (body.fields ?? []).some((f: { field: string }) => f.field === 'probe') || String(body.msg).endsWith('probe');
      if (!named) missed.push(`${route.method} ${route.url} → ${res.statusCode}`);
    }
    expect(missed).toEqual([]);
    expect(checked).toBeGreaterThan(100);
    console.log(`text rule: ${checked} of ${routes.length} routes refused a NUL in the query, naming it`);
  });
});
