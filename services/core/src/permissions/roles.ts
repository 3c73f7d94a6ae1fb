import type { MenuDef } from './catalog';
import { RESOURCES } from './resources';

/**
 * The roles every tenant starts with (DOMAIN.md "Roles you should seed"), as choices over
 * the catalogue: which screens (leaf menus), which of their buttons, which data scope per
 * resource, which top menus. API scopes follow the granted menus and buttons.
 */
export interface RoleDef {
  alias: string;
  name: string;
  nameEn: string;
  sort: number;
  /** Only the platform tenant has it. */
  platformOnly?: boolean;
  /** Is this leaf screen granted? (`root` is its top-level menu.) */
  screen(menu: MenuDef, root: MenuDef): boolean;
  /** Is this button of a granted screen granted? */
  button(code: string, menu: MenuDef): boolean;
  /** The data scope (its seeded code) for a resource of a granted screen; null → none. */
  data(resource: string): string | null;
  topMenus: readonly string[];
}

const TEACHING_ROOTS = ['desk', 'lesson', 'observe', 'growth_center', 'class_center', 'library', 'work'];
const ALL_TOP = ['top_teaching', 'top_affairs', 'top_system'];
const TEACHING_TOP = ['top_teaching', 'top_affairs'];

const all = (resource: string) => `${resource}_all`;
const hasClasses = (resource: string) => Boolean(RESOURCES[resource]?.defaults.classes);

/** The observation families' resources: a class's team sees the class's records. */
const OBSERVING = ['observation', 'observation_regional', 'hearken', 'creview'];

/** Buttons that decide about other people's records. */
const REVIEWS = /_(review|excellent|boss_edit)$/;
const WRITES = /_(add|edit|delete|import)$/;

export const ROLE_DEFS: readonly RoleDef[] = [
  {
    alias: 'administrator',
    name: '超级管理员',
    nameEn: 'Platform administrator',
    sort: 1,
    platformOnly: true,
    screen: () => true,
    button: () => true,
    data: all,
    topMenus: ALL_TOP,
  },
  {
    alias: 'admin',
    name: '管理员',
    nameEn: 'Administrator',
    sort: 2,
    screen: (m) => !m.platformOnly,
    button: () => true,
    data: all,
    topMenus: ALL_TOP,
  },
  {
    alias: 'principal',
    name: '园长',
    nameEn: 'Principal',
    sort: 3,
    screen: (m, root) => TEACHING_ROOTS.includes(root.code) || ['user', 'dept', 'post'].includes(m.code),
    button: (code, m) => !['user', 'dept', 'post'].includes(m.code) || code.endsWith('_view'),
    data: all,
    topMenus: ALL_TOP,
  },
  {
    alias: 'reviewer',
    name: '业务园长',
    nameEn: 'Teaching reviewer',
    sort: 4,
    screen: (m, root) =>
      TEACHING_ROOTS.includes(root.code) && !['file_kind', 'file_type', 'file_identify'].includes(m.code),
    button: (code, m) =>
      REVIEWS.test(code) ||
      !WRITES.test(code) ||
      ['research', 'half_follow', 'project', 'growth', 'teacher_plan', 'file'].includes(m.code),
    data: all,
    topMenus: TEACHING_TOP,
  },
  {
    alias: 'leader',
    name: '年级组长',
    nameEn: 'Grade leader',
    sort: 5,
    screen: (m, root) =>
      TEACHING_ROOTS.includes(root.code) && !['file_kind', 'file_type', 'file_identify'].includes(m.code),
    button: (code, m) =>
      REVIEWS.test(code) ||
      !WRITES.test(code) ||
      // A grade leader also teaches a class: she writes its plans (and reviews everyone else's).
      ['research', 'half_follow', 'growth', 'teacher_plan', 'file', 'week_mine', 'week_template'].includes(m.code),
    data: (r) => (r === 'notice' ? all(r) : `${r}_dept_below`),
    topMenus: TEACHING_TOP,
  },
  {
    alias: 'teacher',
    name: '教师',
    nameEn: 'Teacher',
    sort: 6,
    screen: (m, root) =>
      TEACHING_ROOTS.includes(root.code) &&
      !['week_trial', 'observation_trial', 'teacher_master', 'file_kind', 'file_type', 'file_identify'].includes(
        m.code,
      ),
    button: (code, m) => {
      if (REVIEWS.test(code)) return false;
      // A class's teachers read the half-day visits of their class and answer them.
      if (code === 'half_follow_reply') return true;
      if (['desk_notice', 'clazz', 'project', 'half_follow'].includes(m.code)) return code.endsWith('_view');
      if (m.code === 'student') return code !== 'student_delete';
      return true;
    },
    data: (r) => {
      // Projects and research activities are the school's: every teacher reads them (she writes her own).
      if (r === 'notice' || r === 'project' || r === 'research') return all(r);
      // A class's teaching team writes its weekly plans and observes its children together (DOMAIN.md).
      if (['clazz', 'student', 'half_follow', 'week', 'class_work', 'class_summary', ...OBSERVING].includes(r))
        return `${r}_class`;
      return `${r}_own`;
    },
    topMenus: TEACHING_TOP,
  },
  {
    alias: 'caregiver',
    name: '保育员',
    nameEn: 'Caregiver',
    sort: 7,
    screen: (m) =>
      // A caregiver reads her class's observations (they name her children) but writes none.
      [
        'desk_home',
        'desk_notice',
        'clazz',
        'student',
        'work_start',
        'work_todo',
        'work_send',
        'work_done',
        'observation_list',
        'observation_regional',
        'hearken',
        'creview',
      ].includes(m.code),
    button: (code) => code.endsWith('_view') || code === 'work_start_leave' || code === 'work_todo_handle',
    data: (r) => {
      if (r === 'student') return 'student_class_limited';
      if (hasClasses(r)) return `${r}_class`;
      return r === 'notice' ? all(r) : null;
    },
    topMenus: TEACHING_TOP,
  },
  {
    alias: 'auditor',
    name: '审计员',
    nameEn: 'Auditor',
    sort: 8,
    screen: (m, root) => m.code === 'desk_home' || m.code === 'audit' || root.code === 'log',
    button: () => true,
    data: (r) => (r === 'audit' ? all(r) : null),
    topMenus: ['top_system'],
  },
];

/** The seeded data scopes of a resource: code suffix, type, name (zh / en), visible fields. */
export interface DataScopeDef {
  code: string;
  resource: string;
  type: number;
  name: string;
  field: string;
}

export function dataScopeDefs(resource: string): DataScopeDef[] {
  const defs: DataScopeDef[] = [
    { code: `${resource}_all`, resource, type: 1, name: '全部数据', field: '*' },
    { code: `${resource}_own`, resource, type: 2, name: '本人数据', field: '*' },
    { code: `${resource}_dept`, resource, type: 3, name: '本部门数据', field: '*' },
    { code: `${resource}_dept_below`, resource, type: 4, name: '本部门及以下数据', field: '*' },
  ];
  if (hasClasses(resource))
    defs.push({ code: `${resource}_class`, resource, type: 6, name: '本人班级数据', field: '*' });
  if (resource === 'student')
    defs.push({
      code: 'student_class_limited',
      resource,
      type: 6,
      name: '本人班级数据（不含监护人电话）',
      field: '-guardianPhone',
    });
  return defs;
}
