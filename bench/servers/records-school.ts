// The schools of the issue-7 benchmark (records-data.ts): kindergartens with classes and teachers.
import type { Kysely } from 'kysely';
import type { DB } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import type { Actor } from '@sprout/core/records';

const GRADES = [
  { grade: 1, dept: '托班组', short: '托' },
  { grade: 2, dept: '小班组', short: '小' },
  { grade: 3, dept: '中班组', short: '中' },
  { grade: 4, dept: '大班组', short: '大' },
] as const;
const CN = '一二三四五六七八九十'.split('');

export interface School {
  tenantId: string;
  classes: Array<{ id: string; deptId: string; team: Actor[] }>;
  reviewer: Actor;
}

/**
 * The grade groups of a tenant (created under a new campus when it has none), three more
 * classes per grade with a head and an assistant teacher each (seeded `teacher` role), and a
 * reviewer; the tenant's existing classes with a teaching team write plans too.
 */
export async function school(trx: Kysely<DB>, tenantId: string, roleIds: Map<string, string>): Promise<School> {
  const depts = await trx
    .selectFrom('dept')
    .select(['id', 'dept_name', 'parent_id'])
    .where('tenant_id', '=', tenantId)
    .where('is_deleted', '=', 0)
    .execute();
  const gradeDept = new Map<number, string>();
  let campus = depts.find((d) => String(d.parent_id) === '0');
  if (!campus) {
    campus = { id: nextId(), dept_name: `萌芽第${tenantId.slice(-2)}幼儿园`, parent_id: '0' };
    await trx
      .insertInto('dept')
      .values({
        tenant_id: tenantId,
        id: campus.id,
        ancestors: [],
        dept_category: 1,
        dept_name: campus.dept_name,
        full_name: campus.dept_name,
        sort: 1,
      })
      .execute();
  }
  for (const g of GRADES) {
    const found = depts.find((d) => d.dept_name === g.dept);
    if (found) {
      gradeDept.set(g.grade, String(found.id));
      continue;
    }
    const id = nextId();
    gradeDept.set(g.grade, id);
    await trx
      .insertInto('dept')
      .values({
        tenant_id: tenantId,
        id,
        parent_id: campus.id,
        ancestors: [campus.id],
        dept_category: 2,
        dept_name: g.dept,
        full_name: `${campus.dept_name}${g.dept}`,
        sort: g.grade,
      })
      .execute();
  }
  const existing = await trx
    .selectFrom('clazz')
    .select(['id', 'name', 'dept_id', 'teacher_ids'])
    .where('tenant_id', '=', tenantId)
    .where('is_deleted', '=', 0)
    .execute();
  const names = await trx
    .selectFrom('app_user')
    .select(['id', 'real_name', 'account'])
    .where('tenant_id', '=', tenantId)
    .execute();
  const nameOf = new Map(names.map((u) => [String(u.id), u.real_name ?? u.account]));
  const classes: School['classes'] = existing
    .filter((c) => c.teacher_ids.length && c.dept_id !== null)
    .map((c) => ({
      id: String(c.id),
      deptId: String(c.dept_id),
      team: c.teacher_ids.map((id) => ({ id: String(id), name: nameOf.get(String(id)) ?? String(id) })),
    }));
  const taken = new Set(existing.map((c) => c.name));
  const users = [];
  const userRoles = [];
  const clazz = [];
  const teacherRole = roleIds.get('teacher') as string;
  for (const g of GRADES) {
    const deptId = gradeDept.get(g.grade) as string;
    for (let k = 0, made = 0; made < 3; k++) {
      const name = `${g.short}${CN[k]}班`;
      if (taken.has(name)) continue;
      made++;
      const team: Actor[] = [];
      for (const role of ['head', 'assistant']) {
        const id = nextId();
        const realName = `${g.short}${CN[k]}${role === 'head' ? '主班' : '配班'}老师`;
        team.push({ id, name: realName });
        users.push({
          tenant_id: tenantId,
          id,
          account: `t${g.grade}${k}${role[0]}`,
          password_hash: 'x',
          name: realName,
          real_name: realName,
          dept_id: deptId,
        });
        userRoles.push({ tenant_id: tenantId, user_id: id, role_id: teacherRole });
      }
      const id = nextId();
      clazz.push({
        tenant_id: tenantId,
        id,
        name,
        grade: g.grade,
        school_year: '2026-2027',
        dept_id: deptId,
        head_teacher_id: team[0]?.id,
        teacher_ids: team.map((a) => a.id),
        capacity: 30,
      });
      classes.push({ id, deptId, team });
    }
  }
  let reviewer = names.find((u) => u.account === 'reviewer');
  if (!reviewer) {
    reviewer = { id: nextId(), real_name: '业务园长', account: 'reviewer' };
    users.push({
      tenant_id: tenantId,
      id: reviewer.id,
      account: 'reviewer',
      password_hash: 'x',
      name: '业务园长',
      real_name: '业务园长',
      dept_id: campus.id,
    });
    userRoles.push({ tenant_id: tenantId, user_id: reviewer.id, role_id: roleIds.get('reviewer') as string });
  }
  await trx.insertInto('app_user').values(users).execute();
  await trx.insertInto('user_role').values(userRoles).execute();
  await trx.insertInto('clazz').values(clazz).execute();
  return {
    tenantId,
    classes,
    reviewer: { id: String(reviewer.id), name: reviewer.real_name ?? reviewer.account },
  };
}
