import { choices, defineCrud } from '../../../kit/crud';

/** A lookup of the spec (§3) as the business dictionary its codes are the keys of. */
const lookup = (code: string) => ({ code, biz: true }) as const;

/**
 * Teacher master data (`/teacher/master`, DOMAIN.md 教师档案): every field, the enumerations
 * from the business dictionaries, the account, dept and post as selects.
 */
export const teachers = defineCrud({
  code: 'teacher_master',
  texts: 'teacher',
  resource: '/teacher/master',
  paths: { update: 'update' },
  testId: 'teachers-page',
  columns: [
    { prop: 'teacherNo', search: true, sortable: true, width: 110, rules: { required: true, max: 32 } },
    {
      prop: 'name',
      label: 'teacher.teacherName',
      search: true,
      sortable: true,
      width: 100,
      rules: { required: true, max: 64 },
    },
    {
      prop: 'userId',
      type: 'select',
      hide: true,
      optionsFrom: { url: '/blade-user/page', params: { current: 1, size: 500 }, value: 'id', label: 'realName' },
    },
    { prop: 'gender', type: 'select', width: 70, options: choices('teacher.genders', ['male', 'female']) },
    { prop: 'birthDate', type: 'date', hide: true },
    { prop: 'ethnicity', type: 'select', hide: true, dict: lookup('ethnic') },
    { prop: 'staffing', type: 'select', search: true, width: 90, dict: lookup('staffing') },
    { prop: 'politicalStatus', type: 'select', width: 100, dict: lookup('political') },
    { prop: 'education', type: 'select', search: true, width: 90, dict: lookup('education') },
    { prop: 'major', hide: true, rules: { max: 64 } },
    { prop: 'graduateSchool', hide: true, rules: { max: 128 } },
    { prop: 'teacherCertificate', type: 'select', width: 100, dict: lookup('yes_no') },
    { prop: 'socialWorkQualification', type: 'select', hide: true, dict: lookup('social_work') },
    { prop: 'mandarinLevel', type: 'select', width: 110, dict: lookup('mandarin') },
    { prop: 'professionalTitle', width: 110, rules: { max: 64 } },
    { prop: 'hireDate', type: 'date', width: 110 },
    { prop: 'phone', width: 120, rules: { pattern: [/^1[3-9]\d{9}$/, 'teacher.rules.phone'] } },
    {
      prop: 'deptId',
      type: 'select',
      search: true,
      hide: true,
      optionsFrom: { url: '/blade-system/dept/tree', value: 'id', label: 'title' },
    },
    {
      prop: 'postId',
      type: 'select',
      hide: true,
      optionsFrom: { url: '/blade-system/post/select', value: 'id', label: 'postName' },
    },
    { prop: 'remark', type: 'textarea', hide: true, rules: { max: 500 } },
  ],
});
