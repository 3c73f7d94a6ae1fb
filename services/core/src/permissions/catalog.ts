/**
 * The menu catalogue, assembled: the frame of sections, the screens the installed contexts
 * serve, and the planned ones (see `catalogueMenus`). Definitions and helpers: menu-defs.ts.
 */
import type { ButtonDef, MenuDef, SectionMenus, TopMenuDef } from './menu-defs';
import { PLANNED_MENUS } from './planned';

export * from './menu-defs';

/**
 * The catalogue's frame: the sections (root menus) every screen hangs under, in sidebar
 * order. The screens themselves come from the contexts that serve them (each context's
 * `menus`, installed by services/api/src/contexts.ts) and, for families not built yet, from
 * `planned.ts`.
 */
export const SECTIONS: MenuDef[] = [
  {
    code: 'desk',
    name: '工作台',
    nameEn: 'Workbench',
    path: '/wel',
    icon: 'LayoutDashboard',
    sort: 1,
  },
  {
    code: 'lesson',
    name: '备课管理',
    nameEn: 'Lesson planning',
    path: '/week',
    icon: 'Notebook',
    sort: 10,
  },
  {
    code: 'observe',
    name: '观察记录',
    nameEn: 'Observations',
    path: '/observation',
    icon: 'Eye',
    sort: 20,
  },
  {
    code: 'growth_center',
    name: '教师发展',
    nameEn: 'Teacher development',
    path: '/teacher',
    icon: 'School',
    sort: 30,
  },
  {
    code: 'class_center',
    name: '班级管理',
    nameEn: 'Classes',
    path: '/class',
    icon: 'UsersGroup',
    sort: 40,
  },
  {
    code: 'library',
    name: '资源库',
    nameEn: 'File library',
    path: '/file',
    icon: 'Folders',
    sort: 50,
  },
  {
    code: 'system',
    name: '系统管理',
    nameEn: 'System',
    path: '/system',
    icon: 'iconfont iconicon_setting',
    sort: 90,
  },
  {
    code: 'resource',
    name: '资源管理',
    nameEn: 'Resources',
    path: '/resource',
    icon: 'iconfont iconicon_coinpurse_line',
    sort: 91,
  },
  {
    code: 'flow',
    name: '流程管理',
    nameEn: 'Workflow',
    path: '/flow',
    icon: 'iconfont iconicon_send',
    sort: 92,
  },
  {
    code: 'work',
    name: '我的事务',
    nameEn: 'My tasks',
    path: '/work',
    icon: 'iconfont iconicon_notice',
    sort: 93,
  },
  {
    code: 'log',
    name: '日志管理',
    nameEn: 'Logs',
    path: '/monitor/log',
    icon: 'iconfont iconicon_doc',
    sort: 94,
  },
];

export const TOP_MENUS: TopMenuDef[] = [
  {
    code: 'top_teaching',
    name: '教学',
    nameEn: 'Teaching',
    icon: 'School',
    sort: 1,
    menus: ['desk', 'lesson', 'observe', 'growth_center', 'class_center', 'library'],
  },
  { code: 'top_affairs', name: '事务', nameEn: 'Affairs', icon: 'Checklist', sort: 2, menus: ['desk', 'work', 'flow'] },
  {
    code: 'top_system',
    name: '系统',
    nameEn: 'System',
    icon: 'Settings',
    sort: 3,
    menus: ['system', 'resource', 'log'],
  },
];

/** Every menu and button as a flat list, parents before children. */
export function flattenCatalog(menus: MenuDef[] = catalogueMenus()) {
  const out: Array<{ def: MenuDef | ButtonDef; parent?: string; category: 1 | 2; menu: MenuDef }> = [];
  const walk = (m: MenuDef, parent?: string) => {
    out.push({ def: m, parent, category: 1, menu: m });
    for (const b of m.buttons ?? []) out.push({ def: b, parent: m.code, category: 2, menu: m });
    for (const c of m.children ?? []) walk(c, m.code);
  };
  for (const m of menus) walk(m);
  return out;
}

const installed = new Map<string, SectionMenus[]>();

/** A context's screens join the catalogue (once per context name; the last call wins). */
export function registerMenus(context: string, sections: SectionMenus[]): void {
  for (const s of sections)
    if (!SECTIONS.some((r) => r.code === s.section))
      throw new Error(`context ${context}: no catalogue section '${s.section}'`);
  installed.set(context, sections);
}

/**
 * The whole catalogue: every section with its screens from the installed contexts and the
 * planned ones no context serves yet, each section's screens in `sort` order. A screen is
 * served by at most one context.
 */
export function catalogueMenus(): MenuDef[] {
  if (!installed.size)
    throw new Error(
      'the catalogue has no contexts installed: import @sprout/api/contexts (or its installContexts) first',
    );
  const owner = new Map<string, string>();
  const bySection = new Map<string, MenuDef[]>();
  for (const [context, sections] of installed)
    for (const s of sections)
      for (const m of s.menus) {
        const other = owner.get(m.code);
        if (other) throw new Error(`screen ${m.code} is served by both ${other} and ${context}`);
        owner.set(m.code, context);
        bySection.set(s.section, [...(bySection.get(s.section) ?? []), m]);
      }
  for (const s of PLANNED_MENUS)
    for (const m of s.menus) if (!owner.has(m.code)) bySection.set(s.section, [...(bySection.get(s.section) ?? []), m]);
  return SECTIONS.map((root) => ({
    ...root,
    children: [...(bySection.get(root.code) ?? [])].sort((a, b) => a.sort - b.sort),
  }));
}
