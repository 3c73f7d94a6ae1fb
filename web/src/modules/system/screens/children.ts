import { defineCrud, choices } from '../../../kit/crud';

/**
 * Children (`/student/student`, the caller's `student` data scope; its calls are named
 * `listStudents`, `saveStudent`, `updateStudent`, `removeStudent`). The class is a select of
 * the classes the caller sees.
 */
export const children = defineCrud({
  code: 'student',
  texts: 'system.student',
  resource: '/student/student',
  paths: { list: 'listStudents', submit: 'saveStudent', update: 'updateStudent', remove: 'removeStudent' },
  testId: 'children-page',
  columns: [
    {
      prop: 'name',
      label: 'system.student.childName',
      search: true,
      sortable: true,
      width: 120,
      rules: { required: true, max: 64 },
    },
    {
      prop: 'gender',
      type: 'select',
      search: true,
      width: 80,
      options: choices('system.student.genders', ['boy', 'girl']),
      rules: { required: true },
    },
    { prop: 'birthDate', type: 'date', sortable: true, width: 110 },
    {
      prop: 'classId',
      type: 'select',
      search: true,
      hide: true,
      optionsFrom: { url: '/clazz/classinfo/list', params: { current: 1, size: 200 }, value: 'id', label: 'name' },
      rules: { required: 'system.student.rules.classId' },
    },
    { prop: 'className', form: false, sortable: true, width: 100 },
    { prop: 'studentNo', search: true, sortable: true, width: 110, rules: { max: 32 } },
    { prop: 'enrollDate', type: 'date', hide: true },
    { prop: 'guardianName', width: 100, rules: { max: 64 } },
    { prop: 'guardianPhone', width: 130, rules: { pattern: [/^1[3-9]\d{9}$/, 'system.student.rules.phone'] } },
    {
      prop: 'status',
      type: 'select',
      search: true,
      width: 90,
      initial: 1,
      options: choices('system.student.statuses', ['enrolled', 'left']),
    },
    { prop: 'notes', type: 'textarea', hide: true, rules: { max: 500 } },
  ],
});
