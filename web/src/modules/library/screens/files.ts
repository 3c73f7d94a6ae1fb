import { defineCrud } from '../../../kit/crud';

/** The kind tree (`/file/fileKind/kindTree`): the side tree and the kind select. */
export const KIND_TREE = '/file/fileKind/kindTree';

/**
 * Files (menu `file`, `/file/file`, docs/API.md "File library"): the files of the chosen kind
 * and the kinds below it (`pageByKind?kindId=`), searched by name and uploader; edited (name,
 * kind, tags, remark: `update`, the upload kept), viewed, deleted. Adding is the page's upload
 * dialog (put-file, then `save`), not a form.
 */
export const files = defineCrud({
  code: 'file',
  texts: 'library.file',
  resource: '/file/file',
  testId: 'library-page',
  listPath: 'pageByKind',
  paths: { list: 'pageByKind', submit: 'save', update: 'update' },
  buttons: { edit: 'file_edit', delete: 'file_delete', view: 'file_view' },
  side: { url: KIND_TREE, param: 'kindId', value: 'id', label: 'title', all: 'library.file.allKinds' },
  keep: ['attachId'],
  columns: [
    {
      prop: 'name',
      label: 'library.file.fileName',
      search: true,
      rules: { required: 'library.file.rules.name', max: 255 },
    },
    {
      prop: 'kindId',
      type: 'select',
      hide: true,
      optionsFrom: { url: KIND_TREE, value: 'id', label: 'title' },
      rules: { required: true },
    },
    { prop: 'kindName', form: false, width: 100 },
    { prop: 'extension', form: false, width: 70 },
    { prop: 'size', form: false, width: 120 },
    { prop: 'tags', hide: true, rules: { max: 500 } },
    { prop: 'uploader', form: false, search: true, width: 110 },
    { prop: 'createTime', form: false, width: 165 },
    { prop: 'remark', type: 'textarea', hide: true, rules: { max: 500 } },
  ],
});
