import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../db';
import { createMongoAbility } from '@casl/ability';
import { type AppAbility, defineAbilityFor, EMPTY_GRANTS } from './ability';
import { conditionToSql, scopeWhere } from './sql';

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
      sql: '("s"."tenant_id" = $1 and "s"."dept_id" in ($2, $3))',
      params: ['100001', '21', '22'],
    });
    expect(compile(defineAbilityFor(subject, grants([{ type: 5, column: 'dept_id', value: '7,8' }])))).toEqual({
      sql: '("s"."tenant_id" = $1 and "s"."dept_id" in ($2, $3))',
      params: ['100001', '7', '8'],
    });
    expect(compile(defineAbilityFor(subject, grants([{ type: 6, column: 'class_id' }])))).toEqual({
      sql: '("s"."tenant_id" = $1 and "s"."class_id" in ($2, $3))',
      params: ['100001', '31', '32'],
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
    expect(sql).toContain('"s"."class_id" in (');
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
        '((((("s"."class_id" is null or "s"."class_id" not in ($1)) and "s"."class_id" is not null)' +
        ' or ("s"."dept_id" is distinct from $2 and "s"."dept_id" >= $3)) and "s"."create_user" is null)' +
        ' and not ("s"."dept_id" in ($4) or "s"."dept_id" is null))',
      params: ['1', '2', '1', '9'],
    });
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
