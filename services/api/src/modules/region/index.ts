import { registerMessages } from '@sprout/core/i18n';
import { crud } from '@sprout/core/permissions/catalog';
import type { ServerContext } from '../../context';
import { regionRoutes } from './region-routes';

registerMessages({
  zh: {
    'region.code': '请输入区划编号',
    'region.codeFormat': '区划编号须为 2 至 12 位数字',
    'region.name': '请输入区划名称',
    'region.sort': '请输入区划排序',
    'region.codeTaken': '区划编号已存在：{code}',
    'region.codeFixed': '区划编号不可修改：{code}',
    'region.parentUnknown': '上级区划不存在：{parentCode}',
    'region.cycle': '不能把区划 {code} 移到它自己或它的下级 {parentCode} 之下',
    'region.hasChildren': '请先删除下级区划：{codes}',
  },
  en: {
    'region.code': 'Please enter the region code',
    'region.codeFormat': 'A region code is 2 to 12 digits',
    'region.name': 'Please enter the region name',
    'region.sort': 'Please enter the region order',
    'region.codeTaken': 'A region with the code {code} already exists',
    'region.codeFixed': 'A region’s code cannot be changed: {code}',
    'region.parentUnknown': 'No parent region with the code {parentCode}',
    'region.cycle': 'Region {code} cannot move under itself or its own subregion {parentCode}',
    'region.hasChildren': 'Delete the subregions first: {codes}',
  },
});

const BASE = '/api/blade-system/region';

/**
 * Regions (spec §3, §7): China's provinces, cities and districts, seeded by the migration from
 * china-area-data. Platform data: every signed-in user reads it (lazy-tree, list, detail),
 * only the platform tenant's holders of its buttons write it.
 */
export const regionContext: ServerContext = {
  name: 'region',
  routes: regionRoutes,
  menus: [
    {
      section: 'system',
      menus: [
        {
          code: 'region',
          name: '行政区划',
          nameEn: 'Regions',
          path: '/base/region',
          icon: 'Map',
          sort: 14,
          platformOnly: true,
          api: [`GET ${BASE}/**`],
          buttons: crud('region', '区划', 'region', [], {
            add: [`POST ${BASE}/submit`],
            edit: [`POST ${BASE}/submit`],
            delete: [`POST ${BASE}/remove`],
          }),
        },
      ],
    },
  ],
};
