import { defineCrud } from '../../../kit/crud';

/** Top menus (platform; `/blade-system/topmenu`, fields as its answer has them). The menu grant dialog is not here yet. */
export const topMenus = defineCrud({
  resource: '/blade-system/topmenu',
  name: 'system.topmenu.name',
  testId: 'topmenus-page',
  buttons: { add: 'topmenu_add', edit: 'topmenu_edit', delete: 'topmenu_delete', view: 'topmenu_view' },
  columns: [
    {
      prop: 'code',
      label: 'system.topmenu.code',
      search: true,
      sortable: true,
      width: 180,
      rules: {
        required: 'system.topmenu.rules.code',
        max: 64,
        pattern: [/^[A-Za-z][A-Za-z0-9_]*$/, 'system.topmenu.rules.codeFormat'],
      },
    },
    {
      prop: 'name',
      label: 'system.topmenu.menuName',
      search: true,
      sortable: true,
      rules: { required: 'system.topmenu.rules.name', max: 100 },
    },
    { prop: 'nameEn', label: 'system.topmenu.nameEn', rules: { max: 100 } },
    { prop: 'source', label: 'system.topmenu.source', width: 200, rules: { max: 64 } },
    {
      prop: 'sort',
      label: 'system.topmenu.sort',
      type: 'number',
      sortable: true,
      width: 110,
      initial: 0,
      rules: { required: 'system.topmenu.rules.sort' },
    },
    { prop: 'createTime', label: 'system.topmenu.createTime', form: false, sortable: true, width: 180 },
  ],
});
