import { defineCrud, choices } from '../../../kit/crud';

/** Posts (spec §7 `/blade-system/post`; fields as the API's post answer has them). */
export const posts = defineCrud({
  code: 'post',
  texts: 'system.post',
  testId: 'posts-page',
  columns: [
    {
      prop: 'category',
      type: 'select',
      search: true,
      width: 120,
      initial: 3,
      options: choices('system.post.categories', ['senior', 'middle', 'basic', 'other']),
      rules: { required: true },
    },
    {
      prop: 'postCode',
      search: true,
      sortable: true,
      editable: false,
      rules: {
        required: true,
        max: 64,
        pattern: [/^[A-Za-z][A-Za-z0-9_]*$/, 'system.post.rules.postCodeFormat'],
      },
    },
    { prop: 'postName', search: true, sortable: true, rules: { required: true, max: 64 } },
    { prop: 'sort', type: 'number', sortable: true, width: 110, initial: 0, rules: { required: true } },
    { prop: 'remark', type: 'textarea', hide: true, rules: { max: 255 } },
    { prop: 'createTime', form: false, sortable: true, width: 180 },
  ],
});
