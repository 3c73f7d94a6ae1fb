import { defineCrud, nowText } from '../../../kit/crud';

/**
 * Notices (spec §7 `/blade-desk/notice`): title, category (the business dictionary `notice`),
 * release time (picked, now by default; the list searches a range of days), audience (the whole kindergarten or depts from the dept tree), rich content.
 */
export const notices = defineCrud({
  code: 'notice',
  resource: '/blade-desk/notice',
  texts: 'notice',
  testId: 'notices-page',
  columns: [
    { prop: 'title', search: true, rules: { required: true, max: 255 } },
    {
      prop: 'category',
      type: 'select',
      search: true,
      width: 120,
      dict: { code: 'notice', biz: true },
      rules: { required: true },
    },
    {
      prop: 'releaseTime',
      type: 'datetime',
      search: 'range',
      initial: nowText,
      width: 180,
      sortable: true,
      rules: { pattern: [/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/, 'notice.rules.releaseTimeFormat'] },
    },
    {
      prop: 'audience',
      type: 'select',
      width: 150,
      initial: 'tenant',
      options: [
        { value: 'tenant', label: 'notice.audiences.tenant' },
        { value: 'depts', label: 'notice.audiences.depts' },
      ],
      badges: { tenant: 'blue', depts: 'grape' },
      rules: { required: true },
    },
    { prop: 'deptNames', form: false, width: 200 },
    {
      prop: 'deptIds',
      type: 'multiselect',
      hide: true,
      optionsFrom: { url: '/blade-system/dept/tree', value: 'id', label: 'title' },
    },
    { prop: 'content', type: 'rich', hide: true, rules: { max: 200_000 } },
    { prop: 'createTime', form: false, hide: true },
  ],
});
