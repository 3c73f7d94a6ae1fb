import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5 } from '@sprout/core/auth/password';
import { inSystem } from '@sprout/core/db';
import { MemoryStore } from '@sprout/core/kv';
import { MemoryQueue } from '@sprout/core/queue';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { buildApp } from '../../app';
import { bladeAuth, type FastifyInstance, testConfig } from '../../testing';
import { accessToken, saberToken } from '../auth/fixtures';

/**
 * OAuth clients (/api/blade-system/client) on PostgreSQL, with two replicas sharing one
 * key-value store: the calls, the secret shown once and never again, and the token endpoint
 * authenticating, granting and timing tokens by the rows — a change seen by the next sign-in
 * on the other replica.
 */
describe('clients: list, detail, submit, reset-secret, remove, and sign-in by them', () => {
  let t: TestDatabase;
  /** Replica A (the administrator's calls) and B (sign-ins), one store between them. */
  let a: FastifyInstance;
  let b: FastifyInstance;
  const tokens: Record<string, string> = {};
  const BASE = '/api/blade-system/client';

  const call = async (who: string, method: 'GET' | 'POST', url: string, payload?: object, lang = 'zh-CN') => {
    const r = await a.inject({
      method,
      url,
      headers: { ...bladeAuth(tokens[who] as string), 'accept-language': lang },
      ...(payload ? { payload } : {}),
    });
    return { status: r.statusCode, body: r.json(), raw: r.body };
  };
  const basic = (id: string, secret: string) => ({
    authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
  });
  /** A sign-in of the demo kindergarten's teacher on replica B through `id:secret`. */
  const signIn = (id: string, secret: string, grant = 'password') =>
    saberToken(
      b,
      { tenantId: '100001', username: 'teacher1', password: md5('sprout123'), grant_type: grant, scope: 'all' },
      basic(id, secret),
    );
  const add = async (body: object) => {
    const r = await call('platform', 'POST', `${BASE}/submit`, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data as { id: string; clientId: string; clientSecret: string };
  };
  const client = {
    clientId: 'kiosk',
    authorizedGrantTypes: 'password,captcha',
    scope: 'all',
    accessTokenValidity: 1200,
    refreshTokenValidity: 7200,
  };

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    const kv = new MemoryStore();
    const open = async () => {
      const app = await buildApp(testConfig(), {
        database: t.database,
        queue: new MemoryQueue(),
        kv,
        fastify: { logger: false },
      });
      await app.ready();
      return app;
    };
    [a, b] = [await open(), await open()];
    tokens.platform = await accessToken(a, '000000', 'admin', 'admin');
    tokens.admin = await accessToken(a, '100001', 'admin', 'sprout123');
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await t?.drop();
  });

  it('lists the seeded saber client with its fields and its secret masked', async () => {
    const r = await call('platform', 'GET', `${BASE}/list`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ total: 1, current: 1 });
    const saber = r.body.data.records[0];
    expect(Object.keys(saber)).toEqual([
      'id',
      'tenantId',
      'clientId',
      'authorizedGrantTypes',
      'scope',
      'webServerRedirectUri',
      'accessTokenValidity',
      'refreshTokenValidity',
      'additionalInformation',
      'autoapprove',
      'createTime',
      'clientSecret',
    ]);
    expect(saber).toMatchObject({
      tenantId: '000000',
      clientId: 'saber',
      authorizedGrantTypes: 'password,refresh_token,captcha,social',
      accessTokenValidity: 3600,
      refreshTokenValidity: 604800,
      clientSecret: '******',
    });
    expect(r.raw).not.toContain('saber_secret');
    expect(r.raw).not.toContain('argon2');
  });

  it('adds a client: its generated secret is answered once, never in list or detail, and signs in', async () => {
    const added = await call('platform', 'POST', `${BASE}/submit`, client);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.msg).toBe('新增成功');
    const { id, clientSecret } = added.body.data;
    expect(clientSecret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const list = await call('platform', 'GET', `${BASE}/list?clientId=kio`);
    expect(list.body.data.records).toHaveLength(1);
    expect(list.body.data.records[0]).toMatchObject({ id, clientId: 'kiosk', clientSecret: '******' });
    const detail = await call('platform', 'GET', `${BASE}/detail?id=${id}`);
    expect(detail.body.data).toMatchObject({ clientId: 'kiosk', authorizedGrantTypes: 'password,captcha' });
    for (const r of [list, detail]) expect(r.raw).not.toContain(clientSecret);
    const stored = await inSystem(t.database, (trx) =>
      sql<{ h: string }>`select client_secret_hash as h from client where id = ${id}`.execute(trx),
    );
    expect(stored.rows[0]?.h).toMatch(/^\$argon2id\$/);

    const ok = await signIn('kiosk', clientSecret);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ expires_in: 1200 });
    expect((await signIn('kiosk', 'wrong-secret-of-the-kiosk')).statusCode).toBe(401);
    // refresh_token is not among its grant types.
    const refresh = await saberToken(
      b,
      { tenantId: '100001', grant_type: 'refresh_token', refresh_token: ok.json().refresh_token },
      basic('kiosk', clientSecret),
    );
    expect(refresh.statusCode).toBe(400);
    expect(refresh.json().error).toBe('unsupported_grant_type');
  });

  it('a change of validity or grant types is the next sign-in’s, on the other replica too', async () => {
    const { id, clientSecret } = await add({ ...client, clientId: 'tablet' });
    expect((await signIn('tablet', clientSecret)).json().expires_in).toBe(1200);
    // Replica B has the client cached now; A changes it.
    const changed = await call('platform', 'POST', `${BASE}/submit`, {
      ...client,
      id,
      clientId: 'tablet',
      accessTokenValidity: 600,
      authorizedGrantTypes: 'password, refresh_token',
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({ clientSecret: '******', authorizedGrantTypes: 'password,refresh_token' });
    const next = await signIn('tablet', clientSecret);
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json().expires_in).toBe(600);
    // captcha was listed before the change and is not now.
    const captcha = await signIn('tablet', clientSecret, 'captcha');
    expect(captcha.statusCode).toBe(400);
    expect(captcha.json().error).toBe('unsupported_grant_type');
  });

  it('a reset secret is answered once; the old one is refused at once', async () => {
    const { id, clientSecret: old } = await add({ ...client, clientId: 'reset-me' });
    expect((await signIn('reset-me', old)).statusCode).toBe(200);
    const reset = await call('platform', 'POST', `${BASE}/reset-secret?id=${id}`);
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    const fresh = reset.body.data.clientSecret as string;
    expect(fresh).not.toBe(old);
    expect((await signIn('reset-me', old)).statusCode).toBe(401);
    expect((await signIn('reset-me', fresh)).statusCode).toBe(200);
    // A secret the administrator sets is answered once too.
    const set = await call('platform', 'POST', `${BASE}/submit`, {
      ...client,
      id,
      clientId: 'reset-me',
      clientSecret: 'a-secret-of-my-own-choosing',
    });
    expect(set.body.data.clientSecret).toBe('a-secret-of-my-own-choosing');
    expect((await signIn('reset-me', 'a-secret-of-my-own-choosing')).statusCode).toBe(200);
    expect((await call('platform', 'GET', `${BASE}/detail?id=${id}`)).raw).not.toContain('a-secret-of-my-own');
  });

  it('removing a client refuses its next sign-in on every replica', async () => {
    const { id, clientSecret } = await add({ ...client, clientId: 'gone' });
    expect((await signIn('gone', clientSecret)).statusCode).toBe(200);
    const removed = await call('platform', 'POST', `${BASE}/remove?ids=${id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect((await signIn('gone', clientSecret)).statusCode).toBe(401);
    expect((await call('platform', 'GET', `${BASE}/detail?id=${id}`)).status).toBe(404);
    // Its client id is free again.
    await add({ ...client, clientId: 'gone' });
    // The client the call itself came with (saber) is not removed.
    const saber = (await call('platform', 'GET', `${BASE}/list?clientId=saber`)).body.data.records[0];
    const own = await call('platform', 'POST', `${BASE}/remove?ids=${saber.id}`, undefined, 'en');
    expect(own.status).toBe(400);
    expect(own.body.msg).toBe('The client this request uses cannot be removed: saber');
    expect((await signIn('saber', 'saber_secret')).statusCode).toBe(200);
  });

  it('refuses bad input with a 400 naming the fields, in Chinese and in English', async () => {
    const zh = await call('platform', 'POST', `${BASE}/submit`, {
      clientId: 'bad id',
      authorizedGrantTypes: 'password,magic',
      accessTokenValidity: 5,
      webServerRedirectUri: 'javascript:alert(1)',
      clientSecret: 'short',
    });
    expect(zh.status).toBe(400);
    expect(zh.body.fields).toEqual([
      { field: 'clientId', message: '客户端id只能包含字母、数字、点、下划线和连字符' },
      {
        field: 'authorizedGrantTypes',
        message:
          '请选择授权类型（refresh_token, password, authorization_code, captcha, social, client_credentials, implicit）',
      },
      { field: 'scope', message: '请输入授权范围' },
      { field: 'webServerRedirectUri', message: '回调地址须为 http 或 https 地址' },
      { field: 'accessTokenValidity', message: '令牌过期秒数须为 60 至 2592000 的整数' },
      { field: 'refreshTokenValidity', message: '刷新令牌过期秒数须为 60 至 31536000 的整数' },
      { field: 'clientSecret', message: '客户端密钥须为 16 至 128 个字符且不含空格' },
    ]);
    const en = await call('platform', 'POST', `${BASE}/submit`, {}, 'en');
    expect(en.status).toBe(400);
    expect(en.body.fields.map((f: { field: string }) => f.field)).toEqual([
      'clientId',
      'authorizedGrantTypes',
      'scope',
      'accessTokenValidity',
      'refreshTokenValidity',
    ]);
    expect(en.body.fields[0].message).toBe('Please enter the client id');
    const dup = await call('platform', 'POST', `${BASE}/submit`, { ...client, clientId: 'saber' }, 'en');
    expect(dup.status).toBe(400);
    expect(dup.body.msg).toBe('A client with the id saber already exists');
  });

  it('is the platform’s: a kindergarten administrator gets 403 on every call and changes nothing', async () => {
    const saber = (await call('platform', 'GET', `${BASE}/list?clientId=saber`)).body.data.records[0];
    for (const [method, url] of [
      ['GET', `${BASE}/list`],
      ['GET', `${BASE}/detail?id=${saber.id}`],
      [
        'POST',
        `${BASE}/submit?clientId=mine&authorizedGrantTypes=password&scope=all&accessTokenValidity=600&refreshTokenValidity=600`,
      ],
      [
        'POST',
        `${BASE}/submit?id=${saber.id}&clientId=saber&authorizedGrantTypes=password&scope=all&accessTokenValidity=60&refreshTokenValidity=60`,
      ],
      ['POST', `${BASE}/reset-secret?id=${saber.id}`],
      ['POST', `${BASE}/remove?ids=${saber.id}`],
    ] as const) {
      const r = await call('admin', method, url);
      expect(r.status, `${method} ${url}`).toBe(403);
    }
    const after = (await call('platform', 'GET', `${BASE}/list?clientId=saber`)).body.data.records[0];
    expect(after).toEqual(saber);
    expect((await call('platform', 'GET', `${BASE}/list?clientId=mine`)).body.data.total).toBe(0);
  });
});
