import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { useDemoConsole } from '../auth/console-fixture';
import { signBody } from './provider';

/**
 * SMS (/api/blade-resource/sms) on PostgreSQL: configurations (the secret wrapped and never
 * answered, one enabled), send-message through the log provider and through the HTTP provider
 * against a server on loopback, the message log, the limits, bad input and other tenants.
 */
describe('sms: configurations, send-message, the message log', () => {
  const demo = useDemoConsole();
  const { call } = demo;
  const BASE = '/api/blade-resource/sms';

  /** The provider on loopback: what it received, and what it answers next. */
  let provider: Server;
  let endpoint = '';
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  let answer = { status: 200, body: '{"code":"OK"}' };
  beforeAll(async () => {
    provider = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/send`;
  });
  afterAll(() => new Promise<void>((resolve) => provider.close(() => resolve())));

  const logOf = async (who: string, query = '') =>
    (await call(who, 'GET', `${BASE}/log/list?size=200${query}`)).body.data.records as Record<string, string>[];
  const send = (who: string, body: Record<string, string>, lang?: string) =>
    call(who, 'POST', `${BASE}/endpoint/send-message`, body, lang);
  const httpConfig = (over: object = {}) => ({
    category: 'http',
    smsCode: 'yun',
    templateId: 'SMS_001',
    accessKey: 'ak-demo',
    secretKey: 'first-secret-of-the-provider',
    signName: '萌芽',
    endpoint,
    ...over,
  });
  const setParam = async (paramKey: string, paramValue: string) => {
    const r = await call('admin', 'POST', '/api/blade-system/param/submit', {
      paramName: paramKey,
      paramKey,
      paramValue,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  };

  it('lists the demo kindergarten’s log configuration, enabled, its secret blank', async () => {
    const r = await call('admin', 'GET', `${BASE}/list`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ total: 1, current: 1 });
    expect(r.body.data.records[0]).toMatchObject({
      tenantId: '100001',
      category: 'log',
      smsCode: 'demo-log',
      status: 2,
      secretKey: '',
    });
    const detail = await call('admin', 'GET', `${BASE}/detail?id=${r.body.data.records[0].id}`);
    expect(detail.body.data).toEqual(r.body.data.records[0]);
  });

  it('sends through the enabled log configuration: one log row per number, read by the administrator', async () => {
    const r = await send('admin', { phones: '13800000001, 13800000002', params: '{"code":"1234","n":5}' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ msg: '发送成功', data: { smsCode: 'demo-log', sent: 2, failed: 0 } });
    const rows = await logOf('admin', '&phone=13800000001');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      smsCode: 'demo-log',
      category: 'log',
      phone: '13800000001',
      templateId: 'notice',
      params: '{"code":"1234","n":"5"}',
      status: 'sent',
      reason: '',
    });
    expect(rows[0]?.senderName).not.toBe('');
    const detail = await call('admin', 'GET', `${BASE}/log/detail?id=${rows[0]?.id}`);
    expect(detail.body.data).toEqual(rows[0]);
    expect(await logOf('admin', '&status=sent')).toHaveLength(2);
    expect(await logOf('admin', '&status=failed')).toHaveLength(0);
    const future = encodeURIComponent('2999-01-01 00:00:00');
    expect(await logOf('admin', `&createTime_dategt=${future}`)).toHaveLength(0);
    expect(await logOf('admin', `&createTime_datelt=${future}`)).toHaveLength(2);
  });

  it('sends through the HTTP provider: the body, the access key and the HMAC of the body under the secret', async () => {
    const added = await call('admin', 'POST', `${BASE}/submit`, httpConfig());
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.msg).toBe('新增成功');
    expect(added.body.data).toMatchObject({
      category: 'http',
      smsCode: 'yun',
      status: 1,
      secretKey: '******',
      endpoint,
    });
    expect(added.raw).not.toContain('first-secret');
    const id = added.body.data.id as string;
    for (const url of [`${BASE}/list`, `${BASE}/detail?id=${id}`]) {
      const r = await call('admin', 'GET', url);
      expect(r.raw).not.toContain('first-secret');
    }
    const stored = await inSystem(demo.t.database, (trx) =>
      sql<{
        s: string;
        by: string;
      }>`select secret_key as s, secret_key_wrapped_by as by from sms where id = ${id}`.execute(trx),
    );
    expect(stored.rows[0]?.s).not.toContain('first-secret');
    expect(stored.rows[0]?.by).toMatch(/^mk1-/);

    received.length = 0;
    const r = await send('admin', { code: 'yun', phones: '13900000001', params: '{"name":"小明"}' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(received).toHaveLength(1);
    const got = received[0] as { headers: IncomingHttpHeaders; body: string };
    expect(JSON.parse(got.body)).toEqual({
      phones: ['13900000001'],
      templateId: 'SMS_001',
      signName: '萌芽',
      params: { name: '小明' },
    });
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-sms-access-key']).toBe('ak-demo');
    expect(got.headers['x-sms-signature']).toBe(signBody('first-secret-of-the-provider', got.body));
    expect((await logOf('admin', '&phone=13900000001'))[0]).toMatchObject({ smsCode: 'yun', status: 'sent' });

    // A blank or masked secret on edit keeps the stored one; a new one replaces it.
    const kept = await call(
      'admin',
      'POST',
      `${BASE}/submit`,
      httpConfig({ id, secretKey: '', templateId: 'SMS_002' }),
    );
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body).toMatchObject({ msg: '修改成功', data: { templateId: 'SMS_002', secretKey: '******' } });
    // The mask the form shows, sent back unchanged, keeps it too.
    const masked = await call('admin', 'POST', `${BASE}/submit`, httpConfig({ id, secretKey: '******' }));
    expect(masked.status, JSON.stringify(masked.body)).toBe(200);
    expect(masked.raw).not.toContain('first-secret');
    await send('admin', { code: 'yun', phones: '13900000002' });
    expect(received[1]?.headers['x-sms-signature']).toBe(
      signBody('first-secret-of-the-provider', received[1]?.body ?? ''),
    );
    await call('admin', 'POST', `${BASE}/submit`, httpConfig({ id, secretKey: 'second-secret-of-the-provider' }));
    await send('admin', { code: 'yun', phones: '13900000003' });
    expect(received[2]?.headers['x-sms-signature']).toBe(
      signBody('second-secret-of-the-provider', received[2]?.body ?? ''),
    );
  });

  it('a provider’s error answer is a failed row with its reason, and a refusal saying it', async () => {
    answer = { status: 500, body: '{"message":"余额不足"}' };
    try {
      const r = await send('admin', { code: 'yun', phones: '13900000011,13900000012' });
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe('短信发送失败：HTTP 500: 余额不足');
      const en = await send('admin', { code: 'yun', phones: '13900000013' }, 'en');
      expect(en.body.msg).toBe('The message was not sent: HTTP 500: 余额不足');
    } finally {
      answer = { status: 200, body: '{}' };
    }
    const failed = await logOf('admin', '&status=failed');
    expect(failed.map((f) => f.phone).sort()).toEqual(['13900000011', '13900000012', '13900000013']);
    expect(failed[0]).toMatchObject({ smsCode: 'yun', reason: 'HTTP 500: 余额不足' });
    // A provider that cannot be reached fails too, with the reason.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const gone = await call(
      'admin',
      'POST',
      `${BASE}/submit`,
      httpConfig({ smsCode: 'gone', endpoint: `http://127.0.0.1:${port}/x` }),
    );
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    const r = await send('admin', { code: 'gone', phones: '13900000014' });
    expect(r.status).toBe(400);
    expect((await logOf('admin', '&phone=13900000014'))[0]).toMatchObject({ status: 'failed', reason: 'ECONNREFUSED' });
  });

  it('enables one configuration at a time; the enabled one cannot be removed', async () => {
    const list = async () =>
      Object.fromEntries(
        ((await call('admin', 'GET', `${BASE}/list`)).body.data.records as { smsCode: string; status: number }[]).map(
          (c) => [c.smsCode, c.status],
        ),
      );
    const ids = Object.fromEntries(
      ((await call('admin', 'GET', `${BASE}/list`)).body.data.records as { smsCode: string; id: string }[]).map((c) => [
        c.smsCode,
        c.id,
      ]),
    );
    const on = await call('admin', 'POST', `${BASE}/enable?id=${ids.yun}`);
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(await list()).toEqual({ 'demo-log': 1, gone: 1, yun: 2 });
    // Without a code, the enabled one sends.
    received.length = 0;
    expect((await send('admin', { phones: '13900000021' })).body.data.smsCode).toBe('yun');
    expect(received).toHaveLength(1);

    const refused = await call('admin', 'POST', `${BASE}/remove?ids=${ids.yun},${ids.gone}`);
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('已启用的短信配置不能删除：yun，请先启用其他配置');
    expect(Object.keys(await list())).toHaveLength(3);
    expect((await call('admin', 'POST', `${BASE}/enable?id=${ids['demo-log']}`)).status).toBe(200);
    expect((await call('admin', 'POST', `${BASE}/remove?ids=${ids.gone}`)).status).toBe(200);
    expect(await list()).toEqual({ 'demo-log': 2, yun: 1 });
    expect((await call('admin', 'POST', `${BASE}/enable?id=1234567890123`)).status).toBe(404);
    // Two enables at once: both answered, one after the other; one configuration ends enabled.
    const both = await Promise.all([
      call('admin', 'POST', `${BASE}/enable?id=${ids.yun}`),
      call('admin', 'POST', `${BASE}/enable?id=${ids['demo-log']}`),
    ]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(Object.values(await list()).sort()).toEqual([1, 2]);
    expect((await call('admin', 'POST', `${BASE}/enable?id=${ids['demo-log']}`)).status).toBe(200);
    const enabled = await inSystem(demo.t.database, (trx) =>
      sql<{
        n: number;
      }>`select count(*)::int as n from sms where tenant_id = '100001' and status = 2 and is_deleted = 0`.execute(trx),
    );
    expect(enabled.rows[0]?.n).toBe(1);
  });

  it('refuses bad input naming the fields, in Chinese and in English', async () => {
    const phones = await send('admin', { phones: '1380000000, abc,13800000009' });
    expect(phones.status).toBe(400);
    expect(phones.body.fields).toEqual([{ field: 'phones', message: '手机号格式不正确：1380000000, abc' }]);
    const params = await send('admin', { phones: '13800000009', params: '[1,2]' }, 'en');
    expect(params.body.fields).toEqual([
      { field: 'params', message: 'The parameters must be a JSON object, e.g. {"code":"1234"}' },
    ]);
    expect((await send('admin', { phones: ' ' })).body.fields).toEqual([{ field: 'phones', message: '请输入手机号' }]);
    expect((await send('admin', { phones: '13800000009', code: 'nope' })).body.msg).toBe('短信配置不存在：nope');
    // Nothing of these was logged.
    expect(await logOf('admin', '&phone=13800000009')).toHaveLength(0);

    const http = await call('admin', 'POST', `${BASE}/submit`, { category: 'http', smsCode: 'bad code' });
    expect(http.status).toBe(400);
    expect(http.body.fields).toEqual([
      { field: 'smsCode', message: '资源编号须为 1 至 64 个字母、数字、点、下划线或连字符' },
      { field: 'endpoint', message: '请输入服务地址' },
      { field: 'templateId', message: '请输入模板ID' },
      { field: 'accessKey', message: '请输入 accessKey' },
      { field: 'secretKey', message: '请输入 secretKey' },
    ]);
    const missing = await call('admin', 'POST', `${BASE}/submit`, httpConfig({ smsCode: 'h2', endpoint: 'ftp://x' }));
    expect(missing.body.fields).toEqual([{ field: 'endpoint', message: '服务地址须为 http 或 https 地址' }]);
    const needs = await call('admin', 'POST', `${BASE}/submit`, { category: 'http', smsCode: 'h2' }, 'en');
    expect(needs.body.fields).toEqual([
      { field: 'endpoint', message: 'Please enter the endpoint' },
      { field: 'templateId', message: 'Please enter the template id' },
      { field: 'accessKey', message: 'Please enter the access key' },
      { field: 'secretKey', message: 'Please enter the secret key' },
    ]);
    const category = await call('admin', 'POST', `${BASE}/submit`, { category: 'sms', smsCode: 'h2' });
    expect(category.body.fields).toEqual([{ field: 'category', message: '请选择短信服务商分类（log 或 http）' }]);
    const dup = await call('admin', 'POST', `${BASE}/submit`, { category: 'log', smsCode: 'demo-log' });
    expect(dup.status).toBe(400);
    expect(dup.body.msg).toBe('资源编号已存在：demo-log');
    // A log configuration turned into http without a secret names it.
    const log = await call('admin', 'POST', `${BASE}/submit`, { category: 'log', smsCode: 'plain' });
    const turned = await call(
      'admin',
      'POST',
      `${BASE}/submit`,
      httpConfig({ id: log.body.data.id, smsCode: 'plain', secretKey: '' }),
    );
    expect(turned.status).toBe(400);
    expect(turned.body.fields).toEqual([{ field: 'secretKey', message: '请输入 secretKey' }]);
  });

  it('keeps tenants apart: the platform sees none of the kindergarten’s configurations or messages', async () => {
    const mine = (await call('admin', 'GET', `${BASE}/list`)).body.data.records as { id: string; smsCode: string }[];
    const one = mine.find((c) => c.smsCode === 'demo-log') as { id: string };
    expect((await call('platform', 'GET', `${BASE}/list`)).body.data.total).toBe(0);
    expect((await call('platform', 'GET', `${BASE}/detail?id=${one.id}`)).status).toBe(404);
    expect((await call('platform', 'GET', `${BASE}/log/list`)).body.data.total).toBe(0);
    const row = (await logOf('admin'))[0] as { id: string };
    expect((await call('platform', 'GET', `${BASE}/log/detail?id=${row.id}`)).status).toBe(404);
    expect((await call('platform', 'POST', `${BASE}/enable?id=${one.id}`)).status).toBe(404);
    expect((await call('platform', 'POST', `${BASE}/remove?ids=${one.id}`)).status).toBe(400);
    const sent = await send('platform', { phones: '13700000001' });
    expect(sent.status).toBe(400);
    expect(sent.body.msg).toBe('没有已启用的短信配置，请先在短信配置中启用一个');
    expect((await send('platform', { phones: '13700000001', code: 'demo-log' })).body.msg).toBe(
      '短信配置不存在：demo-log',
    );
    // The kindergarten's configuration is as it was.
    expect((await call('admin', 'GET', `${BASE}/detail?id=${one.id}`)).body.data.status).toBe(2);
  });

  it('is the administrators’ screen: a teacher gets 403 on every call', async () => {
    const one = (await call('admin', 'GET', `${BASE}/list`)).body.data.records[0] as { id: string };
    for (const [method, url] of [
      ['GET', `${BASE}/list`],
      ['GET', `${BASE}/detail?id=${one.id}`],
      ['GET', `${BASE}/log/list`],
      ['POST', `${BASE}/submit?category=log&smsCode=teacher`],
      ['POST', `${BASE}/enable?id=${one.id}`],
      ['POST', `${BASE}/remove?ids=${one.id}`],
      ['POST', `${BASE}/endpoint/send-message?phones=13800000055`],
    ] as const) {
      const r = await call('teacher', method, url);
      expect(r.status, `${method} ${url}`).toBe(403);
    }
    expect(await logOf('admin', '&phone=13800000055')).toHaveLength(0);
  });

  it('limits a phone to one message a minute (then the day’s limit), counted before sending', async () => {
    expect((await send('admin', { phones: '13600000001' })).status).toBe(200);
    const again = await send('admin', { phones: '13600000002,13600000001' });
    expect(again.status).toBe(429);
    expect(again.body.msg).toBe('手机号 13600000001 每分钟最多发送 1 条短信，请稍后再试');
    // The refused batch sent nothing and counted nothing: 13600000002 still has its minute.
    expect(await logOf('admin', '&phone=13600000002')).toHaveLength(0);
    expect((await send('admin', { phones: '13600000002' })).status).toBe(200);

    await setParam('sms.limit.phonePerMinute', '100');
    await setParam('sms.limit.phonePerDay', '3');
    expect((await send('admin', { phones: '13600000001' })).status).toBe(200);
    expect((await send('admin', { phones: '13600000001' })).status).toBe(200);
    const day = await send('admin', { phones: '13600000001' }, 'en');
    expect(day.status).toBe(429);
    expect(day.body.msg).toBe('At most 3 messages a day to 13600000001: today’s limit is reached');
    expect(await logOf('admin', '&phone=13600000001')).toHaveLength(3);
  });

  it('limits the tenant’s messages a day, a batch refused whole', async () => {
    await demo.app.auth.kv.del('sms:limit:t:100001');
    await setParam('sms.limit.tenantPerDay', '3');
    expect((await send('admin', { phones: '13500000001,13500000002' })).status).toBe(200);
    const over = await send('admin', { phones: '13500000003,13500000004' });
    expect(over.status).toBe(429);
    expect(over.body.msg).toBe('本租户每天最多发送 3 条短信（今日已发送 2 条），今日已达上限');
    expect(await logOf('admin', '&phone=13500000003')).toHaveLength(0);
    expect((await send('admin', { phones: '13500000003' })).status).toBe(200);
    expect((await send('admin', { phones: '13500000004' })).status).toBe(429);
    // Another tenant counts on its own.
    const platform = await call('platform', 'POST', `${BASE}/submit`, { category: 'log', smsCode: 'p' });
    await call('platform', 'POST', `${BASE}/enable?id=${platform.body.data.id}`);
    expect((await send('platform', { phones: '13500000004' })).status).toBe(200);
  });
});
