import { createMongoAbility, type MongoAbility, type RawRuleOf, subject } from '@casl/ability';
import { unpackRules } from '@casl/ability/extra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { catalogueMenus } from '@sprout/core/permissions/catalog';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { bladeAuth, type FastifyInstance, testApp, testConfig } from '../../testing';
import { accessToken } from '../auth/fixtures';

interface MenuNode {
  id: string;
  parentId: string;
  code: string;
  name: string;
  path: string;
  sort: number;
  category: number;
  isOpen: number;
  /** Left out of a leaf (BladeX's nodes; Saber takes any `children` key for a branch). */
  children?: MenuNode[];
  meta: { i18n: string };
}

const codes = (nodes: MenuNode[]): string[] => nodes.flatMap((n) => [n.code, ...codes(n.children ?? [])]);
/** The button codes as Saber collects them: a node with a `children` key is a branch, any other a leaf. */
const leaves = (nodes: Array<{ code: string; category: number; children?: unknown[] }>): string[] =>
  nodes.flatMap((n) => (n.children ? leaves(n.children as typeof nodes) : n.category === 2 ? [n.code] : []));

/**
 * What the web app builds its shell from, for the demo kindergarten's accounts signed in
 * as Saber does: top menus, the menu tree (routes), buttons, and user-info's ability rules.
 */
describe('menus, buttons and the browser’s rules for signed-in users', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  const tokens: Record<string, string> = {};

  const get = async (who: string, url: string, headers: Record<string, string> = {}) => {
    const r = await app.inject({ method: 'GET', url, headers: { ...bladeAuth(tokens[who] as string), ...headers } });
    expect(r.statusCode, `${who} ${url}: ${r.body.slice(0, 200)}`).toBe(200);
    return r.json().data;
  };

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    ({ app } = await testApp(t.database, { config: testConfig() }));
    // Signed in as the seeded people the menus are checked for (accessToken refuses a failed sign-in).
    const people = {
      teacher: ['100001', 'teacher1', 'sprout123'],
      caregiver: ['100001', 'caregiver', 'sprout123'],
      admin: ['100001', 'admin', 'sprout123'],
      platform: ['000000', 'admin', 'admin'],
    } as const;
    for (const [who, [tenantId, account, password]] of Object.entries(people))
      tokens[who] = await accessToken(app, tenantId, account, password);
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('routes: the teacher’s menus only, nested, sorted by sort, with the i18n key', async () => {
    const tree = (await get('teacher', '/api/blade-system/menu/routes')) as MenuNode[];
    expect(tree.map((n) => n.code)).toEqual([
      'desk',
      'lesson',
      'observe',
      'growth_center',
      'class_center',
      'library',
      'work',
    ]);
    const all = codes(tree);
    expect(all).toContain('week_mine');
    expect(all).toContain('student');
    for (const hidden of ['week_trial', 'observation_trial', 'user', 'role', 'menu', 'tenant'])
      expect(all).not.toContain(hidden);
    const lesson = tree.find((n) => n.code === 'lesson') as MenuNode;
    const lessons = lesson.children ?? [];
    expect(lessons.map((c) => c.sort)).toEqual([...lessons.map((c) => c.sort)].sort((x, y) => x - y));
    expect(lessons[0]).toMatchObject({
      parentId: lesson.id,
      code: 'week_mine',
      name: '我的备课',
      path: '/week/mine',
      category: 1,
      isOpen: 1,
      meta: { i18n: 'menu.week_mine' },
    });
    // English on request (the web app's language cookie).
    const en = (await get('teacher', '/api/blade-system/menu/routes', { cookie: 'language=en' })) as MenuNode[];
    expect(en.find((n) => n.code === 'lesson')?.name).toBe('Lesson planning');
  });

  it('routes under one top menu; top-menu lists only those with a menu of the caller', async () => {
    const tops = (await get('teacher', '/api/blade-system/menu/top-menu')) as Array<{
      id: string;
      code: string;
      name: string;
    }>;
    expect(tops.map((x) => x.code)).toEqual(['top_teaching', 'top_affairs']);
    expect(tops[0]).toMatchObject({ name: '教学', source: 'School', sort: 1 });
    const affairs = tops.find((x) => x.code === 'top_affairs') as { id: string };
    const tree = (await get('teacher', `/api/blade-system/menu/routes?topMenuId=${affairs.id}`)) as MenuNode[];
    expect(tree.map((n) => n.code)).toEqual(['desk', 'work']);
    const platformTops = (await get('platform', '/api/blade-system/menu/top-menu')) as Array<{ code: string }>;
    expect(platformTops.map((x) => x.code)).toEqual(['top_teaching', 'top_affairs', 'top_system']);
  });

  it('the platform administrator sees every screen, platform ones included; a tenant admin every other', async () => {
    const every = catalogueMenus().flatMap(function walk(m): string[] {
      return [m.code, ...(m.children ?? []).flatMap(walk)];
    });
    const platform = codes((await get('platform', '/api/blade-system/menu/routes')) as MenuNode[]);
    expect([...platform].sort()).toEqual([...every].sort());
    const admin = codes((await get('admin', '/api/blade-system/menu/routes')) as MenuNode[]);
    expect(admin).toContain('role');
    for (const p of ['menu', 'topmenu', 'tenant', 'client', 'data_scope', 'api_scope', 'dict'])
      expect(admin).not.toContain(p);
  });

  it('buttons: a tree whose leaves carry the caller’s codes', async () => {
    const teacher = leaves(await get('teacher', '/api/blade-system/menu/buttons'));
    expect(teacher).toEqual(
      expect.arrayContaining(['week_add', 'week_submit', 'observation_add', 'student_add', 'work_todo_handle']),
    );
    for (const code of ['week_review', 'observation_excellent', 'student_delete', 'clazz_add', 'user_add'])
      expect(teacher).not.toContain(code);
    const caregiver = leaves(await get('caregiver', '/api/blade-system/menu/buttons'));
    // She reads her class's observations (they name her children), writing none.
    expect(caregiver.sort()).toEqual([
      'clazz_view',
      'creview_view',
      'hearken_view',
      'notice_view',
      'observation_regional_view',
      'observation_view',
      'student_view',
      'work_start_leave',
      'work_todo_handle',
    ]);
  });

  it('user-info carries the packed rules and the button codes; the browser’s ability agrees with the server', async () => {
    const info = await get('caregiver', '/api/blade-auth/oauth/user-info');
    expect(info).toMatchObject({ tenantId: '100001', account: 'caregiver', realName: '孙秀英', roleName: 'caregiver' });
    expect(info.buttons).toContain('student_view');
    const ability = createMongoAbility(unpackRules(info.abilityRules) as RawRuleOf<MongoAbility>[]);
    expect(ability.can('student_view', 'Button')).toBe(true);
    expect(ability.can('student_add', 'Button')).toBe(false);
    // A child of her class, with and without the guardian's phone; a child of another class.
    const list = await get('caregiver', '/api/student/student/listStudents');
    const child = list.records[0];
    expect(child).not.toHaveProperty('guardianPhone');
    expect(ability.can('read', subject('student', child))).toBe(true);
    expect(ability.can('read', subject('student', child), 'guardianPhone')).toBe(false);
    expect(ability.can('read', subject('student', { ...child, classId: '1' }))).toBe(false);
    // What the browser would show of a record the API returned.
    const detail = await get('caregiver', `/api/student/student/detail?id=${child.id}`);
    expect(detail).toMatchObject({ id: child.id, name: child.name });
    expect(detail).not.toHaveProperty('guardianPhone');
    const byTeacher = await get('teacher', `/api/student/student/detail?id=${child.id}`);
    expect(byTeacher.guardianPhone).toMatch(/^1\d{10}$/);
  });

  it('answers the Saber grant dialog: trees and the role’s checked keys', async () => {
    const roles = (await get('admin', '/api/blade-system/role/list')) as Array<{ id: string; roleAlias: string }>;
    expect(roles.map((r) => r.roleAlias)).toEqual([
      'admin',
      'principal',
      'reviewer',
      'leader',
      'teacher',
      'caregiver',
      'auditor',
    ]);
    const teacher = roles.find((r) => r.roleAlias === 'teacher') as { id: string };
    const keys = await get('admin', `/api/blade-system/menu/role-tree-keys?roleIds=${teacher.id}`);
    const tree = await get('admin', '/api/blade-system/menu/grant-tree');
    const ids = (nodes: Array<{ id: string; children?: unknown[] }>): string[] =>
      nodes.flatMap((n) => [n.id, ...ids((n.children ?? []) as typeof nodes)]);
    const grantable = new Set(ids(tree.menu));
    expect(keys.menu.length).toBeGreaterThan(20);
    expect(keys.menu.every((id: string) => grantable.has(id))).toBe(true);
    expect(keys.dataScope.every((id: string) => ids(tree.dataScope).includes(id))).toBe(true);
    expect(keys.apiScope.every((id: string) => ids(tree.apiScope).includes(id))).toBe(true);
    const platformTree = await get('platform', '/api/blade-system/menu/grant-tree');
    expect(JSON.stringify(platformTree.menu)).toContain('租户管理');
    expect(JSON.stringify(tree.menu)).not.toContain('租户管理');
  });

  it('the menu screen: tree, lazy levels, detail; a new menu must have a unique code and a real parent', async () => {
    const list = await get('platform', '/api/blade-system/menu/list?name=幼儿');
    expect(JSON.stringify(list)).toContain('"code":"student"');
    const roots = await get('platform', '/api/blade-system/menu/lazy-menu-list?parentId=0');
    expect(roots.map((m: { code: string }) => m.code)).toEqual(catalogueMenus().map((m) => m.code));
    expect(roots.every((m: { hasChildren: boolean }) => m.hasChildren)).toBe(true);
    const post = (payload: object) =>
      app.inject({
        method: 'POST',
        url: '/api/blade-system/menu/submit',
        headers: bladeAuth(tokens.platform as string),
        payload,
      });
    const dup = await post({ parentId: roots[0].id, code: 'student', name: '重复', category: 1 });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().msg).toBe('菜单编号已存在：student');
    const orphan = await post({ parentId: '0', code: 'lonely_button', name: '孤儿按钮', category: 2 });
    expect(orphan.json().msg).toBe('按钮必须挂在菜单下');
    const added = await post({
      parentId: roots[0].id,
      code: 'desk_extra',
      name: '扩展',
      nameEn: 'Extra',
      path: '/desk/extra',
      category: 1,
      sort: 9,
    });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({ msg: '新增成功', data: { code: 'desk_extra', nameEn: 'Extra' } });
    const detail = await get('platform', `/api/blade-system/menu/detail?id=${added.json().data.id}`);
    expect(detail.parentName).toBe('工作台');
    const cycle = await post({
      id: roots[0].id,
      parentId: added.json().data.id,
      code: roots[0].code,
      name: roots[0].name,
      category: 1,
    });
    expect(cycle.json().msg).toBe('上级菜单不能是它自己或它的下级');
    const busy = await app.inject({
      method: 'POST',
      url: `/api/blade-system/menu/remove?ids=${roots[0].id}`,
      headers: bladeAuth(tokens.platform as string),
    });
    expect(busy.statusCode).toBe(400);
    expect(busy.json().msg).toMatch(/^请先删除下级菜单或按钮：/);
  });

  it('re-seeding keeps an administrator’s edit of a catalogue menu', async () => {
    await inSystem(t.database, (trx) =>
      trx.updateTable('menu').set({ name: '我的周计划' }).where('code', '=', 'week_mine').execute(),
    );
    const report = await seed(t.database, { demo: true });
    expect(report.created).toEqual([]);
    const tree = (await get('teacher', '/api/blade-system/menu/routes')) as MenuNode[];
    expect(JSON.stringify(tree)).toContain('我的周计划');
  });
});
