import { lazyNamespace, type WebContext } from '../../app/context';
import { crudPage } from '../../kit/crud/loader';
import type { TeacherMessages } from './i18n/zh-CN';

/** Teacher master data (issue 19): the console screen behind `teacher_master` on the CRUD kit, with Excel. */
export const teacherContext: WebContext<'teacher', TeacherMessages> = {
  name: 'teacher',
  i18n: lazyNamespace('teacher', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')])),
  menuPages: {
    teacher_master: crudPage(() => import('./pages/TeachersPage'), 'TeachersPage'),
  },
};
