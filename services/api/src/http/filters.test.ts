import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '@sprout/core/db';
import { whereFilled } from './filters';

const db = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

type Filter = { name?: string; grade?: number; deptId?: string };
const compiled = (f: Filter) =>
  whereFilled(db.selectFrom('clazz as c').select('c.id'), f, 'c', {
    name: 'like',
    grade: 'eq',
    deptId: 'eq',
  }).compile();

describe('whereFilled', () => {
  it('adds a condition for each given filter only: contains for like, equals for eq', () => {
    expect(compiled({}).sql).toBe('select "c"."id" from "clazz" as "c"');
    const q = compiled({ name: 'a%b', grade: 2, deptId: '' });
    expect(q.sql).toBe('select "c"."id" from "clazz" as "c" where "c"."name" like $1 and "c"."grade" = $2');
    expect(q.parameters).toEqual(['%a\\%b%', 2]);
  });

  it('names each column by the filter’s snake_case form under the alias', () => {
    expect(compiled({ deptId: '7' }).sql).toBe('select "c"."id" from "clazz" as "c" where "c"."dept_id" = $1');
  });

  it('takes 0 as not given, as the filters it replaced did', () => {
    expect(compiled({ grade: 0 }).parameters).toEqual([]);
  });
});
