import { defineCrud } from '../../../kit/crud';

/** Posts (spec §7 `/blade-system/post`; fields as the API's post answer has them). */
export const posts = defineCrud({
  resource: '/blade-system/post',
  name: 'system.post.name',
  testId: 'posts-page',
  buttons: { add: 'post_add', edit: 'post_edit', delete: 'post_delete', view: 'post_view' },
  columns: [
    {
      prop: 'category',
      label: 'system.post.category',
      type: 'select',
      search: true,
      width: 120,
      initial: 3,
      options: [
        { value: 1, label: 'system.post.categories.senior' },
        { value: 2, label: 'system.post.categories.middle' },
        { value: 3, label: 'system.post.categories.basic' },
        { value: 4, label: 'system.post.categories.other' },
      ],
      rules: { required: 'system.post.rules.category' },
    },
    {
      prop: 'postCode',
      label: 'system.post.postCode',
      search: true,
      sortable: true,
      editable: false,
      rules: {
        required: 'system.post.rules.postCode',
        max: 64,
        pattern: [/^[A-Za-z][A-Za-z0-9_]*$/, 'system.post.rules.postCodeFormat'],
      },
    },
    {
      prop: 'postName',
      label: 'system.post.postName',
      search: true,
      sortable: true,
      rules: { required: 'system.post.rules.postName', max: 64 },
    },
    {
      prop: 'sort',
      label: 'system.post.sort',
      type: 'number',
      sortable: true,
      width: 110,
      initial: 0,
      rules: { required: 'system.post.rules.sort' },
    },
    { prop: 'remark', label: 'system.post.remark', type: 'textarea', hide: true, rules: { max: 255 } },
    { prop: 'createTime', label: 'system.post.createTime', form: false, sortable: true, width: 180 },
  ],
});
