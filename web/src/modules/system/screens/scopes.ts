import { type CrudColumn, defineCrud } from '../../../kit/crud';

/** The menu a scope hangs under: a select of the catalogue's menus, and the list's filter. */
const menuColumn: CrudColumn = {
  prop: 'menuId',
  label: 'system.scope.menuId',
  type: 'select',
  search: true,
  hide: true,
  optionsFrom: { url: '/blade-system/menu/tree', value: 'id', label: 'title' },
  rules: { required: 'system.scope.rules.menuId' },
};

const scopeName: CrudColumn = {
  prop: 'scopeName',
  label: 'system.scope.scopeName',
  search: true,
  sortable: true,
  width: 200,
  rules: { required: 'system.scope.rules.scopeName', max: 100 },
};

const remark: CrudColumn = {
  prop: 'remark',
  label: 'system.scope.remark',
  type: 'textarea',
  hide: true,
  rules: { max: 255 },
};

/** Data scopes (platform; `/blade-system/data-scope`, listed by `menuId`): who sees which rows and fields of a resource. */
export const dataScopes = defineCrud({
  resource: '/blade-system/data-scope',
  name: 'system.scope.dataName',
  testId: 'data-scopes-page',
  buttons: { add: 'data_scope_add', edit: 'data_scope_edit', delete: 'data_scope_delete', view: 'data_scope_view' },
  columns: [
    menuColumn,
    scopeName,
    {
      prop: 'resourceCode',
      label: 'system.scope.resourceCode',
      search: true,
      sortable: true,
      width: 140,
      rules: { required: 'system.scope.rules.resourceCode', max: 64 },
    },
    {
      prop: 'scopeType',
      label: 'system.scope.scopeType',
      type: 'select',
      width: 170,
      initial: 1,
      options: [
        { value: 1, label: 'system.scope.dataTypes.all' },
        { value: 2, label: 'system.scope.dataTypes.own' },
        { value: 3, label: 'system.scope.dataTypes.dept' },
        { value: 4, label: 'system.scope.dataTypes.deptTree' },
        { value: 5, label: 'system.scope.dataTypes.custom' },
        { value: 6, label: 'system.scope.dataTypes.classes' },
      ],
      rules: { required: 'system.scope.rules.scopeType' },
    },
    { prop: 'scopeColumn', label: 'system.scope.scopeColumn', width: 140, rules: { max: 64 } },
    { prop: 'scopeField', label: 'system.scope.scopeField', initial: '*', rules: { max: 1000 } },
    { prop: 'scopeValue', label: 'system.scope.scopeValue', hide: true, rules: { max: 2000 } },
    remark,
  ],
});

/** API scopes (platform; `/blade-system/api-scope`, listed by `menuId`): the calls a menu or button allows. */
export const apiScopes = defineCrud({
  resource: '/blade-system/api-scope',
  name: 'system.scope.apiName',
  testId: 'api-scopes-page',
  buttons: { add: 'api_scope_add', edit: 'api_scope_edit', delete: 'api_scope_delete', view: 'api_scope_view' },
  columns: [
    menuColumn,
    scopeName,
    {
      prop: 'scopePath',
      label: 'system.scope.scopePath',
      rules: {
        required: 'system.scope.rules.scopePath',
        max: 255,
        pattern: [/^(\*|GET|POST|PUT|DELETE|PATCH) \/api\/[A-Za-z0-9_\-/*.:]+$/, 'system.scope.rules.scopePathFormat'],
      },
    },
    { prop: 'resourceCode', label: 'system.scope.resourceCode', search: true, width: 140, rules: { max: 64 } },
    {
      prop: 'scopeType',
      label: 'system.scope.scopeType',
      type: 'select',
      width: 120,
      initial: 2,
      options: [
        { value: 1, label: 'system.scope.apiTypes.system' },
        { value: 2, label: 'system.scope.apiTypes.business' },
      ],
      rules: { required: 'system.scope.rules.scopeType' },
    },
    remark,
  ],
});
