import { choices, defineCrud } from '../../../kit/crud';

const SECTIONS = [
  'system',
  'resource',
  'desk',
  'lesson',
  'observe',
  'growth_center',
  'class_center',
  'library',
  'work',
  'flow',
  'log',
];

/** 代码生成 (spec §7 `/blade-develop/code`): the generator's configurations. */
export const codeConfigs = defineCrud({
  code: 'code',
  resource: '/blade-develop/code',
  texts: 'codegen.code',
  testId: 'code-page',
  empty: 'codegen.code.empty',
  columns: [
    { prop: 'codeName', search: true, rules: { required: true, max: 64 } },
    { prop: 'datasourceId', hide: true, initial: '0' },
    {
      prop: 'tableName',
      search: true,
      rules: { required: true, max: 63, pattern: [/^[a-z][a-z0-9_]*$/, 'codegen.code.rules.tableFormat'] },
    },
    {
      prop: 'moduleName',
      search: true,
      rules: { required: true, max: 31, pattern: [/^[a-z][a-z0-9]+$/, 'codegen.code.rules.moduleFormat'] },
    },
    {
      prop: 'menuParent',
      type: 'select',
      options: SECTIONS.map((value) => ({ value, label: `menu.${value}` })),
      rules: { required: true },
    },
    { prop: 'treeMode', type: 'select', initial: 0, options: choices('codegen.code.modes', ['list', 'tree'], 0) },
    { prop: 'listColumns', hide: true },
    { prop: 'searchColumns', hide: true },
    { prop: 'editColumns', hide: true },
    { prop: 'remark', type: 'textarea', hide: true, rules: { max: 255 } },
    { prop: 'createTime', form: false, width: 180 },
  ],
});
