import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql as rawSql,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../db';
import { subject as asSubject, createMongoAbility } from '@casl/ability';
import { type AppAbility, defineAbilityFor, EMPTY_GRANTS } from './ability';
import { conditionToSql, scopeWhere } from './sql';

const sqlRaw =
  rawSql<string>`concat_ws('/', tenant_id, coalesce(class_id::text, ''), coalesce(create_user::text, ''), coalesce(dept_id::text, ''))`.as(
    'k',
  );

const db = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const COLUMNS = { tenantId: 's.tenant_id', classId: 's.class_id', createUser: 's.create_user', deptId: 's.dept_id' };
const compile = (ability: AppAbility, action = 'read') => {
  const q = db
    .selectFrom('student as s')
    .select('s.id')
    .where(scopeWhere(ability, action, 'student', COLUMNS))
    .compile();
  return { sql: q.sql.replace(/^select "s"\."id" from "student" as "s" where /, ''), params: q.parameters };
};
const subject = { tenantId: '100001', userId: '11', deptId: '21' };
const grants = (dataScopes: Array<{ type: number; column: string; value?: string }>) => ({
  ...EMPTY_GRANTS,
  active: true,
  deptId: '21',
  deptSubtree: ['21', '22'],
  classIds: ['31', '32'],
  dataScopes: dataScopes.map((d) => ({ resource: 'student', field: '*', value: null, ...d })),
});

describe('data scopes in SQL', () => {
  it('returns nothing without a rule', () => {
    expect(compile(defineAbilityFor(subject, EMPTY_GRANTS))).toEqual({ sql: 'false', params: [] });
  });

  it('translates every scope type, the tenant always included', () => {
    expect(compile(defineAbilityFor(subject, grants([{ type: 1, column: 'create_user' }])))).toEqual({
      sql: '"s"."tenant_id" = $1',
      params: ['100001'],
    });
    expect(compile(defineAbilityFor(subject, grants([{ type: 2, column: 'create_user' }])))).toEqual({
      sql: '("s"."tenant_id" = $1 and "s"."create_user" = $2)',
      params: ['100001', '11'],
    });
    expect(compile(defineAbilityFor(subject, grants([{ type: 4, column: 'dept_id' }])))).toEqual({
      sql: '("s"."tenant_id" = $1 and "s"."dept_id" = any($2))',
      params: ['100001', ['21', '22']],
    });
    expect(compile(defineAbilityFor(subject, grants([{ type: 5, column: 'dept_id', value: '7,8' }])))).toEqual({
      sql: '("s"."tenant_id" = $1 and "s"."dept_id" = any($2))',
      params: ['100001', ['7', '8']],
    });
    expect(compile(defineAbilityFor(subject, grants([{ type: 6, column: 'class_id' }])))).toEqual({
      sql: '("s"."tenant_id" = $1 and "s"."class_id" = any($2))',
      params: ['100001', ['31', '32']],
    });
    expect(compile(defineAbilityFor(subject, grants([{ type: 3, column: 'dept_id' }])))).toEqual({
      sql: '("s"."tenant_id" = $1 and "s"."dept_id" = $2)',
      params: ['100001', '21'],
    });
  });

  it('matches nothing for an empty id list (a user without dept or classes)', () => {
    const none = defineAbilityFor(
      { ...subject, deptId: null },
      { ...grants([{ type: 3, column: 'dept_id' }]), deptId: null },
    );
    expect(compile(none)).toEqual({ sql: '("s"."tenant_id" = $1 and false)', params: ['100001'] });
  });

  it('ORs the scopes of several roles', () => {
    const a = defineAbilityFor(
      subject,
      grants([
        { type: 2, column: 'create_user' },
        { type: 6, column: 'class_id' },
      ]),
    );
    const { sql } = compile(a);
    expect(sql).toContain(' or ');
    expect(sql).toContain('"s"."create_user" = ');
    expect(sql).toContain('"s"."class_id" = any(');
  });

  it('supports the comparison operators and $and / $or; negates inverted rules', () => {
    const a = createMongoAbility<AppAbility>([
      {
        action: 'read',
        subject: 'student',
        conditions: {
          $or: [{ classId: { $nin: ['1', null] } }, { deptId: { $ne: '2', $gte: '1' } }],
          createUser: null,
        },
      },
      { action: 'read', subject: 'student', inverted: true, conditions: { deptId: { $in: ['9', null] } } },
    ]);
    expect(compile(a)).toEqual({
      sql:
        '((((("s"."class_id" is null or not "s"."class_id" = any($1)) and "s"."class_id" is not null)' +
        ' or ("s"."dept_id" is distinct from $2 and "s"."dept_id" >= $3)) and "s"."create_user" is null)' +
        ' and not coalesce(("s"."dept_id" = $4 or "s"."dept_id" is null), false))',
      params: [['1'], '2', '1', '9'],
    });
  });

  it('selects exactly the rows CASL itself would allow (on a real PostgreSQL, PGlite)', async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    const pg = await PGlite.create('memory://');
    try {
      await pg.exec(`create table s (tenant_id text, class_id bigint, create_user bigint, dept_id bigint)`);
      const rows: Array<Record<string, string | null>> = [];
      for (const tenantId of ['100001', '100002'])
        for (const classId of ['1', '2', null])
          for (const createUser of ['11', '12', null])
            for (const deptId of ['21', '22', '23', null]) rows.push({ tenantId, classId, createUser, deptId });
      for (const r of rows)
        await pg.query('insert into s values ($1, $2, $3, $4)', [r.tenantId, r.classId, r.createUser, r.deptId]);
      const conditions = [
        { tenantId: '100001' },
        { tenantId: '100001', deptId: { $in: ['21', '22'] } },
        { tenantId: '100001', deptId: { $in: [] } },
        { classId: { $nin: ['1', null] } },
        { deptId: { $ne: '21' } },
        { deptId: null },
        { tenantId: { $ne: '100002' }, classId: { $in: ['2', null] } },
        { deptId: { $gte: '22', $lt: '23' } },
        // ($and / $or are translated too, but CASL's default matcher does not evaluate them.)
      ];
      const columns = { tenantId: 'tenant_id', classId: 'class_id', createUser: 'create_user', deptId: 'dept_id' };
      for (const conditions1 of conditions) {
        const a = createMongoAbility<AppAbility>([
          { action: 'read', subject: 'student', conditions: conditions1 },
          { action: 'read', subject: 'student', inverted: true, conditions: { createUser: '12', deptId: '22' } },
        ]);
        const q = db
          .selectFrom('s' as never)
          .select(sqlRaw)
          .where(scopeWhere(a, 'read', 'student', columns))
          .compile();
        const got = (await pg.query<{ k: string }>(q.sql, [...q.parameters])).rows.map((r) => r.k).sort();
        const want = rows
          .filter((r) => a.can('read', asSubject('student', { ...r })))
          .map((r) => [r.tenantId, r.classId, r.createUser, r.deptId].join('/'))
          .sort();
        expect(got, JSON.stringify(conditions1)).toEqual(want);
      }
    } finally {
      await pg.close();
    }
  });

  it('refuses what it cannot translate exactly, when the query is built', () => {
    const regex = createMongoAbility<AppAbility>([
      { action: 'read', subject: 'student', conditions: { name: { $regex: 'x' } } },
    ]);
    expect(() => compile(regex)).toThrow(/no column for field name/);
    expect(() => conditionToSql({ classId: { $regex: 'x' } }, COLUMNS)).toThrow(/unsupported operator \$regex/);
    expect(() => conditionToSql({ $nor: [] }, COLUMNS)).toThrow(/unsupported operator \$nor/);
    expect(() => conditionToSql({ classId: { $in: [{}] } }, COLUMNS)).toThrow(/scalar/);
  });
});
