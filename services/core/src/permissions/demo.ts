import type { Actor } from '../records/lifecycle';
import type { Kysely } from 'kysely';
import { hashPassword, md5 } from '../auth/password';
import type { DB } from '../db';
import { nextId } from '../ids';
import { type CatalogueIndex, seedTenantRoles } from './seed';

/** A class of the demo kindergarten as contexts' demo data sees it. */
export interface DemoClass {
  id: string;
  deptId: string;
  name: string;
  grade: number;
  /** Its teachers: the first writes, the rest co-write. */
  team: Actor[];
}

/** What a context's demo data is seeded into: the demo tenant, its classes, its people (by account). */
export interface DemoWorld {
  tenantId: string;
  classes: DemoClass[];
  actor(account: string): Actor;
}

/** A context's demo data, written after the demo kindergarten's people and classes exist. */
export type DemoSeeder = (trx: Kysely<DB>, world: DemoWorld) => Promise<void>;

const demoSeeders = new Map<string, DemoSeeder>();

/** A context's demo data joins the demo kindergarten (once per context name). */
export function registerDemo(context: string, seeder: DemoSeeder): void {
  demoSeeders.set(context, seeder);
}

/** The demo kindergarten (DOMAIN.md "Demo data"). */
export const DEMO_TENANT_ID = '100001';
export const DEMO_PASSWORD = 'sprout123';
export const DEMO_SCHOOL_YEAR = '2026-2027';

/** The demo accounts, as README.md documents them. */
export const DEMO_ACCOUNTS = [
  { account: 'admin', name: '管理员', realName: '周明', dept: 'campus', post: null, role: 'admin' },
  { account: 'principal', name: '李园长', realName: '李静', dept: 'campus', post: 'principal', role: 'principal' },
  { account: 'reviewer', name: '张园长', realName: '张敏', dept: 'campus', post: 'vice_principal', role: 'reviewer' },
  { account: 'leader', name: '陈老师', realName: '陈晓燕', dept: 'xiao', post: 'grade_leader', role: 'leader' },
  { account: 'teacher1', name: '王老师', realName: '王芳', dept: 'xiao', post: 'head_teacher', role: 'teacher' },
  { account: 'teacher2', name: '刘老师', realName: '刘洋', dept: 'xiao', post: 'assistant_teacher', role: 'teacher' },
  { account: 'teacher3', name: '赵老师', realName: '赵丽', dept: 'zhong', post: 'head_teacher', role: 'teacher' },
  { account: 'caregiver', name: '孙阿姨', realName: '孙秀英', dept: 'xiao', post: 'caregiver', role: 'caregiver' },
  { account: 'auditor', name: '审计员', realName: '吴静', dept: 'campus', post: null, role: 'auditor' },
] as const;

const DEPTS = [
  { key: 'campus', name: '萌芽实验幼儿园', category: 1, parent: null, sort: 1 },
  { key: 'tuo', name: '托班组', category: 2, parent: 'campus', sort: 1 },
  { key: 'xiao', name: '小班组', category: 2, parent: 'campus', sort: 2 },
  { key: 'zhong', name: '中班组', category: 2, parent: 'campus', sort: 3 },
  { key: 'da', name: '大班组', category: 2, parent: 'campus', sort: 4 },
] as const;

/** Posts of a kindergarten (DOMAIN.md). */
export const STANDARD_POSTS = [
  { code: 'principal', name: '园长', category: 1 },
  { code: 'vice_principal', name: '业务园长', category: 1 },
  { code: 'research_leader', name: '教研组长', category: 2 },
  { code: 'grade_leader', name: '年级组长', category: 2 },
  { code: 'head_teacher', name: '班主任', category: 3 },
  { code: 'assistant_teacher', name: '配班教师', category: 3 },
  { code: 'caregiver', name: '保育员', category: 3 },
  { code: 'doctor', name: '保健医', category: 3 },
] as const;

const CLASSES = [
  {
    name: '小一班',
    grade: 2,
    dept: 'xiao',
    head: 'teacher1',
    teachers: ['teacher1', 'teacher2'],
    caregiver: 'caregiver',
    room: '101',
    capacity: 25,
    born: 2022,
    enrolled: 2026,
  },
  {
    name: '小二班',
    grade: 2,
    dept: 'xiao',
    head: 'leader',
    teachers: ['leader'],
    caregiver: null,
    room: '102',
    capacity: 25,
    born: 2022,
    enrolled: 2026,
  },
  {
    name: '中一班',
    grade: 3,
    dept: 'zhong',
    head: 'teacher3',
    teachers: ['teacher3'],
    caregiver: null,
    room: '201',
    capacity: 30,
    born: 2021,
    enrolled: 2025,
  },
  {
    name: '大一班',
    grade: 4,
    dept: 'da',
    head: null,
    teachers: [],
    caregiver: null,
    room: '301',
    capacity: 30,
    born: 2020,
    enrolled: 2024,
  },
] as const;

const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈姚卢'.split('');
const BOY = '子轩 浩然 宇航 梓涵 俊杰 皓轩 一鸣 睿泽 博文 天佑 明哲 嘉懿 思源 铭泽 昊天 诗杰 逸凡 煜祺 承泽 沐阳'.split(
  ' ',
);
const GIRL =
  '欣怡 梓萱 诗涵 语桐 雨萱 可馨 一诺 思琪 若汐 芷若 佳怡 梦瑶 安琪 心怡 紫涵 雅琪 语嫣 沐晴 书瑶 依诺'.split(' ');
const PARENT = '建国 志强 海涛 丽娟 秀梅 晓燕 国华 春梅 文静 红霞 伟 磊 静 敏 军 芳'.split(' ');

/** A small deterministic generator, so every demo database (and benchmark school) looks alike. */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, list: readonly T[]) => list[Math.floor(r() * list.length)] as T;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * Seeds the demo kindergarten: tenant, seeded roles, campus and grade groups, posts, the
 * accounts of DEMO_ACCOUNTS (password sprout123), four classes and 100 children. The
 * caller checked that the tenant does not exist and runs this as the owner.
 */
export async function seedDemoTenant(trx: Kysely<DB>, index: CatalogueIndex): Promise<void> {
  const T = DEMO_TENANT_ID;
  await trx.insertInto('tenant').values({ tenant_id: T, tenant_name: '萌芽实验幼儿园', account_number: -1 }).execute();
  const { roleIds } = await seedTenantRoles(trx, T, index);

  const deptIds = new Map<string, string>();
  for (const d of DEPTS) {
    const id = nextId();
    deptIds.set(d.key, id);
    const parent = d.parent ? (deptIds.get(d.parent) as string) : '0';
    await trx
      .insertInto('dept')
      .values({
        tenant_id: T,
        id,
        parent_id: parent,
        ancestors: d.parent ? [parent] : [],
        dept_category: d.category,
        dept_name: d.name,
        full_name: d.parent ? `萌芽实验幼儿园${d.name}` : d.name,
        sort: d.sort,
      })
      .execute();
  }
  const postIds = await seedPosts(trx, T);

  // One hash for every demo account: they share the demo password.
  const hash = await hashPassword(md5(DEMO_PASSWORD));
  const userIds = new Map<string, string>();
  for (const a of DEMO_ACCOUNTS) {
    const id = nextId();
    userIds.set(a.account, id);
    await trx
      .insertInto('app_user')
      .values({
        tenant_id: T,
        id,
        account: a.account,
        password_hash: hash,
        name: a.name,
        real_name: a.realName,
        dept_id: deptIds.get(a.dept) as string,
        post_id: a.post ? (postIds.get(a.post) as string) : null,
      })
      .execute();
    await trx
      .insertInto('user_role')
      .values({ tenant_id: T, user_id: id, role_id: roleIds.get(a.role) as string })
      .execute();
  }
  const adminId = userIds.get('admin') as string;

  const r = rng(20261121);
  let no = 0;
  const demoClasses: DemoClass[] = [];
  const actor = (account: string) => {
    const a = DEMO_ACCOUNTS.find((x) => x.account === account);
    return { id: userIds.get(account) as string, name: a?.realName ?? account };
  };
  for (const [ci, c] of CLASSES.entries()) {
    const classId = nextId();
    const deptId = deptIds.get(c.dept) as string;
    await trx
      .insertInto('clazz')
      .values({
        tenant_id: T,
        id: classId,
        name: c.name,
        grade: c.grade,
        school_year: DEMO_SCHOOL_YEAR,
        dept_id: deptId,
        head_teacher_id: c.head ? (userIds.get(c.head) as string) : null,
        teacher_ids: c.teachers.map((t) => userIds.get(t) as string),
        caregiver_id: c.caregiver ? (userIds.get(c.caregiver) as string) : null,
        room: c.room,
        capacity: c.capacity,
        create_user: adminId,
      })
      .execute();
    demoClasses.push({ id: classId, deptId, name: c.name, grade: c.grade, team: c.teachers.map(actor) });
    const students = [];
    for (let i = 0; i < 25; i++) {
      no++;
      const gender = r() < 0.5 ? 1 : 2;
      const surname = pick(r, SURNAMES);
      // Born between September of `born` and August of the next year (the school-year cut-off).
      const month = ((Math.floor(r() * 12) + 8) % 12) + 1;
      const year = month >= 9 ? c.born : c.born + 1;
      const day = Math.floor(r() * 28) + 1;
      students.push({
        tenant_id: T,
        id: nextId(),
        name: surname + pick(r, gender === 1 ? BOY : GIRL),
        gender,
        birth_date: `${year}-${pad(month)}-${pad(day)}`,
        class_id: classId,
        dept_id: deptId,
        student_no: `${c.enrolled}${pad(ci + 1)}${pad(i + 1)}`,
        enroll_date: `${c.enrolled}-09-01`,
        guardian_name: `${r() < 0.5 ? surname : pick(r, SURNAMES)}${pick(r, PARENT)}`,
        guardian_phone: `1${pick(r, ['35', '37', '38', '39', '58', '86'])}${pad(Math.floor(r() * 1e8), 8)}`,
        notes: no % 9 === 0 ? '花生过敏' : no % 13 === 0 ? '午睡需陪伴' : null,
        create_user: adminId,
      });
    }
    await trx.insertInto('student').values(students).execute();
  }
  for (const seeder of demoSeeders.values()) await seeder(trx, { tenantId: T, classes: demoClasses, actor });
}

/** The standard posts of a tenant; returns ids by code (existing ones kept). */
export async function seedPosts(trx: Kysely<DB>, tenantId: string): Promise<Map<string, string>> {
  const existing = await trx
    .selectFrom('post')
    .select(['id', 'post_code'])
    .where('tenant_id', '=', tenantId)
    .where('is_deleted', '=', 0)
    .execute();
  const ids = new Map(existing.map((p) => [p.post_code, String(p.id)]));
  for (const [i, p] of STANDARD_POSTS.entries()) {
    if (ids.has(p.code)) continue;
    const id = nextId();
    ids.set(p.code, id);
    await trx
      .insertInto('post')
      .values({ tenant_id: tenantId, id, category: p.category, post_code: p.code, post_name: p.name, sort: i + 1 })
      .execute();
  }
  return ids;
}
