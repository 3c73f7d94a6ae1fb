import type { ServerContext } from '../../context';
import { PATH, teacherRoutes } from './teacher-routes';
import { teachers } from './teacher';

/** Teacher master data (issue 19): the builder's calls, then teacherList, GET remove and the Excel calls. */
export const teacherContext: ServerContext = {
  name: 'teacher',
  routes: async (app) => {
    await app.register(teachers);
    await app.register(teacherRoutes);
  },
  menus: [
    {
      section: 'class_center',
      menus: [
        teachers.menu({
          name: '教师档案',
          nameEn: 'Teacher records',
          path: '/teacher/master',
          icon: 'IdBadge2',
          sort: 6,
          resource: 'teacher_master',
          api: [`POST ${PATH}/update`],
          buttons: [
            {
              code: 'teacher_master_import',
              name: '导入',
              nameEn: 'Import',
              api: [`GET ${PATH}/export-template`, `POST ${PATH}/import`, `GET ${PATH}/import-progress`],
            },
            { code: 'teacher_master_export', name: '导出', nameEn: 'Export', api: [`GET ${PATH}/export`] },
          ],
        }),
      ],
    },
  ],
};
