import { describe, expect, it } from 'vitest';
import { formColumns, submitBody, validateForm } from '../../../kit/crud/define';
import { en } from '../i18n/en';
import { zhCN } from '../i18n/zh-CN';
import { DATASOURCE_URL, dataSources } from './datasources';

describe('the data-source screen', () => {
  it('asks name, driver, URL, user, password and remark, and checks the URL is a PostgreSQL one without a user', () => {
    expect(formColumns(dataSources, 'add', {}).map((c) => c.prop)).toEqual([
      'name',
      'driverClass',
      'url',
      'username',
      'password',
      'remark',
    ]);
    for (const ok of [
      'jdbc:postgresql://db.example.com:5432/sprout',
      'postgresql://10.0.0.5/kg',
      'postgres://h/db?sslmode=require',
    ])
      expect([ok, DATASOURCE_URL.test(ok)]).toEqual([ok, true]);
    for (const bad of ['mysql://h/db', 'jdbc:postgresql://u:p@h/db', 'postgresql://h', 'postgresql://h/a/b'])
      expect([bad, DATASOURCE_URL.test(bad)]).toEqual([bad, false]);
    const form = { name: '二号库', driverClass: 'org.postgresql.Driver', url: 'mysql://h/db', username: 'u' };
    expect(validateForm(dataSources, form, 'add').url?.key).toBe('datasource.rules.urlFormat');
    expect(Object.keys(validateForm(dataSources, { driverClass: 'org.postgresql.Driver' }, 'add'))).toEqual([
      'name',
      'url',
      'username',
    ]);
    expect(submitBody(dataSources, { ...form, url: 'jdbc:postgresql://h:5432/db', password: 'p' })).toMatchObject({
      url: 'jdbc:postgresql://h:5432/db',
      password: 'p',
    });
  });

  it('has every text in both languages', () => {
    const keys = (o: object, p = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' ? keys(v, `${p}${k}.`) : [`${p}${k}`]));
    expect(keys(en)).toEqual(keys(zhCN));
    expect(dataSources.buttons).toMatchObject({ add: 'datasource_add', delete: 'datasource_delete' });
  });
});
