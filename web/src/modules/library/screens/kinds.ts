import { defineCrud } from '../../../kit/crud';
import { KIND_TREE } from './files';

/**
 * Kinds (menu `file_kind`, `/file/fileKind`): the library's category tree, answered whole
 * (`kindTree`), a row adding a kind under it; a kind keeping subcategories or files is not
 * deleted (the server names how many).
 */
export const kinds = defineCrud({
  code: 'file_kind',
  texts: 'library.kind',
  resource: '/file/fileKind',
  tree: { path: 'kindTree', param: 'parentId', prefill: { parentId: 'id' }, whole: true },
  columns: [
    { prop: 'kindName', rules: { required: true, max: 64 } },
    { prop: 'sort', type: 'number', width: 110, initial: 0, rules: { required: true } },
    // Empty: a top kind (the server reads it as `0`).
    { prop: 'parentId', type: 'select', hide: true, optionsFrom: { url: KIND_TREE, value: 'id', label: 'title' } },
    { prop: 'remark', width: 260, rules: { max: 255 } },
  ],
});
