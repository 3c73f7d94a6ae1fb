import { defineCrud } from '../../../kit/crud';

/** Top menus (platform; `/blade-system/topmenu`, fields as its answer has them); the menus each shows: pages/TopMenuGrantDialog.tsx. */
export const topMenus = defineCrud({
  code: 'topmenu',
  texts: 'system.topmenu',
  testId: 'topmenus-page',
  columns: [
    {
      prop: 'code',
      search: true,
      sortable: true,
      width: 180,
      rules: {
        required: true,
        max: 64,
        pattern: [/^[A-Za-z][A-Za-z0-9_]*$/, 'system.topmenu.rules.codeFormat'],
      },
    },
    {
      prop: 'name',
      label: 'system.topmenu.menuName',
      search: true,
      sortable: true,
      rules: { required: true, max: 100 },
    },
    { prop: 'nameEn', rules: { max: 100 } },
    { prop: 'source', width: 200, rules: { max: 64 } },
    { prop: 'sort', type: 'number', sortable: true, width: 110, initial: 0, rules: { required: true } },
    { prop: 'createTime', form: false, sortable: true, width: 180 },
  ],
});
