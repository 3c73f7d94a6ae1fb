import { defineCrud } from '../../../kit/crud';

/**
 * Children (`/student/student`, the caller's `student` data scope; its calls are named
 * `listStudents`, `saveStudent`, `updateStudent`, `removeStudent`). The class is a select of
 * the classes the caller sees.
 */
export const children = defineCrud({
  resource: '/student/student',
  paths: { list: 'listStudents', submit: 'saveStudent', update: 'updateStudent', remove: 'removeStudent' },
  name: 'system.student.name',
  testId: 'children-page',
  buttons: { add: 'student_add', edit: 'student_edit', delete: 'student_delete', view: 'student_view' },
  columns: [
    {
      prop: 'name',
      label: 'system.student.childName',
      search: true,
      sortable: true,
      width: 120,
      rules: { required: 'system.student.rules.name', max: 64 },
    },
    {
      prop: 'gender',
      label: 'system.student.gender',
      type: 'select',
      search: true,
      width: 80,
      options: [
        { value: 1, label: 'system.student.genders.boy' },
        { value: 2, label: 'system.student.genders.girl' },
      ],
      rules: { required: 'system.student.rules.gender' },
    },
    { prop: 'birthDate', label: 'system.student.birthDate', type: 'date', sortable: true, width: 110 },
    {
      prop: 'classId',
      label: 'system.student.classId',
      type: 'select',
      search: true,
      hide: true,
      optionsFrom: { url: '/clazz/classinfo/list', params: { current: 1, size: 200 }, value: 'id', label: 'name' },
      rules: { required: 'system.student.rules.classId' },
    },
    { prop: 'className', label: 'system.student.className', form: false, sortable: true, width: 100 },
    {
      prop: 'studentNo',
      label: 'system.student.studentNo',
      search: true,
      sortable: true,
      width: 110,
      rules: { max: 32 },
    },
    { prop: 'enrollDate', label: 'system.student.enrollDate', type: 'date', hide: true },
    { prop: 'guardianName', label: 'system.student.guardianName', width: 100, rules: { max: 64 } },
    {
      prop: 'guardianPhone',
      label: 'system.student.guardianPhone',
      width: 130,
      rules: { pattern: [/^1[3-9]\d{9}$/, 'system.student.rules.phone'] },
    },
    {
      prop: 'status',
      label: 'system.student.status',
      type: 'select',
      search: true,
      width: 90,
      initial: 1,
      options: [
        { value: 1, label: 'system.student.statuses.enrolled' },
        { value: 2, label: 'system.student.statuses.left' },
      ],
    },
    { prop: 'notes', label: 'system.student.notes', type: 'textarea', hide: true, rules: { max: 500 } },
  ],
});
