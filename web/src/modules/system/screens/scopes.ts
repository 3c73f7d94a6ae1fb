import { type CrudColumnInput, defineCrud, choices } from '../../../kit/crud';

/** The menu a scope hangs under: a select of the catalogue's menus, and the list's filter. */
const menuColumn: CrudColumnInput = {
  prop: 'menuId',
  type: 'select',
  search: true,
  hide: true,
  optionsFrom: { url: '/blade-system/menu/tree', value: 'id', label: 'title' },
  rules: { required: 'system.scope.rules.menuId' },
};

const scopeName: CrudColumnInput = {
  prop: 'scopeName',
  search: true,
  sortable: true,
  width: 200,
  rules: { required: 'system.scope.rules.scopeName', max: 100 },
};

const remark: CrudColumnInput = {
  prop: 'remark',
  type: 'textarea',
  hide: true,
  rules: { max: 255 },
};

/** Data scopes (platform; `/blade-system/data-scope`, listed by `menuId`): who sees which rows and fields of a resource. */
export const dataScopes = defineCrud({
  code: 'data_scope',
  texts: 'system.scope',
  resource: '/blade-system/data-scope',
  name: 'system.scope.dataName',
  testId: 'data-scopes-page',
  columns: [
    menuColumn,
    scopeName,
    {
      prop: 'resourceCode',
      search: true,
      sortable: true,
      width: 140,
      rules: { required: 'system.scope.rules.resourceCode', max: 64 },
    },
    {
      prop: 'scopeType',
      type: 'select',
      width: 170,
      initial: 1,
      options: choices('system.scope.dataTypes', ['all', 'own', 'dept', 'deptTree', 'custom', 'classes']),
      rules: { required: 'system.scope.rules.scopeType' },
    },
    { prop: 'scopeColumn', width: 140, rules: { max: 64 } },
    { prop: 'scopeField', initial: '*', rules: { max: 1000 } },
    { prop: 'scopeValue', hide: true, rules: { max: 2000 } },
    remark,
  ],
});

/** API scopes (platform; `/blade-system/api-scope`, listed by `menuId`): the calls a menu or button allows. */
export const apiScopes = defineCrud({
  code: 'api_scope',
  texts: 'system.scope',
  resource: '/blade-system/api-scope',
  name: 'system.scope.apiName',
  testId: 'api-scopes-page',
  columns: [
    menuColumn,
    scopeName,
    {
      prop: 'scopePath',
      rules: {
        required: 'system.scope.rules.scopePath',
        max: 255,
        pattern: [/^(\*|GET|POST|PUT|DELETE|PATCH) \/api\/[A-Za-z0-9_\-/*.:]+$/, 'system.scope.rules.scopePathFormat'],
      },
    },
    { prop: 'resourceCode', search: true, width: 140, rules: { max: 64 } },
    {
      prop: 'scopeType',
      type: 'select',
      width: 120,
      initial: 2,
      options: choices('system.scope.apiTypes', ['system', 'business']),
      rules: { required: 'system.scope.rules.scopeType' },
    },
    remark,
  ],
});
