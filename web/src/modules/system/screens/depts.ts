import { choices, defineCrud } from '../../../kit/crud';

/**
 * Departments (menu `dept`, `/system/dept`, docs/API.md "Departments"): the tenant's depts in
 * the caller's data scope as a tree read one level at a time (`lazy-list?parentId=`, the top
 * level without it); a row adds a dept under it (its `parentId` prefilled), edits or deletes it.
 */
export const depts = defineCrud({
  code: 'dept',
  texts: 'system.dept',
  tree: { path: 'lazy-list', param: 'parentId', prefill: { parentId: 'id' } },
  columns: [
    { prop: 'deptName', rules: { required: true, max: 64 } },
    // Fixed widths after the first column keep the levels' columns in line.
    { prop: 'fullName', width: 320, rules: { max: 255 } },
    {
      prop: 'deptCategory',
      type: 'select',
      width: 110,
      initial: 3,
      options: choices('system.dept.category', ['company', 'department', 'group']),
      rules: { required: true },
    },
    { prop: 'sort', type: 'number', width: 90, initial: 0, rules: { required: true } },
    // Empty: a top dept (the server reads it as `0`).
    {
      prop: 'parentId',
      type: 'select',
      hide: true,
      optionsFrom: { url: '/blade-system/dept/tree', value: 'id', label: 'title' },
    },
    { prop: 'remark', type: 'textarea', hide: true, rules: { max: 255 } },
  ],
});
