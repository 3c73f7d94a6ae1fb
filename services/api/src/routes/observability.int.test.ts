import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { createLogger, instrumentedHandler } from '@sprout/core/observability';
import { MemoryQueue } from '@sprout/core/queue';
import { BullQueue } from '@sprout/core/queue/bullmq';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { testRedisUrl } from '@sprout/core/testing/services';
import { buildApp } from '../app';
import { bladeAuth, type FastifyInstance, testConfig, tokenFor, userWithRole } from '../testing';
import { startWorkerHttp } from './worker-http';

const TOKEN = `m-${randomBytes(12).toString('hex')}`;
const INSIDE = '10.1.2.3';
const OUTSIDE = '203.0.113.7';

/** The value of one series in Prometheus text (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inner = line.slice(name.length + 1, line.lastIndexOf('}'));
    if (Object.entries(labels).every(([k, v]) => inner.includes(`${k}="${v}"`)))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

/** A JSON-lines sink the job log writes to. */
function lines() {
  const out: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n').filter(Boolean)) out.push(JSON.parse(l));
      cb();
    },
  });
  return { out, stream };
}

describe('observability: /metrics, request ids into jobs, the queue board', () => {
  let t: TestDatabase;
  let bull: BullQueue;
  let memory: MemoryQueue;
  let server: FastifyInstance; // server mode: BullMQ, METRICS_TOKEN set
  let embedded: FastifyInstance; // in-process queue, no METRICS_TOKEN
  const config = testConfig({ METRICS_TOKEN: TOKEN });
  const noToken = testConfig({ JWT_SECRET: config.JWT_SECRET });
  let teacher: string;
  let platformAdmin: string;

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: false });
    bull = new BullQueue(await testRedisUrl(), `t${randomBytes(4).toString('hex')}`);
    memory = new MemoryQueue();
    // A route that queues a job, as an export does.
    const queuing = async (app: FastifyInstance) => {
      app.post('/api/test-queue', { config: { public: true } }, async () => ({
        id: await app.queue.enqueue('t.echo', { n: 1 }),
      }));
    };
    server = await buildApp(config, { database: t.database, queue: bull, fastify: { logger: false } });
    embedded = await buildApp(noToken, {
      database: t.database,
      queue: memory,
      fastify: { logger: false },
      plugins: [queuing],
    });
    await Promise.all([server.ready(), embedded.ready()]);
    teacher = (await userWithRole(t.database, config, '100001', 'teacher')).token;
    const adminId = await inSystem(t.database, async (trx) =>
      String(
        (
          await trx
            .selectFrom('app_user')
            .select('id')
            .where('tenant_id', '=', '000000')
            .where('account', '=', 'admin')
            .executeTakeFirstOrThrow()
        ).id,
      ),
    );
    platformAdmin = tokenFor(config, { tenant_id: '000000', user_id: adminId, roles: ['administrator'] });
  });
  afterAll(async () => {
    await server?.close();
    await embedded?.close();
    await bull?.close();
    await memory?.close();
    await t?.drop();
  });

  const scrape = (app: FastifyInstance, remoteAddress: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });

  it('refuses /metrics when no METRICS_TOKEN is configured, even from inside with a token', async () => {
    const r = await scrape(embedded, INSIDE, { authorization: `Bearer ${TOKEN}`, 'accept-language': 'en' });
    expect(r.statusCode).toBe(403);
    expect(r.json().msg).toMatch(/no METRICS_TOKEN/);
    const zh = await scrape(embedded, '127.0.0.1', { authorization: `Bearer ${TOKEN}`, 'accept-language': 'zh-CN' });
    expect(zh.statusCode).toBe(403);
    expect(zh.json().msg).toContain('未配置监控令牌');
    expect(zh.body).not.toContain('sprout_http_request_duration_seconds');
  });

  it('refuses /metrics from outside the internal network, through a proxy, or without the right token', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await scrape(server, OUTSIDE, auth)).statusCode).toBe(403);
    expect((await scrape(server, INSIDE, { ...auth, 'x-forwarded-for': OUTSIDE })).statusCode).toBe(403);
    expect((await scrape(server, INSIDE)).statusCode).toBe(401);
    expect((await scrape(server, INSIDE, { authorization: `Bearer ${TOKEN}x` })).statusCode).toBe(401);
    expect((await scrape(server, INSIDE, { authorization: 'Bearer wrong' })).statusCode).toBe(401);
  });

  it('serves Prometheus text to the internal network with the token; a request moves its route’s counter', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const before = await scrape(server, INSIDE, auth);
    expect(before.statusCode).toBe(200);
    expect(before.headers['content-type']).toMatch(/^text\/plain/);
    const series = { method: 'GET', route: '/api/ready', status_code: '200' };
    const n0 = sample(before.body, 'sprout_http_request_duration_seconds_count', series);
    expect((await server.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    const after = (await scrape(server, '::ffff:192.168.4.5', auth)).body;
    expect(sample(after, 'sprout_http_request_duration_seconds_count', series)).toBe(n0 + 1);
    // Route patterns, never raw URLs: an unknown path counts as one series.
    await server.inject({ method: 'GET', url: `/api/no-such-${randomBytes(3).toString('hex')}` });
    const third = (await scrape(server, INSIDE, auth)).body;
    expect(third).not.toMatch(/route="\/api\/no-such-/);
    expect(
      sample(third, 'sprout_http_request_duration_seconds_count', { route: 'unmatched', status_code: '404' }),
    ).toBeGreaterThan(0);
    // The database pool of this process, the other families named.
    expect(sample(third, 'sprout_db_pool_connections', { state: 'max' })).toBeGreaterThan(0);
    for (const name of [
      'sprout_events_appended_total',
      'sprout_job_duration_seconds',
      'sprout_projection_lag_events',
      'sprout_queue_jobs',
      'sprout_collab',
    ])
      expect(third).toContain(`# TYPE ${name} `);
  });

  it('a job logs the request id of the request that queued it', async () => {
    const { out, stream } = lines();
    const log = createLogger('info', stream);
    const seen: Array<string | undefined> = [];
    await memory.process(
      't.echo',
      instrumentedHandler('t.echo', async (job) => void seen.push(job.requestId), log),
    );
    const r = await embedded.inject({
      method: 'POST',
      url: '/api/test-queue',
      headers: { 'x-request-id': 'req-4711' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['x-request-id']).toBe('req-4711');
    await expect.poll(() => out.find((l) => l.msg === 'job done')).toBeTruthy();
    expect(seen).toEqual(['req-4711']);
    expect(out.find((l) => l.msg === 'job done')).toMatchObject({ requestId: 'req-4711', queue: 't.echo', level: 30 });
    // A request without one gets a fresh id, answered back; a hostile one is replaced.
    const fresh = await embedded.inject({
      method: 'POST',
      url: '/api/test-queue',
      headers: { 'x-request-id': 'a b/c' },
    });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(() => seen.length).toBe(2);
    expect(seen[1]).toBe(fresh.headers['x-request-id']);
  });

  it('the queue board: the platform administrator only, in server mode', async () => {
    const anon = await server.inject({ method: 'GET', url: '/api/admin/queues' });
    expect(anon.statusCode, anon.body).toBe(401);
    const asTeacher = await server.inject({ method: 'GET', url: '/api/admin/queues', headers: bladeAuth(teacher) });
    expect(asTeacher.statusCode).toBe(403);
    const teacherApi = await server.inject({
      method: 'GET',
      url: '/api/admin/queues/api/queues',
      headers: bladeAuth(teacher),
    });
    expect(teacherApi.statusCode).toBe(403);
    const page = await server.inject({ method: 'GET', url: '/api/admin/queues', headers: bladeAuth(platformAdmin) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const api = await server.inject({
      method: 'GET',
      url: '/api/admin/queues/api/queues',
      headers: bladeAuth(platformAdmin),
    });
    expect(api.statusCode).toBe(200);
    const names = (api.json() as { queues: Array<{ name: string }> }).queues.map((q) => q.name);
    expect(names).toContain('records.export');
    // Neither the board nor /metrics is part of the API's OpenAPI document (the security prober's list).
    const paths = Object.keys((server.swagger() as { paths: Record<string, unknown> }).paths);
    expect(paths.filter((x) => x.startsWith('/api/admin/queues') || x === '/metrics')).toEqual([]);
    expect(paths).toContain('/api/ready');
  });

  it("the queue board opens in a browser tab: the web app's access cookie, no header, the platform administrator only", async () => {
    const cookie = (token: string) => ({ cookie: `language=zh-CN; sprout-access-token=${encodeURIComponent(token)}` });
    const page = await server.inject({ method: 'GET', url: '/api/admin/queues', headers: cookie(platformAdmin) });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    // Its own JSON calls, as the page makes them (the cookie only).
    const api = await server.inject({
      method: 'GET',
      url: '/api/admin/queues/api/queues',
      headers: cookie(platformAdmin),
    });
    expect(api.statusCode).toBe(200);
    expect((api.json() as { queues: Array<{ name: string }> }).queues.map((q) => q.name)).toContain('records.export');
    expect(
      (await server.inject({ method: 'GET', url: '/api/admin/queues', headers: cookie(teacher) })).statusCode,
    ).toBe(403);
    expect(
      (await server.inject({ method: 'GET', url: '/api/admin/queues', headers: cookie('forged') })).statusCode,
    ).toBe(401);
    expect(
      (
        await server.inject({
          method: 'GET',
          url: '/api/admin/queues/api/queues',
          headers: { cookie: 'language=zh-CN' },
        })
      ).statusCode,
    ).toBe(401);
  });

  it("任务队列: each queue's depth, and the board's address for the platform administrator in server mode", async () => {
    const r = await server.inject({ method: 'GET', url: '/api/admin/queue-depth', headers: bladeAuth(platformAdmin) });
    expect(r.statusCode, r.body).toBe(200);
    const d = r.json().data as { mode: string; board: string | null; queues: Array<Record<string, unknown>> };
    expect(d.mode).toBe('bullmq');
    expect(d.board).toBe('/api/admin/queues');
    expect(d.queues.find((q) => q.name === 'records.export')).toMatchObject({ waiting: expect.any(Number), failed: 0 });
    expect(d.queues.map((q) => q.name)).toEqual(expect.arrayContaining(['flow-timer', 'attach-thumbnail']));
    const asTeacher = await server.inject({
      method: 'GET',
      url: '/api/admin/queue-depth',
      headers: bladeAuth(teacher),
    });
    expect(asTeacher.statusCode).toBe(403);
    const e = await embedded.inject({
      method: 'GET',
      url: '/api/admin/queue-depth',
      headers: bladeAuth(platformAdmin),
    });
    expect(e.statusCode, e.body).toBe(200);
    expect(e.json().data).toMatchObject({ mode: 'memory', board: null });
  });

  it('the queue board in embedded mode says it is not available (and still refuses a teacher)', async () => {
    const asTeacher = await embedded.inject({ method: 'GET', url: '/api/admin/queues', headers: bladeAuth(teacher) });
    expect(asTeacher.statusCode).toBe(403);
    const r = await embedded.inject({
      method: 'GET',
      url: '/api/admin/queues',
      headers: { ...bladeAuth(platformAdmin), 'accept-language': 'en' },
    });
    expect(r.statusCode).toBe(404);
    expect(r.json().msg).toMatch(/server mode only/);
  });

  it('a worker-only process serves /metrics and /api/health on its own port, by the same rule', async () => {
    const http = await startWorkerHttp({ ...config, PORT: 0, HOST: '127.0.0.1' }, t.database);
    try {
      const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
      expect((await fetch(`${base}/api/health`)).status).toBe(200);
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('sprout_job_duration_seconds');
      const proxied = await fetch(`${base}/metrics`, {
        headers: { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': OUTSIDE },
      });
      expect(proxied.status).toBe(403);
    } finally {
      await new Promise((r) => http.close(r));
    }
  });
});
