import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Database,
  type DB,
  inSystem,
  inTenant,
  openDatabase,
  readInTenant,
  StatementOutsideTransactionError,
} from '@sprout/core/db';
import { migrateToLatest } from '@sprout/core/db/migrate';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { addRole, addTenant, addUser, passwordGrant, type TestUser } from './modules/auth/fixtures';
import { bladeAuth, type FastifyInstance, testApp, testConfig } from './testing';

/**
 * Issue 14, "one ordinary request takes the platform down": post/detail held the tenant
 * transaction and sent its query on the root handle, which waited for the connection the
 * transaction held. Reproduced on both engines with one connection (PGlite has only one;
 * the PostgreSQL pool is given one): on the old code post/detail never answers.
 */
const BOUNDS = { waitTimeoutMs: 300, statementTimeoutMs: 1500 };

const engines: Array<[string, () => Promise<{ database: Database; done: () => Promise<void> }>]> = [
  [
    'embedded (PGlite)',
    async () => {
      const database = await openDatabase({ dataDir: 'memory://', ...BOUNDS });
      await migrateToLatest(database.db as never);
      return { database, done: () => database.close() };
    },
  ],
  [
    'server (PostgreSQL, a pool of one connection)',
    async () => {
      const t: TestDatabase = await createTestDatabase(1);
      const database = await openDatabase({ url: t.url, poolSize: 1, ...BOUNDS });
      return {
        database,
        done: async () => {
          await database.close();
          await t.drop();
        },
      };
    },
  ],
];

describe.each(engines)('database reliability, %s', (_name, open) => {
  let database: Database;
  let done: () => Promise<void>;
  let app: FastifyInstance;
  let admin: TestUser;
  let token: string;

  beforeAll(async () => {
    ({ database, done } = await open());
    await seed(database, { demo: false });
    await addTenant(database, { tenant_id: '100001' });
    const roleId = await addRole(database, '100001', 'admin', '园长');
    admin = await addUser(database, { tenantId: '100001', account: 'director', roleIds: [roleId] });
    ({ app } = await testApp(database, { config: testConfig() }));
  });
  afterAll(async () => {
    await app?.close();
    await done?.();
  });

  const get = (url: string, lang = 'zh') =>
    app.inject({ method: 'GET', url, headers: { ...bladeAuth(token), 'accept-language': lang } });

  it('post/detail as the kindergarten administrator answers, and sign-in and lists still answer after it', async () => {
    const signIn = await passwordGrant(app, admin);
    expect(signIn.statusCode).toBe(200);
    token = signIn.json().access_token;
    const added = await app.inject({
      method: 'POST',
      url: '/api/blade-system/post/submit',
      headers: bladeAuth(token),
      payload: { postCode: 'teacher', postName: '班主任', category: 3 },
    });
    expect(added.statusCode).toBe(200);
    const id = added.json().data.id;

    const detail = await get(`/api/blade-system/post/detail?id=${id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data).toMatchObject({ id, postCode: 'teacher', postName: '班主任' });

    // The platform still serves everybody: sign-in, lists, readiness.
    expect((await passwordGrant(app, admin)).statusCode).toBe(200);
    const list = await get('/api/blade-system/post/list?current=1&size=10');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.records.map((p: { postName: string }) => p.postName)).toEqual(['班主任']);
    const ready = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.json().data.checks.database).toBe('UP');
  });

  it('refuses at once a statement outside the open transaction, and leaves the connection usable', async () => {
    const ctx = { tenantId: '100001' };
    const outside = [
      // the post/detail bug: the root handle inside the request's transaction
      () => database.db.selectFrom('post').select('id').execute(),
      () => readInTenant(database, ctx, sql`select 1`.compile(database.db)),
      () => inSystem(database, (trx) => trx.selectFrom('tenant').select('tenant_id').execute()),
      () => inTenant(database, ctx, (trx) => trx.selectFrom('post').select('id').execute()),
    ];
    for (const statement of outside) {
      await expect(inTenant(database, ctx, () => statement())).rejects.toThrow(StatementOutsideTransactionError);
      await expect(inSystem(database, () => statement())).rejects.toThrow(
        "statement outside the request's transaction: use the trx you were given",
      );
    }
    // The transaction's own handle works; so does the root handle once the transaction is over,
    // even from work the transaction started and left running.
    let committed!: () => void;
    const afterCommit = new Promise<void>((r) => {
      committed = r;
    });
    let later: Promise<unknown> | undefined;
    const inside = await inTenant(database, ctx, async (trx: Kysely<DB>) => {
      later = afterCommit.then(() =>
        database.db.selectFrom('tenant').select('tenant_id').where('tenant_id', '=', '100001').execute(),
      );
      return trx.selectFrom('post').select('post_name').execute();
    });
    committed();
    expect(inside).toEqual([{ post_name: '班主任' }]);
    await expect(later).resolves.toEqual([{ tenant_id: '100001' }]);
    expect((await get('/api/blade-system/post/list?current=1&size=10')).statusCode).toBe(200);
  });

  it('a request that cannot get the database within the bound answers 503 in both languages, then all is served again', async () => {
    let finish!: () => void;
    const holding = database.db.connection().execute(async (conn) => {
      await sql`select 1`.execute(conn);
      // Busy: statements keep coming (never idle past the bound), so nothing takes the connection back.
      let stop = false;
      finish = () => {
        stop = true;
      };
      while (!stop) {
        await sql`select 1`.execute(conn);
        await new Promise<void>((r) => setImmediate(r));
      }
    });
    const zh = await get('/api/blade-system/post/list?current=1&size=10');
    expect(zh.statusCode).toBe(503);
    expect(zh.headers['retry-after']).toBe('1');
    expect(zh.json()).toMatchObject({
      code: 503,
      success: false,
      errorCode: 'unavailable',
      msg: '数据库繁忙，请稍后重试',
    });
    const en = await get('/api/blade-system/post/list?current=1&size=10', 'en');
    expect(en.json().msg).toBe('The database is busy; please try again shortly');

    // Turned away past every bound with no progress: the process reports it can no longer serve.
    let health = await app.inject({ method: 'GET', url: '/api/health' });
    while (health.statusCode === 200) {
      expect((await get('/api/blade-system/post/list?current=1&size=10')).statusCode).toBe(503);
      health = await app.inject({ method: 'GET', url: '/api/health' });
    }
    expect(health.statusCode).toBe(503);
    expect(health.json().data).toMatchObject({ status: 'DOWN', database: 'STALLED' });

    finish();
    await holding;
    expect((await get('/api/blade-system/post/list?current=1&size=10')).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/health' })).json().data).toEqual({ status: 'UP' });
  });

  it('a transaction left idle past the bound is rolled back and its connection given back', async () => {
    let resume!: () => void;
    const resumed = new Promise<void>((r) => {
      resume = r;
    });
    // A holder that opens a transaction, writes, then waits for something that does not come.
    const stuck = inTenant(database, { tenantId: '100001', userId: admin.id }, async (trx) => {
      await trx
        .updateTable('post')
        .set({ post_name: '已回滚' })
        .where('tenant_id', '=', '100001')
        .where('post_code', '=', 'teacher')
        .execute();
      await resumed;
      return trx.selectFrom('post').select('id').execute();
    });
    // Requests get 503 until the holder's connection is taken back, then they are served.
    let list = await get('/api/blade-system/post/list?current=1&size=10');
    while (list.statusCode === 503) list = await get('/api/blade-system/post/list?current=1&size=10');
    expect(list.statusCode).toBe(200);
    // Its write was rolled back; its later statements fail instead of running in someone else's turn.
    expect(list.json().data.records.map((p: { postName: string }) => p.postName)).toEqual(['班主任']);
    resume();
    await expect(stuck).rejects.toThrow();
    expect((await passwordGrant(app, admin)).statusCode).toBe(200);
  });
});
