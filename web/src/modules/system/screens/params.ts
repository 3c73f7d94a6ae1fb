import { defineCrud } from '../../../kit/crud';

/** Parameters (spec §3 Parameter, §5 parameter form, §7 `/blade-system/param`). */
export const params = defineCrud({
  resource: '/blade-system/param',
  name: 'system.param.name',
  testId: 'params-page',
  buttons: { add: 'param_add', edit: 'param_edit', delete: 'param_delete', view: 'param_view' },
  columns: [
    {
      prop: 'paramName',
      label: 'system.param.paramName',
      search: true,
      sortable: true,
      rules: { required: 'system.param.rules.paramName' },
    },
    {
      prop: 'paramKey',
      label: 'system.param.paramKey',
      search: true,
      sortable: true,
      rules: { required: 'system.param.rules.paramKey' },
    },
    {
      prop: 'paramValue',
      label: 'system.param.paramValue',
      type: 'textarea',
      rules: { required: 'system.param.rules.paramValue' },
    },
    { prop: 'remark', label: 'system.param.remark', type: 'textarea', hide: true },
  ],
});
