import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import { MemoryQueue } from '@sprout/core/queue';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { buildApp } from '../../app';
import { bladeAuth, type FastifyInstance, testConfig } from '../../testing';
import { CONSOLE_PEOPLE, type ConsolePerson } from '../auth/console-fixture';
import { accessToken } from '../auth/fixtures';
import { flushLogs, purgeOldLogs } from './index';

/**
 * The logs (issue 17, spec §7 "Logs") on PostgreSQL: the API log of write calls (buffered,
 * written after a flush), the error log of 5xx answers and browser uploads (the platform's
 * administrator only), the usual log's business events, tenant scoping and retention.
 */
describe('logs: API, error and usual logs', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  const tokens = {} as Record<ConsolePerson, string>;

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    app = await buildApp(testConfig(), {
      database: t.database,
      queue: new MemoryQueue(),
      fastify: { logger: false },
      // A route that fails as an unexpected bug would: the error handler answers 500.
      plugins: [
        async (a) => {
          a.post('/api/test-only/boom', { config: { access: 'authenticated' } }, async () => {
            throw new TypeError('boom: the unexpected');
          });
        },
      ],
    });
    await app.ready();
    for (const [who, [tenant, account, password]] of Object.entries(CONSOLE_PEOPLE))
      tokens[who as ConsolePerson] = await accessToken(app, tenant, account, password);
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  const call = async (who: ConsolePerson, method: 'GET' | 'POST', url: string, payload?: object, lang = 'zh-CN') => {
    const r = await app.inject({
      method,
      url,
      headers: { ...bladeAuth(tokens[who]), 'accept-language': lang, 'user-agent': `vitest-${who}` },
      ...(payload ? { payload } : {}),
    });
    return { status: r.statusCode, body: r.json(), headers: r.headers };
  };
  /** The rows of a log list as `who` sees them, after the buffers are written. */
  const list = async (who: ConsolePerson, kind: 'api' | 'error' | 'usual', query: string) => {
    await flushLogs(app);
    const r = await call(who, 'GET', `/api/blade-log/${kind}/list?size=200&${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: rows are asserted field by field
    return r.body.data.records as any[];
  };

  it('a write call lands in the API log after a flush: who, route, status, time, address; a GET does not', async () => {
    const added = await call('admin', 'POST', '/api/blade-system/param/submit', {
      paramName: '午睡',
      paramKey: 'nap.log',
      paramValue: '90',
    });
    expect(added.status).toBe(200);
    await call('admin', 'GET', '/api/blade-system/param/list');
    const rows = await list('admin', 'api', 'requestUri=/api/blade-system/param/');
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(row).toMatchObject({
      tenantId: '100001',
      method: 'POST',
      requestUri: '/api/blade-system/param/submit',
      route: '/api/blade-system/param/submit',
      methodName: 'POST /api/blade-system/param/submit',
      status: 200,
      type: 'write',
      createBy: 'admin',
      remoteIp: '127.0.0.1',
      userAgent: 'vitest-admin',
      serviceId: 'sprout-api',
    });
    expect(row.time).toBeGreaterThanOrEqual(0);
    expect(row.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(row.params)).toEqual({ body: { paramName: '午睡', paramKey: 'nap.log', paramValue: '90' } });
    expect(row.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // The detail answers the same entry.
    const detail = await call('admin', 'GET', `/api/blade-log/api/detail?id=${row.id}`);
    expect(detail.body.data).toEqual(row);
    // A refused write is logged with its status.
    const refused = await call('admin', 'POST', '/api/blade-system/param/submit', { paramName: 'x' });
    expect(refused.status).toBe(400);
    const again = await list('admin', 'api', 'requestUri=/api/blade-system/param/submit&status=400');
    expect(again).toHaveLength(1);
  });

  it('a POST that only reads (a Saber list or a record by id sent as POST) is not a write call: not logged', async () => {
    const queue = await call('admin', 'POST', '/api/t_observation/observation/alllistForTrial', {});
    expect(queue.status, JSON.stringify(queue.body)).toBe(200);
    const mine = await call('admin', 'POST', '/api/t_observation/observation/alllistFor?current=1&size=10', {});
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(await list('admin', 'api', 'requestUri=/api/t_observation/')).toHaveLength(0);
    // A write on the same family is.
    const removed = await call('admin', 'POST', '/api/t_observation/observation/update', { title: '' });
    expect(removed.status).toBeLessThan(500);
    expect(await list('admin', 'api', 'requestUri=/api/t_observation/observation/update')).toHaveLength(1);
  });

  it('a sign-in is logged (API and usual log) without its password', async () => {
    const password = createHash('md5').update('sprout123').digest('hex');
    await accessToken(app, '100001', 'teacher1', 'sprout123');
    const wrong = await app.inject({
      method: 'POST',
      url: `/api/blade-auth/oauth/token?tenantId=100001&username=teacher1&password=${'0'.repeat(32)}&grant_type=password&scope=all&type=account`,
      headers: { ...bladeAuth('x'), 'tenant-id': '100001' },
    });
    expect(wrong.statusCode).toBeGreaterThanOrEqual(400);
    const rows = await list('admin', 'api', 'type=sign-in&createBy=teacher1');
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const r of rows) {
      expect(r.params).not.toContain(password);
      expect(r.params).not.toContain('0'.repeat(32));
      expect(JSON.parse(r.params).query).toMatchObject({ password: '******', username: 'teacher1' });
    }
    expect(rows.map((r) => r.status)).toContain(200);
    const usual = await list('admin', 'usual', 'createBy=teacher1');
    const titles = usual.map((u) => u.logId);
    expect(titles).toContain('sign-in');
    expect(titles).toContain('sign-in failed');
    expect(JSON.parse(usual.find((u) => u.logId === 'sign-in').logData)).toMatchObject({
      account: 'teacher1',
      grantType: 'password',
      status: 200,
    });
    expect(JSON.stringify(usual)).not.toContain(password);
  });

  it('a write refused for want of a valid token is the platform’s to read, whatever tenant its header names', async () => {
    const r = await app.inject({
      method: 'POST',
      url: '/api/blade-system/param/submit',
      headers: { ...bladeAuth('not-a-token'), 'tenant-id': '100001' },
      payload: { paramName: 'x', paramKey: 'forged.tenant', paramValue: '1' },
    });
    expect(r.statusCode).toBe(401);
    expect(await list('admin', 'api', 'status=401')).toEqual([]);
    const rows = await list('platform', 'api', 'status=401&tenantId=000000');
    expect(rows.map((x) => x.requestUri)).toContain('/api/blade-system/param/submit');
  });

  it('a forced 500 lands in the error log with its stack and request id, for the platform administrator', async () => {
    const boom = await call('teacher', 'POST', '/api/test-only/boom', { secret: 'hunter2', note: 'n' });
    expect(boom.status).toBe(500);
    expect(JSON.stringify(boom.body)).not.toContain('boom');
    const requestId = boom.headers['x-request-id'] as string;
    const rows = await list('platform', 'error', 'type=server');
    const row = rows.find((r) => r.requestId === requestId);
    expect(row).toMatchObject({
      tenantId: '100001',
      type: 'server',
      status: 500,
      exceptionName: 'TypeError',
      message: 'boom: the unexpected',
      requestUri: '/api/test-only/boom',
      createBy: 'teacher1',
    });
    expect(row.stackTrace).toContain('TypeError: boom: the unexpected');
    expect(row.stackTrace).toContain('log.int.test.ts');
    expect(row.fileName).toContain('log.int.test.ts');
    expect(row.lineNumber).toBeGreaterThan(0);
    expect(row.params).toContain('******');
    expect(row.params).not.toContain('hunter2');
    const detail = await call('platform', 'GET', `/api/blade-log/error/detail?id=${row.id}`);
    expect(detail.body.data.stackTrace).toBe(row.stackTrace);
  });

  it('the browser’s error log uploads under the user, and bad uploads are refused with nothing stored', async () => {
    const logs = [
      {
        type: 'error',
        message: 'x is not a function',
        stack: 'TypeError: x\n    at a (app.js:1:2)',
        info: 'in Foo',
        url: '/home',
        time: '2026-11-26 08:00:00',
      },
      { type: 'promise', message: 'network down', stack: '', info: '', url: '/week', time: '2026-11-26 08:00:01' },
    ];
    const up = await call('teacher', 'POST', '/api/blade-log/error/upload', { logs });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body).toMatchObject({ success: true, msg: '日志上传成功', data: { count: 2 } });
    const en = await call('teacher', 'POST', '/api/blade-log/error/upload', { logs: logs.slice(0, 1) }, 'en');
    expect(en.body.msg).toBe('Log upload sent');
    const rows = await list('platform', 'error', 'type=client&createBy=teacher1');
    expect(rows).toHaveLength(3);
    expect(rows.find((r) => r.message === 'network down')).toMatchObject({
      tenantId: '100001',
      type: 'client',
      title: 'promise',
      requestUri: '/week',
      userAgent: 'vitest-teacher',
      createBy: 'teacher1',
    });
    expect(rows.find((r) => r.message === 'x is not a function').stackTrace).toContain('at a (app.js:1:2)');

    const tooLong = await call('teacher', 'POST', '/api/blade-log/error/upload', {
      logs: [logs[0], { ...logs[1], message: 'm'.repeat(2001) }],
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.fields).toEqual([{ field: 'logs.1.message', message: '日志内容过长' }]);
    const tooMany = await call(
      'teacher',
      'POST',
      '/api/blade-log/error/upload',
      {
        logs: Array.from({ length: 201 }, () => logs[1]),
      },
      'en',
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.fields[0].message).toBe('Upload at most 200 log entries at a time');
    const empty = await call('teacher', 'POST', '/api/blade-log/error/upload', { logs: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.fields[0].message).toBe('请上传至少一条日志');
    const notEntries = await call('teacher', 'POST', '/api/blade-log/error/upload', { logs: 'boom' });
    expect(notEntries.status).toBe(400);
    expect(await list('platform', 'error', 'type=client&createBy=teacher1')).toHaveLength(3);
  });

  it('only the platform administrator reads the error log: a kindergarten administrator, a principal and a teacher get 403', async () => {
    const [row] = await list('platform', 'error', 'type=client');
    for (const who of ['admin', 'principal', 'teacher'] as const) {
      expect((await call(who, 'GET', '/api/blade-log/error/list')).status, who).toBe(403);
      expect((await call(who, 'GET', `/api/blade-log/error/detail?id=${row.id}`)).status, who).toBe(403);
    }
    expect((await call('teacher', 'GET', '/api/blade-log/api/list')).status).toBe(403);
  });

  it('the API and usual logs are each tenant’s own; the platform sees every tenant and filters by one', async () => {
    const other = {
      tenant_id: '100777',
      id: nextId(),
      method: 'POST',
      request_uri: '/api/other/write',
      route: '/api/other/write',
    };
    await inSystem(t.database, (trx) =>
      trx
        .insertInto('api_log' as never)
        .values(other as never)
        .execute(),
    );
    expect(await list('admin', 'api', 'requestUri=/api/other/write')).toHaveLength(0);
    // Asking for another tenant does not widen a kindergarten's view.
    expect(await list('admin', 'api', 'tenantId=100777')).not.toContainEqual(
      expect.objectContaining({ tenantId: '100777' }),
    );
    expect((await call('admin', 'GET', `/api/blade-log/api/detail?id=${other.id}`)).status).toBe(404);
    const all = await list('platform', 'api', 'requestUri=/api/');
    expect(new Set(all.map((r) => r.tenantId))).toEqual(new Set(['100001', '100777', '000000']));
    const one = await list('platform', 'api', 'tenantId=100777');
    expect(one.map((r) => r.requestUri)).toEqual(['/api/other/write']);
  });

  it('the usual log records a password reset and a role grant', async () => {
    const users = await call('admin', 'GET', '/api/blade-user/page?account=teacher2&size=10');
    const id = users.body.data.records[0]?.id;
    expect(id).toBeTruthy();
    expect((await call('admin', 'POST', `/api/blade-user/reset-password?userIds=${id}`)).status).toBe(200);
    const rows = await list('admin', 'usual', 'logId=password reset');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ createBy: 'admin', logLevel: 'info', tenantId: '100001' });
    expect(JSON.parse(rows[0].logData)).toEqual({ accounts: ['teacher2'] });
    expect(rows[0].logData).not.toMatch(/password"/);
  });

  it('retention deletes rows older than their tenant’s setting only', async () => {
    const day = 86_400_000;
    const now = new Date();
    const at = (tenant: string, daysAgo: number, uri: string) => ({
      tenant_id: tenant,
      id: nextId(),
      request_uri: uri,
      create_time: new Date(now.getTime() - daysAgo * day),
    });
    const rows = [
      at('100001', 40, '/old/default'), // past the default 30 days
      at('100001', 20, '/kept/default'),
      at('100555', 10, '/old/own-setting'), // its tenant keeps 5 days
      at('100555', 3, '/kept/own-setting'),
    ];
    await inSystem(t.database, async (trx) => {
      await trx
        .insertInto('api_log' as never)
        .values(rows as never)
        .execute();
      await sql`insert into param (tenant_id, id, param_name, param_key, param_value)
                values ('100555', ${nextId()}, 'API log days', 'log.retentionDays.api', '5')`.execute(trx);
      await trx
        .insertInto('usual_log' as never)
        .values([at('100001', 100, 'usual-kept'), at('100001', 200, 'usual-old')] as never)
        .execute();
    });
    const report = await purgeOldLogs(t.database, now);
    expect(report).toMatchObject({ api: 2, usual: 1 });
    const left = await inSystem(t.database, async (trx) =>
      (
        await sql<{
          request_uri: string;
        }>`select request_uri from api_log where request_uri like '/old/%' or request_uri like '/kept/%' union all
        select request_uri from usual_log where request_uri like 'usual-%' order by 1`.execute(trx)
      ).rows.map((r) => r.request_uri),
    );
    expect(left).toEqual(['/kept/default', '/kept/own-setting', 'usual-kept']);
  });
});
