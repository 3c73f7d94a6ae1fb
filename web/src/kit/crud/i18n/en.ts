import type { CrudMessages } from './zh-CN';

export const en: CrudMessages = {
  search: {
    submit: 'Search',
    reset: 'Reset',
    placeholder: 'Enter {{lower}}',
    selectPlaceholder: 'Choose {{lower}}',
    rangePlaceholder: 'From date ~ to date',
  },
  actions: {
    title: 'Actions',
    add: 'Add',
    edit: 'Edit',
    view: 'View',
    delete: 'Delete',
    batchDelete: 'Delete selected',
    refresh: 'Refresh',
    addUnder: 'Add below',
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
    done: 'Done',
  },
  table: {
    empty: 'No data',
    loading: 'Loading…',
    pageSize: 'Rows per page',
    range: '{{from}}–{{to}} of {{total}}',
    selected: '{{count}} selected',
    clearSelection: 'Clear',
  },
  secret: {
    title: 'Save the secret',
    record: 'For the {{label}}',
    warnTitle: 'This secret is shown only once',
    warn: 'Once this window is closed the secret cannot be shown again (the server keeps only its hash). Copy it now and keep it safe; if it is lost, it can only be reset.',
    copy: 'Copy',
    copied: 'Copied',
    done: 'I have saved it',
  },
  children: {
    choose: 'Choose a dictionary on the left (or above)',
  },
  icon: {
    search: 'Search icons',
    clear: 'Clear the icon',
    none: 'No icon matches',
  },
  tree: {
    expand: 'Expand',
    collapse: 'Collapse',
  },
  validation: {
    max: 'At most {{max}} characters',
    select: 'Choose one',
  },
};
