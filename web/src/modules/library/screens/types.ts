import { defineCrud } from '../../../kit/crud';

/** File types (menu `file_type`, `/file/filetype`): what the library takes — extensions and the largest size. */
export const types = defineCrud({
  code: 'file_type',
  texts: 'library.type',
  resource: '/file/filetype',
  columns: [
    { prop: 'typeName', search: true, rules: { required: true, max: 64 } },
    { prop: 'extensions', search: true, width: 240, rules: { required: true, max: 255 } },
    { prop: 'maxSize', type: 'number', width: 150, initial: 10, rules: { required: true } },
    { prop: 'remark', rules: { max: 255 } },
    { prop: 'createTime', form: false, width: 170 },
  ],
});
