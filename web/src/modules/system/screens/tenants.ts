import { defineCrud, choices } from '../../../kit/crud';

const EXPIRE_TIME = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/;

/**
 * Tenants (platform only; `/blade-system/tenant`): a tenant is keyed by its six-digit
 * `tenantId`, which the server gives a new one. The licence (account quota, expiry) and the
 * domain are fields of the form, as the API's submit takes them; the licence of the selected
 * tenants also through `setting` (button `tenant_setting`), a tenant's data source through
 * `datasource` (button `tenant_datasource`: a data source's id, empty for the main database; the server moves the tenant's data as a job).
 */
export const tenants = defineCrud({
  resource: '/blade-system/tenant',
  name: 'system.tenant.name',
  testId: 'tenants-page',
  rowKey: 'tenantId',
  buttons: { add: 'tenant_add', edit: 'tenant_edit', delete: 'tenant_delete', view: 'tenant_view' },
  formActions: [
    {
      key: 'setting',
      path: 'setting',
      button: 'tenant_setting',
      label: 'system.tenant.setting',
      scope: 'selection',
      idParam: 'ids',
      columns: [
        {
          prop: 'accountNumber',
          label: 'system.tenant.accountNumber',
          type: 'number',
          initial: -1,
          rules: { required: 'system.tenant.rules.accountNumber' },
        },
        {
          prop: 'expireTime',
          label: 'system.tenant.expireTime',
          rules: { pattern: [EXPIRE_TIME, 'system.tenant.rules.expireTime'] },
        },
      ],
    },
    {
      key: 'datasource',
      path: 'datasource',
      button: 'tenant_datasource',
      label: 'system.tenant.datasource',
      scope: 'row',
      idParam: 'tenantId',
      icon: 'database',
      columns: [
        {
          prop: 'datasourceId',
          label: 'system.tenant.datasourceId',
          type: 'number',
          rules: { pattern: [/^[1-9]\d{0,18}$/, 'system.tenant.rules.datasourceId'] },
        },
      ],
    },
  ],
  columns: [
    { prop: 'tenantId', label: 'system.tenant.tenantId', search: true, sortable: true, width: 100, form: false },
    {
      prop: 'tenantName',
      label: 'system.tenant.tenantName',
      search: true,
      sortable: true,
      rules: { required: 'system.tenant.rules.tenantName', max: 100 },
    },
    { prop: 'linkman', label: 'system.tenant.linkman', width: 100, rules: { max: 50 } },
    { prop: 'contactNumber', label: 'system.tenant.contactNumber', hide: true, rules: { max: 30 } },
    {
      prop: 'domain',
      label: 'system.tenant.domain',
      width: 150,
      rules: { max: 255, pattern: [/^[A-Za-z0-9.-]*$/, 'system.tenant.rules.domain'] },
    },
    {
      prop: 'accountNumber',
      label: 'system.tenant.accountNumber',
      type: 'number',
      sortable: true,
      width: 130,
      initial: -1,
      rules: { required: 'system.tenant.rules.accountNumber' },
    },
    {
      prop: 'expireTime',
      label: 'system.tenant.expireTime',
      sortable: true,
      width: 160,
      rules: { pattern: [EXPIRE_TIME, 'system.tenant.rules.expireTime'] },
    },
    {
      prop: 'status',
      label: 'system.tenant.status',
      type: 'select',
      form: false,
      width: 80,
      options: choices('system.tenant.statuses', ['enabled', 'disabled']),
    },
    { prop: 'address', label: 'system.tenant.address', hide: true, rules: { max: 255 } },
    { prop: 'backgroundUrl', label: 'system.tenant.backgroundUrl', type: 'textarea', hide: true, rules: { max: 1000 } },
  ],
});
