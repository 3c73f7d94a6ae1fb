import fc from 'fast-check';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '@sprout/core/db';
import { inlineParameters } from '@sprout/core/db/inline';
import { pageQueryOf } from '@sprout/core/http/paging';
import { defineAbilityFor, EMPTY_GRANTS } from '@sprout/core/permissions/ability';
import { scopeWhere } from '@sprout/core/permissions/sql';
import {
  presentUser,
  USER_COLUMNS,
  type UserListRow,
  type UserPageQuery,
  userList,
  userListQuery,
  userListValues,
} from './user-list';

const db = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const TZ = 'Asia/Shanghai';

/** The user scopes a caller may hold: all, own, own dept, dept and below, none. */
const abilities = [1, 2, 3, 4, 5, 0].map((type) =>
  defineAbilityFor(
    { tenantId: '100001', userId: '11', deptId: '21' },
    type
      ? {
          ...EMPTY_GRANTS,
          active: true,
          deptId: '21',
          deptSubtree: ['21', '22', '23'],
          dataScopes: [
            {
              resource: 'user',
              type,
              column: type === 2 ? 'create_user' : type === 1 ? 'tenant_id' : 'dept_id',
              field: '*',
              value: type === 5 ? '21,24' : null,
            },
          ],
        }
      : EMPTY_GRANTS,
  ),
);

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom("O'Brien", "a\\'; drop table app_user; --", '$1', '%_\\', '教师', ' '),
);
const dateText = fc
  .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 19).replace('T', ' '));
const query = fc.record(
  {
    current: fc.integer({ min: 1, max: 1000 }),
    size: fc.constantFrom(10, 30, 50, 100, 200),
    account: text,
    realName: text,
    deptId: fc.stringMatching(/^\d{1,19}$/),
    createTime_dategt: dateText,
    createTime_datelt: dateText,
  },
  { requiredKeys: ['current', 'size'] },
) as fc.Arbitrary<UserPageQuery>;
const tenant = fc.constantFrom('100001', '100002', '000000');

const plain = (c: { sql: string; parameters: readonly unknown[] }) => ({ sql: c.sql, parameters: c.parameters });

describe('the user list statement, compiled once per shape', () => {
  it('is exactly what building the query on every request sends, for any filters and scope', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(tenant, query, fc.nat({ max: abilities.length - 1 })), { minLength: 1, maxLength: 20 }),
        (calls) => {
          for (const [tenantId, q, a] of calls) {
            const where = scopeWhere(abilities[a]!, 'read', 'user', USER_COLUMNS);
            const cached = userList.pageStatement(db, userListValues(tenantId, q, TZ), q, where);
            const built = pageQueryOf(userListQuery(db, tenantId, q, TZ).where(where), q);
            expect(cached).toEqual(plain(built));
            expect(inlineParameters(cached)).toBe(inlineParameters(built));
            const count = userListQuery(db, tenantId, q, TZ)
              .where(where)
              .clearSelect()
              .clearOrderBy()
              .select(sql<string>`count(*)`.as('n'))
              .compile();
            expect(userList.countStatement(db, userListValues(tenantId, q, TZ), where)).toEqual(plain(count));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('binds the caller’s values: tenant, patterns, dept, bounds, page', () => {
    const where = scopeWhere(abilities[0]!, 'read', 'user', USER_COLUMNS);
    const q = { current: 1, size: 10 } as UserPageQuery;
    userList.pageStatement(db, userListValues('100001', q, TZ), q, where);
    const other = { current: 4, size: 30, account: "o'k%" } as UserPageQuery;
    const s = userList.pageStatement(db, userListValues('100002', other, TZ), other, where);
    expect(s.parameters).toContain('100002');
    expect(s.parameters).toContain("%o'k\\%%");
    expect(s.parameters.slice(-2)).toEqual([30, 90]);
    // The scope's own values stay the ability's: its tenant, never the filter's.
    expect(s.parameters).toContain('100001');
  });

  it('presents a row as read (its __total column too) with the listed fields only', () => {
    const row = {
      id: '1',
      tenant_id: '100001',
      account: 'a',
      name: null,
      real_name: '教师',
      email: null,
      phone: null,
      avatar: null,
      sex: null,
      birthday: null,
      dept_id: null,
      post_id: null,
      user_type: 1,
      status: 1,
      create_user: null,
      create_time: new Date('2026-01-01T00:00:00Z'),
      update_time: new Date('2026-01-01T00:00:00Z'),
      dept_name: null,
      post_name: null,
      roles: null,
      __total: '3',
      password_hash: 'never shown',
    } as UserListRow;
    const out = presentUser(row, TZ);
    expect(out).not.toHaveProperty('__total');
    expect(out).not.toHaveProperty('password_hash');
    expect(out.createTime).toBe('2026-01-01 08:00:00');
  });
});
