import { createServer, type Server, type Socket, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '@sprout/core/db';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { addRole, addTenant, addUser, passwordGrant } from './modules/auth/fixtures';
import { bladeAuth, type FastifyInstance, testApp, testConfig } from './testing';

/**
 * Issue 22, "while PostgreSQL restarts the api answers 500": the application reaches the
 * database through a TCP relay this test cuts (every connection reset, new ones refused) and
 * opens again on the same port — what a restart looks like from the application's side. While
 * it is cut, requests answer 503 with the spec's envelope, a message in the caller's language
 * and Retry-After, and readiness says not ready; once it is back, everything serves again.
 */
class Relay {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;
  constructor(
    private readonly host: string,
    private readonly target: number,
  ) {}

  async open() {
    const server = createServer((client) => {
      const upstream = connect(this.target, this.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => server.listen(this.port, '127.0.0.1', r));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Every relayed connection reset, the port closed (connects are refused). */
  async cut() {
    const server = this.server;
    this.server = undefined;
    const closed = new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    for (const s of this.sockets) s.resetAndDestroy();
    await closed;
  }
}

describe('the database unreachable (a PostgreSQL restart, seen through a relay that is cut)', () => {
  let t: TestDatabase;
  let relay: Relay;
  let database: Database;
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    t = await createTestDatabase(2);
    const url = new URL(t.url);
    relay = new Relay(url.hostname, Number(url.port || 5432));
    await relay.open();
    url.host = `127.0.0.1:${relay.port}`;
    database = await openDatabase({ url: url.toString(), poolSize: 3, waitTimeoutMs: 2000, statementTimeoutMs: 5000 });
    await seed(database, { demo: false });
    await addTenant(database, { tenant_id: '100001' });
    const roleId = await addRole(database, '100001', 'admin', '园长');
    const admin = await addUser(database, { tenantId: '100001', account: 'director', roleIds: [roleId] });
    ({ app } = await testApp(database, { config: testConfig() }));
    const signIn = await passwordGrant(app, admin);
    expect(signIn.statusCode).toBe(200);
    token = signIn.json().access_token;
  });
  afterAll(async () => {
    await app?.close();
    await relay?.cut();
    await database?.close().catch(() => undefined);
    await t?.drop();
  });

  const list = (lang = 'zh') =>
    app.inject({
      method: 'GET',
      url: '/api/blade-system/post/list?current=1&size=10',
      headers: { ...bladeAuth(token), 'accept-language': lang },
    });
  const ready = () => app.inject({ method: 'GET', url: '/api/ready' });

  it('answers 503 with Retry-After and the message in zh and en, readiness says not ready, then serves again', async () => {
    expect((await list()).statusCode).toBe(200);
    expect((await ready()).statusCode).toBe(200);

    await relay.cut();
    // The first requests meet the reset connections, the next ones a refused connect: each a 503.
    for (let i = 0; i < 5; i++) {
      const zh = await list();
      expect(zh.statusCode, zh.body).toBe(503);
      expect(zh.headers['retry-after']).toBe('2');
      expect(zh.json()).toMatchObject({
        code: 503,
        success: false,
        errorCode: 'unavailable',
        msg: '数据库暂时无法连接（可能正在重启），请稍后重试',
      });
    }
    const en = await list('en');
    expect(en.statusCode).toBe(503);
    expect(en.json().msg).toBe(
      'The database cannot be reached right now (it may be restarting); please try again shortly',
    );
    const notReady = await ready();
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json()).toMatchObject({ code: 503, success: false, data: { database: 'DOWN' } });

    await relay.open();
    expect((await list()).statusCode).toBe(200);
    expect((await ready()).statusCode).toBe(200);
  });
});
