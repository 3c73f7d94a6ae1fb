import { defineCrud } from '../../../kit/crud';

export const STATUSES = [
  { value: 'running', label: 'library.identify.statuses.running' },
  { value: 'success', label: 'library.identify.statuses.success' },
  { value: 'failed', label: 'library.identify.statuses.failed' },
] as const;

/**
 * Text recognition (menu `file_identify`, `/file/fileidentify`): a row per recognised library
 * file, its status and why it failed; the page adds "recognise a file" and the text's dialog.
 */
export const identifications = defineCrud({
  code: 'file_identify',
  texts: 'library.identify',
  resource: '/t_file_identify/fileidentify',
  buttons: { delete: 'file_identify_delete' },
  columns: [
    { prop: 'fileName', search: true, form: false },
    {
      prop: 'status',
      type: 'select',
      search: true,
      form: false,
      width: 100,
      options: STATUSES,
      badges: { running: 'blue', success: 'green', failed: 'red' },
    },
    { prop: 'pages', form: false, width: 120 },
    { prop: 'error', form: false, width: 280 },
    { prop: 'createTime', form: false, width: 170 },
    { prop: 'finishTime', form: false, width: 170 },
  ],
});
