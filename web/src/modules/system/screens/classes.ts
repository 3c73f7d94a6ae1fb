import { defineCrud, choices } from '../../../kit/crud';

/**
 * Classes (`/clazz/classinfo`, the caller's `clazz` data scope): the department from the
 * department tree; the teachers are shown, not chosen here (an edit keeps them as they were).
 */
export const classes = defineCrud({
  code: 'clazz',
  texts: 'system.clazz',
  resource: '/clazz/classinfo',
  testId: 'classes-page',
  keep: ['headTeacherId', 'teacherIds', 'caregiverId'],
  columns: [
    { prop: 'name', label: 'system.clazz.className', search: true, sortable: true, rules: { required: true, max: 64 } },
    {
      prop: 'grade',
      type: 'select',
      search: true,
      sortable: true,
      width: 100,
      initial: 2,
      options: choices('system.clazz.grades', ['nursery', 'junior', 'middle', 'senior']),
      rules: { required: true },
    },
    {
      prop: 'schoolYear',
      search: true,
      sortable: true,
      width: 120,
      rules: {
        required: 'system.clazz.rules.schoolYear',
        pattern: [/^\d{4}-\d{4}$/, 'system.clazz.rules.schoolYearFormat'],
      },
    },
    {
      prop: 'deptId',
      type: 'select',
      hide: true,
      optionsFrom: { url: '/blade-system/dept/tree', value: 'id', label: 'title' },
    },
    { prop: 'deptName', form: false, width: 160 },
    { prop: 'headTeacherName', form: false, width: 110 },
    { prop: 'room', width: 100, rules: { max: 64 } },
    { prop: 'capacity', type: 'number', sortable: true, width: 90 },
    { prop: 'studentCount', form: false, sortable: true, width: 100 },
    { prop: 'remark', type: 'textarea', hide: true, rules: { max: 255 } },
  ],
});
