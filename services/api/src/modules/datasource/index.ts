import { registerMessages } from '@sprout/core/i18n';
import type { ServerContext } from '../../context';
import { DATASOURCE_BASE, dataSources } from './datasource-resource';
import { dataSourceRoutes } from './datasource-routes';

registerMessages({
  zh: {
    'datasource.name': '请输入数据源名称',
    'datasource.nameFormat': '数据源名称至多 100 个字符',
    'datasource.nameTaken': '数据源名称已存在：{name}',
    'datasource.driverClass': '请选择驱动类（目前只支持 PostgreSQL：org.postgresql.Driver）',
    'datasource.url': '请输入连接地址',
    'datasource.urlFormat':
      '连接地址须为 PostgreSQL 地址，例如 jdbc:postgresql://db.example.com:5432/sprout 或 postgresql://db.example.com/sprout（用户名和密码填在各自的栏里）',
    'datasource.username': '请输入用户名（至多 100 个字符）',
    'datasource.passwordFormat': '密码至多 255 个字符，首尾不能有空格',
    'datasource.connectFailed': '无法连接数据源：{reason}',
    'datasource.boundUrl': '数据源 {name} 正在为租户提供服务，不能修改地址或用户名；请先把租户迁出',
    'datasource.inUse': '数据源 {name} 正在为租户 {tenants} 提供服务，不能删除；请先把租户迁出',
    'datasource.notFound': '数据源不存在：{id}',
    'datasource.unreachable': '无法连接数据源 {name}：{reason}',
    'datasource.moveStarted': '已开始迁移租户数据',
    'datasource.moveFailed': '迁移失败：{reason}',
  },
  en: {
    'datasource.name': 'Please enter the data source name',
    'datasource.nameFormat': 'A data source name is at most 100 characters',
    'datasource.nameTaken': 'A data source named {name} already exists',
    'datasource.driverClass': 'Please choose the driver (PostgreSQL only: org.postgresql.Driver)',
    'datasource.url': 'Please enter the URL',
    'datasource.urlFormat':
      'The URL must be a PostgreSQL address, e.g. jdbc:postgresql://db.example.com:5432/sprout or postgresql://db.example.com/sprout (the user and password go in their own fields)',
    'datasource.username': 'Please enter the user name (at most 100 characters)',
    'datasource.passwordFormat': 'A password is at most 255 characters, without spaces at either end',
    'datasource.connectFailed': 'Cannot connect to the data source: {reason}',
    'datasource.boundUrl':
      'The data source {name} serves tenants: its URL and user cannot change; move the tenants away first',
    'datasource.inUse': 'The data source {name} serves tenants {tenants} and cannot be deleted; move them away first',
    'datasource.notFound': 'No such data source: {id}',
    'datasource.unreachable': 'Cannot connect to the data source {name}: {reason}',
    'datasource.moveStarted': 'The tenant’s data is being moved',
    'datasource.moveFailed': 'The move failed: {reason}',
  },
});

/**
 * The data-source context's manifest (issue 21): the platform's PostgreSQL data sources and
 * the binding that moves a tenant onto one (the routing itself is core's, `db/routing.ts`).
 */
export const dataSourceContext: ServerContext = {
  name: 'datasource',
  routes: async (app) => {
    await app.register(dataSources);
    await app.register(dataSourceRoutes);
  },
  menus: [
    {
      section: 'system',
      menus: [
        dataSources.menu({
          name: '数据源管理',
          nameEn: 'Data sources',
          path: '/tool/datasource',
          icon: 'iconfont icon-caidanguanli',
          sort: 15,
          platformOnly: true,
          api: [`* ${DATASOURCE_BASE}/**`],
        }),
      ],
    },
  ],
};
