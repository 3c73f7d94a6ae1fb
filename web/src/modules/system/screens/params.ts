import { defineCrud } from '../../../kit/crud';

/** Parameters (spec §3 Parameter, §5 parameter form, §7 `/blade-system/param`). */
export const params = defineCrud({
  code: 'param',
  texts: 'system.param',
  testId: 'params-page',
  columns: [
    { prop: 'paramName', search: true, sortable: true, rules: { required: true } },
    { prop: 'paramKey', search: true, sortable: true, rules: { required: true } },
    { prop: 'paramValue', type: 'textarea', rules: { required: true } },
    { prop: 'remark', type: 'textarea', hide: true },
  ],
});
