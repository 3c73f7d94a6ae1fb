import { crud, type SectionMenus } from './menu-defs';

/**
 * Screens of the product (spec §2, §7) whose families have not landed yet: they are in the
 * catalogue (granted, in the menu, a "coming soon" page in the web app) until their context
 * serves them. A context that serves one of these codes replaces the entry here; delete it
 * from this list when the family lands.
 */
export const PLANNED_MENUS: SectionMenus[] = [
  {
    section: 'system',
    menus: [
      {
        code: 'datasource',
        name: '数据源管理',
        nameEn: 'Data sources',
        path: '/tool/datasource',
        icon: 'iconfont icon-caidanguanli',
        sort: 15,
        platformOnly: true,
        api: ['* /api/blade-develop/datasource/**'],
        buttons: crud('datasource', '数据源', 'data source'),
      },
      {
        code: 'code',
        name: '代码生成',
        nameEn: 'Code generator',
        path: '/tool/code',
        icon: 'iconfont iconicon_savememo',
        sort: 16,
        platformOnly: true,
        api: ['* /api/blade-develop/code/**'],
        buttons: crud('code', '代码生成', 'generator', [{ code: 'code_gen', name: '生成代码', nameEn: 'Generate' }]),
      },
      {
        code: 'report',
        name: '报表管理',
        nameEn: 'Reports',
        path: '/report/reportlist',
        icon: 'ReportAnalytics',
        sort: 17,
        api: ['* /api/blade-report/report/rest/**'],
        buttons: [{ code: 'report_delete', name: '删除报表', nameEn: 'Delete report' }],
      },
    ],
  },
];
