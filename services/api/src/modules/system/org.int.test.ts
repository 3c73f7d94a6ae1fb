import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5 } from '@sprout/core/auth/password';
import { inSystem } from '@sprout/core/db';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { bladeAuth, clientBasic, type FastifyInstance, testApp, testConfig, fieldNames } from '../../testing';

/**
 * The organisation through the API, as administrators and teachers use it: tenants (a new
 * one works out of the box), users and their roles, departments, posts, classes, children.
 */
describe('tenants, users, departments, posts, classes and children', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  const tokens: Record<string, string> = {};
  const dept: Record<string, string> = {};
  const clazz: Record<string, string> = {};
  const userIds: Record<string, string> = {};

  const signIn = async (tenantId: string, username: string, password: string) =>
    app.inject({
      method: 'POST',
      url: `/api/blade-auth/oauth/token?${new URLSearchParams({ tenantId, username, password: md5(password), grant_type: 'password', scope: 'all' })}`,
      headers: { ...clientBasic(), 'tenant-id': tenantId },
    });
  const call = async (who: string, method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const r = await app.inject({
      method,
      url,
      headers: bladeAuth(tokens[who] ?? who),
      ...(payload ? { payload: payload as object } : {}),
    });
    return { status: r.statusCode, body: r.json() };
  };
  const total = async (who: string) => (await call(who, 'GET', '/api/student/student/listStudents')).body.data.total;

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    ({ app } = await testApp(t.database, { config: testConfig() }));
    for (const [who, tenantId, account, password] of [
      ['platform', '000000', 'admin', 'admin'],
      ['admin', '100001', 'admin', 'sprout123'],
      ['teacher1', '100001', 'teacher1', 'sprout123'],
      ['teacher3', '100001', 'teacher3', 'sprout123'],
      ['leader', '100001', 'leader', 'sprout123'],
      ['principal', '100001', 'principal', 'sprout123'],
    ] as const) {
      const r = await signIn(tenantId, account, password);
      expect(r.statusCode, `${account}: ${r.body}`).toBe(200);
      tokens[who] = r.json().access_token;
      userIds[who] = r.json().user_id;
    }
    await inSystem(t.database, async (trx) => {
      for (const d of await trx
        .selectFrom('dept')
        .select(['id', 'dept_name'])
        .where('tenant_id', '=', '100001')
        .execute())
        dept[d.dept_name] = String(d.id);
      for (const c of await trx.selectFrom('clazz').select(['id', 'name']).where('tenant_id', '=', '100001').execute())
        clazz[c.name] = String(c.id);
    });
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('every demo account signs in with sprout123', async () => {
    for (const account of ['admin', 'principal', 'reviewer', 'leader', 'teacher1', 'teacher2', 'teacher3', 'caregiver'])
      expect((await signIn('100001', account, 'sprout123')).statusCode, account).toBe(200);
  });

  it('a new tenant works out of the box: roles, posts, a root dept and an admin who signs in and sees the menus', async () => {
    const added = await call('platform', 'POST', '/api/blade-system/tenant/submit', {
      tenantName: '萌芽第三幼儿园',
      accountNumber: 5,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const { tenantId, adminAccount, adminPassword } = added.body.data;
    expect(adminAccount).toBe('admin');
    expect(adminPassword).toMatch(/^[A-Za-z0-9]{12}$/);
    const r = await signIn(tenantId, 'admin', adminPassword);
    expect(r.statusCode).toBe(200);
    tokens.newAdmin = r.json().access_token;
    const routes = await call('newAdmin', 'GET', '/api/blade-system/menu/routes');
    expect(JSON.stringify(routes.body.data)).toContain('"code":"role"');
    const roles = await call('newAdmin', 'GET', '/api/blade-system/role/list');
    expect(roles.body.data.map((x: { roleAlias: string }) => x.roleAlias)).toEqual([
      'admin',
      'principal',
      'reviewer',
      'leader',
      'teacher',
      'caregiver',
      'auditor',
    ]);
    const depts = await call('newAdmin', 'GET', '/api/blade-system/dept/tree');
    expect(depts.body.data).toMatchObject([{ title: '萌芽第三幼儿园', hasChildren: false }]);
    expect(depts.body.data[0]).not.toHaveProperty('children');
    const posts = await call('newAdmin', 'GET', '/api/blade-system/post/select');
    expect(posts.body.data.map((p: { postName: string }) => p.postName)).toContain('保育员');
    // The platform sets its licence and data source; the admin sees nothing of other tenants.
    expect(
      (await call('platform', 'POST', `/api/blade-system/tenant/setting?ids=${tenantId}&accountNumber=1`)).status,
    ).toBe(200);
    // A data source that does not exist is refused (binding moves data: datasource.int.test.ts).
    const bind = await call(
      'platform',
      'POST',
      `/api/blade-system/tenant/datasource?tenantId=${tenantId}&datasourceId=42`,
    );
    expect(bind.status).toBe(400);
    expect(bind.body.msg).toBe('数据源不存在：42');
    const detail = await call('platform', 'GET', `/api/blade-system/tenant/detail?tenantId=${tenantId}`);
    expect(detail.body.data).toMatchObject({ tenantName: '萌芽第三幼儿园', accountNumber: 1, datasourceId: '' });
    const users = await call('newAdmin', 'GET', '/api/blade-user/page?size=100');
    expect(users.body.data.records.map((u: { account: string }) => u.account)).toEqual(['admin']);
    // Over its quota now (1 account): a second user is refused.
    const second = await call('newAdmin', 'POST', '/api/blade-user/submit', {
      account: 'two',
      password: 'x1',
      realName: '二号',
    });
    expect(second.status).toBe(400);
    expect(second.body.msg).toBe('租户账号数量已超出授权额度，请联系管理员');
    // Removed: its tokens stop working and nobody signs in.
    expect((await call('platform', 'POST', `/api/blade-system/tenant/remove?ids=${tenantId}`)).status).toBe(200);
    expect((await call('newAdmin', 'GET', '/api/blade-user/info')).status).toBe(401);
    expect((await signIn(tenantId, 'admin', adminPassword)).statusCode).toBe(400);
    const platformItself = await call('platform', 'POST', '/api/blade-system/tenant/remove?ids=000000');
    expect(platformItself.body.msg).toBe('平台租户不能删除');
  });

  it('users: add with roles, dept and post; the new user signs in with what they were given', async () => {
    const posts = await call('admin', 'GET', '/api/blade-system/post/select');
    const post = posts.body.data.find((p: { postCode: string }) => p.postCode === 'assistant_teacher').id;
    const roles = await call('admin', 'GET', '/api/blade-system/role/tree');
    const teacherRole = roles.body.data.find((r: { title: string }) => r.title === '教师').id;
    const added = await call('admin', 'POST', '/api/blade-user/submit', {
      account: 'teacher4',
      password: 'spring2026',
      realName: '钱老师',
      phone: '13912345678',
      deptId: dept.大班组,
      postId: post,
      roleId: teacherRole,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body).toMatchObject({
      msg: '新增成功',
      data: { account: 'teacher4', deptName: '大班组', postName: '配班教师', roleName: '教师' },
    });
    const r = await signIn('100001', 'teacher4', 'spring2026');
    expect(r.statusCode).toBe(200);
    tokens.teacher4 = r.json().access_token;
    userIds.teacher4 = r.json().user_id;
    expect(JSON.stringify((await call('teacher4', 'GET', '/api/blade-system/menu/routes')).body.data)).toContain(
      'week_mine',
    );
    // Nobody's classes yet: no children.
    expect(await total('teacher4')).toBe(0);

    const dup = await call('admin', 'POST', '/api/blade-user/submit', {
      account: 'teacher4',
      password: 'x',
      realName: '重名',
    });
    expect(dup.body.msg).toBe('账号已存在');
    const bad = await call('admin', 'POST', '/api/blade-user/submit', { account: 'x y', realName: '', phone: '123' });
    expect(bad.status).toBe(400);
    expect(fieldNames(bad.body)).toEqual(['account', 'password', 'phone', 'realName']);
    const unknownRole = await call('admin', 'POST', '/api/blade-user/submit', {
      account: 'teacher5',
      password: 'x',
      realName: '孙',
      roleId: '123',
    });
    expect(unknownRole.body.msg).toBe('角色不存在：123');
    expect((await call('admin', 'GET', '/api/blade-user/page?account=teacher5')).body.data.total).toBe(0);

    // The dept filter covers the dept and those below it.
    const inCampus = await call('admin', 'GET', `/api/blade-user/page?deptId=${dept.萌芽实验幼儿园}&size=100`);
    expect(inCampus.body.data.total).toBe(10);
    const inXiao = await call('admin', 'GET', `/api/blade-user/page?deptId=${dept.小班组}&size=100`);
    expect(inXiao.body.data.records.map((u: { account: string }) => u.account).sort()).toEqual([
      'caregiver',
      'leader',
      'teacher1',
      'teacher2',
    ]);
  });

  it('users: reset a password (shown once; sessions end), remove (never oneself)', async () => {
    const reset = await call('admin', 'POST', `/api/blade-user/reset-password?userIds=${userIds.teacher4}`);
    expect(reset.status).toBe(200);
    expect(reset.body.msg).toBe('密码已重置');
    const [{ account, password }] = reset.body.data;
    expect(account).toBe('teacher4');
    expect((await call('teacher4', 'GET', '/api/blade-user/info')).status).toBe(401);
    expect((await signIn('100001', 'teacher4', 'spring2026')).statusCode).toBe(400);
    expect((await signIn('100001', 'teacher4', password)).statusCode).toBe(200);
    const self = await call('admin', 'POST', `/api/blade-user/remove?ids=${userIds.admin}`);
    expect(self.body.msg).toBe('不能删除当前登录的用户');
    expect((await call('admin', 'POST', `/api/blade-user/remove?ids=${userIds.teacher4}`)).status).toBe(200);
    expect((await signIn('100001', 'teacher4', password)).statusCode).toBe(400);
    expect((await call('admin', 'GET', `/api/blade-user/detail?id=${userIds.teacher4}`)).status).toBe(404);
  });

  it('a class change is a scope change: a teacher added to a class sees its children on the next request', async () => {
    expect(await total('teacher3')).toBe(25);
    const big = (await call('admin', 'GET', `/api/clazz/classinfo/detail?id=${clazz.大一班}`)).body.data;
    const updated = await call('admin', 'POST', '/api/clazz/classinfo/submit', {
      ...big,
      headTeacherId: userIds.teacher3,
      teacherIds: [],
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data).toMatchObject({
      headTeacherName: '赵丽',
      teacherIds: [userIds.teacher3],
      studentCount: 25,
    });
    expect(await total('teacher3')).toBe(50);
    const mine = await call('teacher3', 'GET', '/api/clazz/classinfo/classListForUser');
    expect(mine.body.data.map((c: { name: string }) => c.name).sort()).toEqual(['中一班', '大一班']);
    // Validation and conflicts.
    const bad = await call('admin', 'POST', '/api/clazz/classinfo/submit', {
      name: '',
      grade: 7,
      schoolYear: '2026-2028',
    });
    expect(fieldNames(bad.body)).toEqual(['grade', 'name', 'schoolYear']);
    const dup = await call('admin', 'POST', '/api/clazz/classinfo/submit', {
      name: '小一班',
      grade: 2,
      schoolYear: '2026-2027',
    });
    expect(dup.body.msg).toBe('该学年已有同名班级：小一班');
    const busy = await call('admin', 'POST', `/api/clazz/classinfo/remove?id=${clazz.大一班}`);
    expect(busy.body.msg).toBe('班级下还有幼儿，不能删除：大一班');
    // A teacher may not change a class, even her own.
    expect((await call('teacher3', 'POST', '/api/clazz/classinfo/submit', { ...big, room: '999' })).status).toBe(403);
  });

  it('a dept move is a scope change: the grade leader’s “dept and below” follows the tree', async () => {
    expect(await total('leader')).toBe(50);
    const zhong = (await call('admin', 'GET', `/api/blade-system/dept/detail?id=${dept.中班组}`)).body.data;
    const moved = await call('admin', 'POST', '/api/blade-system/dept/submit', { ...zhong, parentId: dept.小班组 });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data.ancestors).toBe(`0,${dept.萌芽实验幼儿园},${dept.小班组}`);
    expect(await total('leader')).toBe(75);
    const leaderDepts = await call('leader', 'GET', '/api/blade-system/dept/list');
    expect(leaderDepts.status).toBe(403);
    const tree = await call('principal', 'GET', '/api/blade-system/dept/list');
    const xiao = tree.body.data[0].children.find((d: { deptName: string }) => d.deptName === '小班组');
    expect(xiao.children.map((d: { deptName: string }) => d.deptName)).toEqual(['中班组']);
    // Back again; a dept with users or classes is not removed.
    await call('admin', 'POST', '/api/blade-system/dept/submit', { ...zhong, parentId: dept.萌芽实验幼儿园 });
    expect(await total('leader')).toBe(50);
    const used = await call('admin', 'POST', `/api/blade-system/dept/remove?ids=${dept.中班组}`);
    expect(used.body.msg).toBe('机构下还有用户或班级，不能删除：中班组');
    const busy = await call('admin', 'POST', `/api/blade-system/dept/remove?ids=${dept.萌芽实验幼儿园}`);
    expect(busy.body.msg).toMatch(/^请先删除下级机构：/);
  });

  it('children: a teacher adds and edits children of her own classes only', async () => {
    const added = await call('teacher1', 'POST', '/api/student/student/saveStudent', {
      name: '周小雨',
      gender: 2,
      birthDate: '2023-01-15',
      classId: clazz.小一班,
      guardianName: '周建国',
      guardianPhone: '13800001111',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.data).toMatchObject({
      name: '周小雨',
      className: '小一班',
      birthDate: '2023-01-15',
      deptId: dept.小班组,
    });
    const other = await call('teacher1', 'POST', '/api/student/student/saveStudent', {
      name: '越界',
      gender: 1,
      classId: clazz.中一班,
    });
    expect(other.status).toBe(400);
    expect(other.body.msg).toBe('所选数据不在您的数据权限内');
    const edited = await call('teacher1', 'POST', '/api/student/student/updateStudent', {
      ...added.body.data,
      notes: '对芒果过敏',
    });
    expect(edited.body.data.notes).toBe('对芒果过敏');
    const bad = await call('teacher1', 'POST', '/api/student/student/saveStudent', {
      name: '',
      gender: 3,
      birthDate: '2023-02-30',
      classId: 'x',
      guardianPhone: '12',
    });
    expect(fieldNames(bad.body)).toEqual(['birthDate', 'classId', 'gender', 'guardianPhone', 'name']);
    // Deleting is not the teacher's; the principal may.
    expect(
      (await call('teacher1', 'POST', `/api/student/student/removeStudent?ids=${added.body.data.id}`)).status,
    ).toBe(403);
    expect(
      (await call('principal', 'POST', `/api/student/student/removeStudent?ids=${added.body.data.id}`)).status,
    ).toBe(200);
    expect((await call('teacher1', 'GET', `/api/student/student/detail?id=${added.body.data.id}`)).status).toBe(404);
  });

  it('posts: add, unique code, not removed while held', async () => {
    const added = await call('admin', 'POST', '/api/blade-system/post/submit', {
      postCode: 'nurse',
      postName: '保健护士',
      category: 3,
    });
    expect(added.status).toBe(200);
    const dup = await call('admin', 'POST', '/api/blade-system/post/submit', { postCode: 'nurse', postName: '重复' });
    expect(dup.body.msg).toBe('岗位编号已存在：nurse');
    const page = await call('admin', 'GET', '/api/blade-system/post/list?postName=保');
    expect(page.body.data.records.map((p: { postCode: string }) => p.postCode).sort()).toEqual([
      'caregiver',
      'doctor',
      'nurse',
    ]);
    const held = (await call('admin', 'GET', '/api/blade-system/post/select')).body.data.find(
      (p: { postCode: string }) => p.postCode === 'head_teacher',
    );
    const refused = await call('admin', 'POST', `/api/blade-system/post/remove?ids=${held.id}`);
    expect(refused.body.msg).toBe('岗位下还有用户，不能删除：班主任');
    expect((await call('admin', 'POST', `/api/blade-system/post/remove?ids=${added.body.data.id}`)).status).toBe(200);
  });
});
