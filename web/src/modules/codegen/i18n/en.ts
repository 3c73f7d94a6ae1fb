import type { CodegenMessages } from './zh-CN';

export const en: CodegenMessages = {
  code: {
    empty:
      'No generator configuration yet: choose Add, fill in the module name, table and module code, then pick it under Generate code to preview or download.',
    name: 'generator configuration',
    codeName: 'Module name',
    datasourceId: 'Data source (0: the main database)',
    tableName: 'Table',
    moduleName: 'Module code',
    menuParent: 'Parent menu',
    treeMode: 'Form',
    listColumns: 'Columns listed (comma-separated; empty: all)',
    searchColumns: 'Columns searched (comma-separated)',
    editColumns: 'Columns edited (comma-separated; empty: all)',
    remark: 'Remark',
    createTime: 'Created',
    modes: { list: 'List', tree: 'Tree' },
    rules: {
      codeName: 'Please enter the module name',
      tableName: 'Please enter the table',
      tableFormat: 'Lower-case letters, digits and underscores, starting with a letter',
      moduleName: 'Please enter the module code',
      moduleFormat: 'Lower-case letters and digits, starting with a letter',
      menuParent: 'Please choose the parent menu',
    },
  },
  gen: {
    title: 'Generate code',
    pick: 'Configuration',
    preview: 'Preview',
    download: 'Download zip',
    edits: 'Then add one line to each shared file',
    after: 'after this line',
  },
};
