import { defineCrud } from '../../../kit/crud';

/** A PostgreSQL address as BladeX writes it (jdbc:postgresql://…) or as PostgreSQL does, without a user in it. */
export const DATASOURCE_URL = /^(jdbc:)?postgres(ql)?:\/\/[^\s/@]+\/[^\s/]+$/i;

/**
 * Data sources (platform only; `/blade-develop/datasource`, menu `datasource`): a PostgreSQL
 * database a tenant can be served from. The server tests the connection on save and names
 * the reason it fails; the password is a password field it never answers (blank or the mask
 * on edit keeps it). Binding a tenant is the tenant screen's `datasource` action.
 */
export const dataSources = defineCrud({
  code: 'datasource',
  texts: 'datasource',
  empty: 'datasource.empty',
  resource: '/blade-develop/datasource',
  testId: 'datasource-page',
  columns: [
    { prop: 'name', search: true, sortable: true, width: 180, rules: { required: true, max: 100 } },
    {
      prop: 'driverClass',
      type: 'select',
      width: 190,
      initial: 'org.postgresql.Driver',
      options: [{ value: 'org.postgresql.Driver', label: 'datasource.drivers.postgresql' }],
      rules: { required: true },
    },
    {
      prop: 'url',
      search: true,
      rules: { required: true, max: 1000, pattern: [DATASOURCE_URL, 'datasource.rules.urlFormat'] },
    },
    { prop: 'username', width: 130, rules: { required: true, max: 100 } },
    { prop: 'password', type: 'password', hide: true, rules: { max: 255 } },
    { prop: 'remark', type: 'textarea', rules: { max: 255 } },
    { prop: 'createTime', form: false, width: 170 },
  ],
});
