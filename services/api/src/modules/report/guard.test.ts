import { beforeAll, describe, expect, it } from 'vitest';
import { checkQuery, loadParser } from './guard';
import { SHIPPED_REPORTS } from './shipped';

/** The report query check on PostgreSQL's parse tree: what passes, and each refusal's reason. */
describe('report query check', () => {
  beforeAll(() => loadParser());
  const refusal = (q: string, declared = 2) => {
    const r = checkQuery(q, declared);
    return r.ok ? null : r.refusal;
  };

  it('passes every shipped report, naming the views it reads', () => {
    for (const r of SHIPPED_REPORTS) {
      const checked = checkQuery(r.query, r.params.length);
      expect(checked.ok, `${r.code}: ${JSON.stringify(checked)}`).toBe(true);
    }
    const c = checkQuery('with m as (select month from lesson_plans) select * from m, observations;  ', 0);
    expect(c).toMatchObject({ ok: true, views: ['lesson_plans', 'observations'] });
    // The statement without its semicolon, offsets counted in UTF-8 bytes.
    expect(checkQuery("select '班级' as x from records;", 0)).toMatchObject({
      statement: "select '班级' as x from records",
    });
  });

  it('refuses writes, second statements, tables, schemas, functions and casts outside the lists', () => {
    expect(refusal('insert into report values (1)')).toEqual({
      key: 'report.sql.notSelect',
      params: { kind: 'INSERT' },
    });
    expect(refusal('select 1; drop table report')).toEqual({ key: 'report.sql.oneStatement', params: { count: '2' } });
    expect(refusal('select * from app_user')?.key).toBe('report.sql.relation');
    expect(refusal('select * from pg_catalog.pg_authid')).toEqual({
      key: 'report.sql.qualified',
      params: { name: 'pg_catalog.pg_authid' },
    });
    expect(refusal("select current_setting('app.tenant_id')")).toEqual({
      key: 'report.sql.function',
      params: { name: 'current_setting' },
    });
    expect(refusal('select cast(1 as regclass)')).toEqual({ key: 'report.sql.cast', params: { type: 'regclass' } });
    expect(refusal('select 1::pg_catalog.int4')).toBeNull();
    expect(refusal('select * from observations tablesample system (10)')?.key).toBe('report.sql.node');
    expect(refusal('select $3', 2)).toEqual({ key: 'report.sql.param', params: { n: '$3', declared: '2' } });
    expect(refusal('  ')).toEqual({ key: 'report.sql.empty', params: {} });
  });
});
