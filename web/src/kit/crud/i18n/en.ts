import type { CrudMessages } from './zh-CN';

export const en: CrudMessages = {
  search: {
    submit: 'Search',
    reset: 'Reset',
    placeholder: 'Enter {{lower}}',
    selectPlaceholder: 'Choose {{lower}}',
  },
  actions: {
    title: 'Actions',
    add: 'Add',
    edit: 'Edit',
    view: 'View',
    delete: 'Delete',
    batchDelete: 'Delete selected',
    refresh: 'Refresh',
  },
  dialog: {
    add: 'Add {{name}}',
    edit: 'Edit {{name}}',
    view: 'View {{name}}',
    save: 'Save',
    update: 'Update',
    cancel: 'Cancel',
    close: 'Close',
    loadFailed: 'The record could not be loaded. Close and try again.',
  },
  confirm: {
    title: 'Confirm',
    deleteSelected: 'Delete the selected rows?',
    deleteOne: 'Delete this row?',
    ok: 'Delete',
    cancel: 'Cancel',
  },
  notify: {
    selectFirst: 'Please select at least one row',
    added: 'Added',
    updated: 'Updated',
    deleted: 'Deleted',
  },
  table: {
    empty: 'No data',
    loading: 'Loading…',
    pageSize: 'Rows per page',
    range: '{{from}}–{{to}} of {{total}}',
    selected: '{{count}} selected',
    clearSelection: 'Clear',
  },
  validation: {
    max: 'At most {{max}} characters',
    select: 'Choose one',
  },
};
