import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { SECRET_MASK } from '@sprout/contracts';
import { closeDataSources } from '@sprout/core/datasource/sources';
import { type Database, inSystem, openDatabase, tenantRouter } from '@sprout/core/db';
import { adminQuery } from '@sprout/core/testing/pg';
import { testPostgresUrl } from '@sprout/core/testing/services';
import { accessToken } from '../auth/fixtures';
import { useDemoConsole } from '../auth/console-fixture';

/**
 * Data sources (/api/blade-develop/datasource) and the tenant binding that moves a tenant's
 * data (/api/blade-system/tenant/datasource), on two databases of the local server: every
 * call, the connection test's reasons, the password never answered, the platform only, and
 * the demo kindergarten moved and brought back with its lists answering the same.
 */
describe('data sources and a tenant on its own database', () => {
  const demo = useDemoConsole();
  const { call, refused } = demo;
  const BASE = '/api/blade-develop/datasource';
  const made: string[] = [];
  const opened: Database[] = [];

  const admin = adminQuery;
  const urlOf = async (name: string) => {
    const u = new URL(await testPostgresUrl());
    u.pathname = `/${name}`;
    return u.toString();
  };
  /** An empty database on the local server, and its URL as BladeX writes it. */
  async function emptyDatabase() {
    const name = `sprout_ds_${randomBytes(4).toString('hex')}`;
    await admin(`create database ${name}`);
    made.push(name);
    const u = new URL(await testPostgresUrl());
    return { name, jdbc: `jdbc:postgresql://${u.hostname}:${u.port || 5432}/${name}`, user: u.username || 'postgres' };
  }
  afterAll(async () => {
    await closeDataSources(demo.t.database);
    for (const d of opened) await d.close().catch(() => undefined);
    for (const n of made) await admin(`drop database if exists ${n} with (force)`).catch(() => undefined);
  });

  const count = (database: Database, table: string, tenantId: string) =>
    inSystem(database, async (trx) => {
      const r = await sql<{
        n: number;
      }>`select count(*)::int as n from ${sql.table(table)} where tenant_id = ${tenantId}`.execute(trx);
      return r.rows[0]?.n ?? 0;
    });
  const waitForMove = async (id: string) => {
    await expect
      .poll(
        async () =>
          (await call('platform', 'GET', `/api/blade-system/tenant/datasource/progress?id=${id}`)).body.data.phase,
        {
          timeout: 60_000,
        },
      )
      .toMatch(/^(done|failed)$/);
    return (await call('platform', 'GET', `/api/blade-system/tenant/datasource/progress?id=${id}`)).body.data;
  };

  let target: Awaited<ReturnType<typeof emptyDatabase>>;
  let dsId = '';

  it('tests the connection on save: the server’s reason, nothing stored', async () => {
    target = await emptyDatabase();
    const down = await refused('platform', `${BASE}/submit`, {
      name: '集团二号库',
      url: 'jdbc:postgresql://127.0.0.1:1/nowhere',
      username: 'postgres',
    });
    expect(down).toEqual([{ field: 'url', message: expect.stringMatching(/^无法连接数据源：.*ECONNREFUSED/) }]);
    const noDb = await call(
      'platform',
      'POST',
      `${BASE}/submit`,
      { name: '集团二号库', url: `${target.jdbc}_missing`, username: target.user },
      'en',
    );
    expect(noDb.status).toBe(400);
    expect(noDb.body.fields).toEqual([
      { field: 'url', message: `Cannot connect to the data source: database "${target.name}_missing" does not exist` },
    ]);
    expect(await refused('platform', `${BASE}/submit`, { name: ' ', url: 'mysql://x/y', username: '' })).toEqual([
      { field: 'name', message: '请输入数据源名称' },
      { field: 'url', message: expect.stringContaining('连接地址须为 PostgreSQL 地址') },
      { field: 'username', message: '请输入用户名（至多 100 个字符）' },
    ]);
    // A user inside the URL is refused: it has its own field.
    expect(
      (await refused('platform', `${BASE}/submit`, { name: 'x', url: 'postgresql://u:p@h/db', username: 'u' }))[0]
        ?.field,
    ).toBe('url');
    expect((await call('platform', 'GET', `${BASE}/list`)).body.data.total).toBe(0);
  });

  it('adds, reads, updates and lists a data source; the password wrapped and never answered', async () => {
    const added = await call('platform', 'POST', `${BASE}/submit`, {
      name: '集团二号库',
      url: target.jdbc,
      username: target.user,
      password: 'pg-secret-1',
      remark: '第二台服务器',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.msg).toBe('新增成功');
    dsId = added.body.data.id;
    expect(added.body.data).toMatchObject({
      name: '集团二号库',
      driverClass: 'org.postgresql.Driver',
      url: target.jdbc,
      username: target.user,
      password: SECRET_MASK,
      remark: '第二台服务器',
    });
    expect(added.raw).not.toContain('pg-secret-1');
    const stored = await inSystem(demo.t.database, (trx) =>
      sql<{
        secret_key: string;
        secret_key_wrapped_by: string;
      }>`select secret_key, secret_key_wrapped_by from datasource where id = ${dsId}`.execute(trx),
    );
    expect(stored.rows[0]?.secret_key).not.toContain('pg-secret-1');
    expect(stored.rows[0]?.secret_key_wrapped_by).toBeTruthy();
    // Edit with the mask: the password stays.
    const edited = await call('platform', 'POST', `${BASE}/submit`, { ...added.body.data, remark: '扩容' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const again = await inSystem(demo.t.database, (trx) =>
      sql<{ secret_key: string }>`select secret_key from datasource where id = ${dsId}`.execute(trx),
    );
    expect(again.rows[0]?.secret_key).toBe(stored.rows[0]?.secret_key);
    const detail = await call('platform', 'GET', `${BASE}/detail?id=${dsId}`);
    expect(detail.body.data).toMatchObject({ id: dsId, remark: '扩容', password: SECRET_MASK });
    const list = await call('platform', 'GET', `${BASE}/list?name=二号`);
    expect(list.body.data.records.map((r: { id: string }) => r.id)).toEqual([dsId]);
    expect(
      (await refused('platform', `${BASE}/submit`, { name: '集团二号库', url: target.jdbc, username: target.user }))[0],
    ).toEqual({ field: 'name', message: '数据源名称已存在：集团二号库' });
  });

  it('is the platform’s alone: a kindergarten’s administrator can neither read nor bind', async () => {
    expect((await call('admin', 'GET', `${BASE}/list`)).status).toBe(403);
    expect((await call('admin', 'POST', `${BASE}/submit`, { name: 'x', url: target.jdbc, username: 'x' })).status).toBe(
      403,
    );
    expect(
      (await call('admin', 'POST', `/api/blade-system/tenant/datasource?tenantId=100001&datasourceId=${dsId}`)).status,
    ).toBe(403);
  });

  it('moves the demo kindergarten onto its data source and back: its lists answer the same, served from one database at a time', async () => {
    const lists = async () => {
      const users = await call('admin', 'GET', '/api/blade-user/page?size=100');
      const depts = await call('admin', 'GET', '/api/blade-system/dept/tree');
      const params = await call('admin', 'GET', '/api/blade-system/param/list?size=100');
      const menus = await call('teacher', 'GET', '/api/blade-system/menu/routes');
      for (const r of [users, depts, params, menus]) expect(r.status, r.raw).toBe(200);
      return [users.body.data, depts.body.data, params.body.data, menus.body.data];
    };
    const before = await lists();
    const usersOnMain = await count(demo.t.database, 'app_user', '100001');
    expect(usersOnMain).toBeGreaterThan(3);

    const bind = await call(
      'platform',
      'POST',
      `/api/blade-system/tenant/datasource?tenantId=100001&datasourceId=${dsId}`,
    );
    expect(bind.status, bind.raw).toBe(200);
    expect(bind.body.msg).toBe('已开始迁移租户数据');
    const move = await waitForMove(bind.body.data.id);
    expect(move, move.error).toMatchObject({ tenantId: '100001', datasourceId: dsId, phase: 'done', error: null });
    expect(move.done).toBe(move.total);

    const second = await openDatabase({ url: await urlOf(target.name), poolSize: 2 });
    opened.push(second);
    expect(await count(second, 'app_user', '100001')).toBe(usersOnMain);
    expect(await count(demo.t.database, 'app_user', '100001')).toBe(0);
    // The other tenants stay: the platform's users are on the main database only.
    expect(await count(demo.t.database, 'app_user', '000000')).toBeGreaterThan(0);
    expect(await count(second, 'app_user', '000000')).toBe(0);
    expect(await lists()).toEqual(before);
    // A new sign-in of the kindergarten is served from its database.
    expect(await accessToken(demo.app, '100001', 'principal', 'sprout123')).toBeTruthy();
    const detail = await call('platform', 'GET', '/api/blade-system/tenant/detail?tenantId=100001');
    expect(detail.body.data.datasourceId).toBe(dsId);

    // In use: neither removed nor re-pointed.
    const rm = await call('platform', 'POST', `${BASE}/remove?ids=${dsId}`);
    expect(rm.status).toBe(400);
    expect(rm.body.msg).toBe('数据源 集团二号库 正在为租户 100001 提供服务，不能删除；请先把租户迁出');
    const again = await call(
      'platform',
      'POST',
      `/api/blade-system/tenant/datasource?tenantId=100001&datasourceId=${dsId}`,
      undefined,
      'en',
    );
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe('Tenant 100001 is already on that data source');

    // Back home (empty datasourceId): the same job in the other direction.
    const home = await call('platform', 'POST', '/api/blade-system/tenant/datasource?tenantId=100001&datasourceId=');
    expect(home.status, home.raw).toBe(200);
    const back = await waitForMove(home.body.data.id);
    expect(back, back.error).toMatchObject({ phase: 'done', datasourceId: '', error: null });
    expect(tenantRouter(demo.app.database).databaseOf('100001')).toBe(demo.t.database);
    expect(await count(demo.t.database, 'app_user', '100001')).toBe(usersOnMain);
    expect(await count(second, 'app_user', '100001')).toBe(0);
    expect(await lists()).toEqual(before);
    expect((await call('platform', 'POST', `${BASE}/remove?ids=${dsId}`)).status).toBe(200);
  }, 180_000);

  it('refuses a binding to an unknown data source or one of another schema version, moving nothing', async () => {
    const unknown = await call(
      'platform',
      'POST',
      '/api/blade-system/tenant/datasource?tenantId=100001&datasourceId=42',
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toBe('数据源不存在：42');
    const other = await emptyDatabase();
    const c = new pg.Client({ connectionString: await urlOf(other.name) });
    await c.connect();
    await c.query('create table kysely_migration (name varchar(255) primary key, timestamp varchar(255) not null)');
    await c.query(`insert into kysely_migration values ('20200101_0001_theirs', 'x')`);
    await c.end();
    const added = await call('platform', 'POST', `${BASE}/submit`, {
      name: '旧版本库',
      url: other.jdbc,
      username: other.user,
    });
    expect(added.status, added.raw).toBe(200);
    const wrong = await call(
      'platform',
      'POST',
      `/api/blade-system/tenant/datasource?tenantId=100001&datasourceId=${added.body.data.id}`,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toMatch(/^数据源的数据库结构版本不符：它在 20200101_0001_theirs，本平台在 \d{8}_\d{4}_/);
    expect(tenantRouter(demo.app.database).databaseOf('100001')).toBe(demo.t.database);
    expect((await call('admin', 'GET', '/api/blade-user/page?size=10')).status).toBe(200);
  });
});
