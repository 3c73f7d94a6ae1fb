/**
 * The `datasource` namespace (数据源管理), in Chinese (the default): `t('datasource.<key>')`.
 * `en.ts` has exactly these keys (its type says so).
 */
export const zhCN = {
  empty: '还没有数据源：幼儿园的数据都在主库中，通常无需添加；需要把租户放到另一个数据库时，点「新增」填写连接地址。',
  name: '数据源',
  driverClass: '驱动类',
  url: '连接地址',
  username: '用户名',
  password: '密码（修改时留空则不变）',
  remark: '备注',
  createTime: '创建时间',
  drivers: { postgresql: 'PostgreSQL（org.postgresql.Driver）' },
  rules: {
    name: '请输入数据源名称',
    driverClass: '请选择驱动类',
    url: '请输入连接地址',
    urlFormat: '例如 jdbc:postgresql://db.example.com:5432/sprout（用户名和密码填在各自的栏里）',
    username: '请输入用户名',
  },
};

/** Its shape (every text a `string`): what `en.ts` must match. */
export type DataSourceMessages = typeof zhCN;
