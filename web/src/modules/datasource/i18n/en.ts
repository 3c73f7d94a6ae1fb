import type { DataSourceMessages } from './zh-CN';

export const en: DataSourceMessages = {
  empty:
    'No data source yet: every kindergarten lives in the main database, so none is needed; to move a tenant to another database, choose Add and give its URL.',
  name: 'Data source',
  driverClass: 'Driver',
  url: 'URL',
  username: 'User',
  password: 'Password (blank keeps it when editing)',
  remark: 'Remark',
  createTime: 'Created',
  drivers: { postgresql: 'PostgreSQL (org.postgresql.Driver)' },
  rules: {
    name: 'Please enter the data source name',
    driverClass: 'Please choose the driver',
    url: 'Please enter the URL',
    urlFormat: 'e.g. jdbc:postgresql://db.example.com:5432/sprout (the user and password go in their own fields)',
    username: 'Please enter the user',
  },
};
