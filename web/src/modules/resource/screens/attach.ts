import { defineCrud } from '../../../kit/crud';

/**
 * Attachments (`/resource/attach`): every stored file of the tenant, searchable by name and
 * type; the page draws the thumbnail and size cells, the download and upload buttons. No add or
 * edit: files arrive by upload. A delete of a file in use is refused by the server, naming where.
 */
export const attach = defineCrud({
  code: 'attach',
  resource: '/blade-resource/attach',
  texts: 'resource.attach',
  testId: 'attach-page',
  buttons: { delete: 'attach_delete' },
  columns: [
    { prop: 'thumbLink', form: false, width: 90 },
    { prop: 'originalName', search: true, form: false },
    {
      prop: 'extension',
      type: 'select',
      search: true,
      form: false,
      width: 100,
      options: ['jpg', 'png', 'gif', 'webp', 'pdf', 'docx', 'xlsx', 'pptx', 'txt', 'mp4', 'webm', 'mp3', 'zip'].map(
        (value) => ({ value, text: value }),
      ),
    },
    { prop: 'attachSize', form: false, width: 110 },
    { prop: 'uploader', form: false, width: 120 },
    { prop: 'createTime', form: false, width: 170 },
  ],
});
