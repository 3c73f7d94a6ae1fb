import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { bladeAuth, type FastifyInstance, testApp, testConfig } from '../../testing';
import { accessToken } from '../auth/fixtures';

/**
 * Every remove call with an id the caller cannot see — unknown, of another tenant, or outside
 * the caller's data scope — is a 400 naming those ids in the caller's language, and nothing
 * is removed: the known ids sent along stay (docs/API.md, "System calls").
 */
describe('remove calls refuse unknown ids with a 400 and remove nothing', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  const tokens: Record<string, string> = {};
  const UNKNOWN = '1234567890123';

  const signIn = (tenantId: string, username: string, password: string) =>
    accessToken(app, tenantId, username, password);

  /** The ids of live rows of a table in a tenant (as the owner, for test set-up and checks). */
  const live = async (table: string, tenantId: string, where = 'true') =>
    inSystem(t.database, async (trx) => {
      const { sql } = await import('kysely');
      const r = await sql<{ id: string }>`select id::text from ${sql.table(table)}
        where tenant_id = ${tenantId} and is_deleted = 0 and ${sql.raw(where)} order by id`.execute(trx);
      return r.rows.map((x) => x.id);
    });
  const liveRecords = async (kind: string, where = 'true') =>
    inSystem(t.database, async (trx) => {
      const { sql } = await import('kysely');
      const r = await sql<{ id: string }>`select id::text from record_list
        where tenant_id = '100001' and kind = ${kind} and status <> 'deleted' and ${sql.raw(where)} order by id`.execute(
        trx,
      );
      return r.rows.map((x) => x.id);
    });

  const remove = async (who: string, url: string, lang: 'zh' | 'en' = 'zh') => {
    const r = await app.inject({
      method: 'POST',
      url,
      headers: { ...bladeAuth(tokens[who] as string), 'accept-language': lang },
    });
    return { status: r.statusCode, body: r.json() };
  };

  /** Sends `known` with the ids that must be refused: 400 naming exactly those, `known` stays. */
  const refuses = async (
    who: string,
    path: string,
    known: string,
    refused: string[],
    stillThere: () => Promise<string[]>,
  ) => {
    const r = await remove(who, `${path}?ids=${[known, ...refused].join(',')}`);
    expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(400);
    expect(r.body.success).toBe(false);
    expect(r.body.msg).toBe(`以下编号不存在或不在您的数据权限内，未删除任何数据：${refused.join(',')}`);
    expect(await stillThere()).toContain(known);
  };

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    ({ app } = await testApp(t.database, { config: testConfig() }));
    tokens.platform = await signIn('000000', 'admin', 'admin');
    tokens.admin = await signIn('100001', 'admin', 'sprout123');
    tokens.teacher1 = await signIn('100001', 'teacher1', 'sprout123');
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('roles, posts, departments, users: unknown and other-tenant ids', async () => {
    const platformRole = (await live('role', '000000'))[0] as string;
    const role = (await live('role', '100001', "role_alias = 'auditor'"))[0] as string;
    await refuses('admin', '/api/blade-system/role/remove', role, [UNKNOWN, platformRole], () =>
      live('role', '100001'),
    );
    const post = (await live('post', '100001'))[0] as string;
    await refuses('admin', '/api/blade-system/post/remove', post, [UNKNOWN], () => live('post', '100001'));
    const dept = (await live('dept', '100001', "dept_name = '大班组'"))[0] as string;
    await refuses('admin', '/api/blade-system/dept/remove', dept, [UNKNOWN], () => live('dept', '100001'));
    const user = (await live('app_user', '100001', "account = 'caregiver'"))[0] as string;
    const platformUser = (await live('app_user', '000000'))[0] as string;
    await refuses('admin', '/api/blade-user/remove', user, [platformUser], () => live('app_user', '100001'));
  });

  it('the catalogue (platform): menus, top menus, data scopes, API scopes, and tenants', async () => {
    const leaf = (await live('menu', '000000', "category = 2 and code = 'notice_view'"))[0] as string;
    await refuses('platform', '/api/blade-system/menu/remove', leaf, [UNKNOWN], () => live('menu', '000000'));
    const top = (await live('top_menu', '000000'))[0] as string;
    await refuses('platform', '/api/blade-system/topmenu/remove', top, [UNKNOWN], () => live('top_menu', '000000'));
    const ds = (await live('scope_data', '000000'))[0] as string;
    await refuses('platform', '/api/blade-system/data-scope/remove', ds, [UNKNOWN], () => live('scope_data', '000000'));
    const as = (await live('scope_api', '000000'))[0] as string;
    await refuses('platform', '/api/blade-system/api-scope/remove', as, [UNKNOWN], () => live('scope_api', '000000'));
    const r = await remove('platform', '/api/blade-system/tenant/remove?ids=100001,999999');
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain('999999');
    const tenants = await inSystem(t.database, (trx) =>
      trx.selectFrom('tenant').select('tenant_id').where('is_deleted', '=', 0).execute(),
    );
    expect(tenants.map((x) => x.tenant_id)).toContain('100001');
  });

  it('classes and children: unknown ids, in either language', async () => {
    const [clazz] = await live('clazz', '100001', "name = '小一班'");
    await refuses('admin', '/api/clazz/classinfo/remove', clazz as string, [UNKNOWN], () => live('clazz', '100001'));
    const child = (await live('student', '100001'))[0] as string;
    await refuses('admin', '/api/student/student/removeStudent', child, [UNKNOWN], () => live('student', '100001'));
    const en = await remove('admin', `/api/student/student/removeStudent?ids=${child},${UNKNOWN}`, 'en');
    expect(en.status).toBe(400);
    expect(en.body.msg).toBe(`No such records, or outside your data scope (nothing was deleted): ${UNKNOWN}`);
    // Classes and children also take `id`.
    const one = await remove('admin', `/api/clazz/classinfo/remove?id=${UNKNOWN}`);
    expect(one.status).toBe(400);
    // No id at all: a 400 naming ids, as every other remove answers.
    for (const path of ['/api/clazz/classinfo/remove?ids=', '/api/student/student/removeStudent?ids=,,']) {
      const none = await remove('admin', path);
      expect(none.status, path).toBe(400);
      expect(none.body.msg, path).toContain('ids');
    }
  });

  it('weeks, lesson plans and day plans: unknown ids refuse the whole remove', async () => {
    const drafts = await liveRecords(
      'week',
      "status = 'draft' and class_id = (select id from clazz where tenant_id = '100001' and name = '小一班')",
    );
    const week = drafts[0] as string;
    expect(week).toBeTruthy();
    await refuses('teacher1', '/api/week/week/remove', week, [UNKNOWN], () => liveRecords('week'));
    // A week of another class (teacher3's 中一班) is outside teacher1's scope: unknown to her.
    const [elsewhere] = await liveRecords(
      'week',
      "class_id = (select id from clazz where tenant_id = '100001' and name = '中一班')",
    );
    await refuses('teacher1', '/api/week/week/remove', week, [elsewhere as string], () => liveRecords('week'));
    const removeId = await app.inject({
      method: 'GET',
      url: `/api/week/week/removeId?id=${UNKNOWN}`,
      headers: bladeAuth(tokens.teacher1 as string),
    });
    expect(removeId.statusCode).toBe(400);
    // Lesson plans and day plans of teacher1's editable weeks.
    const editable = `parent_id in (select id from record_list where kind = 'week' and status in ('draft', 'returned')
      and class_id = (select id from clazz where tenant_id = '100001' and name = '小一班'))`;
    const plan = (await liveRecords('week_plan', editable))[0] as string;
    const day = (await liveRecords('day_plan', editable))[0] as string;
    expect(plan, 'a lesson plan of an editable week').toBeTruthy();
    expect(day, 'a day plan of an editable week').toBeTruthy();
    await refuses('teacher1', '/api/week_plan/weekplan/remove', plan, [UNKNOWN], () => liveRecords('week_plan'));
    await refuses('teacher1', '/api/half_plan/halfplan/remove', day, [UNKNOWN], () => liveRecords('day_plan'));
    const template = await app.inject({
      method: 'GET',
      url: `/api/t_week_template/template/deletedById?id=${UNKNOWN}`,
      headers: bladeAuth(tokens.teacher1 as string),
    });
    expect(template.statusCode).toBe(400);
    expect(template.json().msg).toContain(UNKNOWN);
    // With known ids only, the remove goes through.
    const ok = await remove('teacher1', `/api/week/week/remove?ids=${week}`);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await liveRecords('week')).not.toContain(week);
  });
});
