import { crud } from '@sprout/core/permissions/catalog';
import type { ServerContext } from '../../context';
import { growthRoutes, PATH } from './growth-routes';

/** The growth archive (issue 19): a teacher's own entries and what the platform knows of her. */
export const growthContext: ServerContext = {
  name: 'growth',
  routes: growthRoutes,
  menus: [
    {
      section: 'growth_center',
      menus: [
        {
          code: 'growth',
          name: '成长档案',
          nameEn: 'Growth archive',
          path: '/growth/teacher',
          icon: 'Plant2',
          sort: 4,
          resource: 'growth',
          api: [`GET ${PATH}/**`],
          buttons: crud('growth', '成长记录', 'growth entry', [], {
            add: [`POST ${PATH}/submit`, `POST ${PATH}/submitAll`],
            edit: [`POST ${PATH}/submit`, `POST ${PATH}/updateAll`],
            delete: [`POST ${PATH}/remove`],
          }),
        },
      ],
    },
  ],
};
