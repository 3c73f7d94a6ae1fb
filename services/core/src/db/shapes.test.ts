import fc from 'fast-check';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from './index';
import { inlineParameters } from './inline';
import { shapeOf, StatementShapes } from './shapes';

const db = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

type Values = {
  tenantId: string;
  account?: string | null;
  deptId?: string;
  after?: Date;
  ids?: string[];
  limit: number;
  offset: number;
};

/** A list-like statement using each kind of value: where, raw SQL (twice), an array, limit and offset. */
const build = (v: Values) => {
  let qb = db.selectFrom('app_user as u').select(['u.id', 'u.account']).where('u.tenant_id', '=', v.tenantId);
  if (v.account) qb = qb.where('u.account', 'like', v.account);
  if (v.account === null) qb = qb.where('u.account', 'is', null);
  if (v.deptId)
    qb = qb.where(
      sql<boolean>`u.dept_id in (select d.id from dept d where d.tenant_id = ${v.tenantId} and d.id = ${v.deptId})`,
    );
  if (v.after) qb = qb.where('u.create_time', '>', v.after);
  if (v.ids) qb = qb.where(sql<boolean>`u.id = any(${sql.val(v.ids)})`);
  return qb.orderBy('u.id').limit(v.limit).offset(v.offset);
};

/** What an uncached build sends. */
const direct = (v: Values) => {
  const c = build(v).compile();
  return { sql: c.sql, parameters: c.parameters };
};

const hostile = fc.oneof(
  fc.string(),
  fc.constantFrom("O'Brien", "a\\'; drop table app_user; --", '$1', '$2 $10', '%_\\', '"', "E'x'", '你好', '  '),
);
const values = fc.record(
  {
    tenantId: fc.stringMatching(/^[0-9]{6}$/),
    account: fc.oneof(hostile, fc.constant(null), fc.constant('')),
    deptId: fc.stringMatching(/^[1-9][0-9]{0,18}$/),
    after: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
    ids: fc.array(hostile, { maxLength: 4 }),
    limit: fc.constantFrom(10, 30, 50, 100, 200),
    offset: fc.nat({ max: 10_000 }),
  },
  { requiredKeys: ['tenantId', 'limit', 'offset'] },
) as fc.Arbitrary<Values>;

describe('statement shapes', () => {
  it('outside production, a build that reads a value where a slot cannot trap it is refused, not cached wrong', () => {
    // `typeof` on a slot says 'object': the cached text would silently drop the condition.
    const sneaky = (v: Values) => {
      let qb = db.selectFrom('app_user as u').select('u.id').where('u.tenant_id', '=', v.tenantId);
      if (typeof v.account === 'string') qb = qb.where('u.account', '=', v.account);
      return qb;
    };
    const checked = new StatementShapes();
    expect(() => checked.statement({}, 'page', { tenantId: '1', account: 'a', limit: 10, offset: 0 }, sneaky)).toThrow(
      /differs from a fresh build/,
    );
    // A well-behaved build passes the check.
    const a: Values = { tenantId: '100001', account: '%a%', limit: 10, offset: 20 };
    expect(checked.statement({}, 'page', a, build)).toEqual(direct(a));
  });

  it('binds each call its own values to the text compiled once per shape', () => {
    const shapes = new StatementShapes(128, false);
    const owner = {};
    let builds = 0;
    const counted = (v: Values) => {
      builds++;
      return build(v);
    };
    const a: Values = { tenantId: '100001', account: '%a%', limit: 10, offset: 20 };
    const b: Values = { tenantId: '100002', account: '%b%', limit: 30, offset: 60 };
    expect(shapes.statement(owner, 'page', a, counted)).toEqual(direct(a));
    expect(shapes.statement(owner, 'page', b, counted)).toEqual(direct(b));
    expect(builds).toBe(1);
    expect(shapes.statement(owner, 'page', a, counted).parameters).toEqual(['100001', '%a%', 10, 20]);
  });

  it('never mixes two shapes, whatever came first', () => {
    fc.assert(
      fc.property(fc.array(values, { minLength: 1, maxLength: 30 }), (calls) => {
        const shapes = new StatementShapes(128, false);
        const owner = {};
        for (const v of calls) expect(shapes.statement(owner, 'page', v, build)).toEqual(direct(v));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps hostile strings in the values, escaped only when inlined, as an uncached build does', () => {
    const shapes = new StatementShapes(128, false);
    const owner = {};
    const first = shapes.statement(
      owner,
      'page',
      { tenantId: '1', account: '%x%', ids: ['1'], limit: 10, offset: 1 },
      build,
    );
    fc.assert(
      fc.property(hostile, fc.array(hostile, { maxLength: 3 }), (text, ids) => {
        const v: Values = { tenantId: '1', account: `x${text}`, ids, limit: 10, offset: 1 };
        const s = shapes.statement(owner, 'page', v, build);
        // The text is the shape's, whatever the values: they travel as parameters only.
        expect(s.sql).toBe(first.sql);
        expect(s.parameters).toEqual(['1', `x${text}`, ids, 10, 1]);
        if (!`${text}${ids.join('')}`.includes('\u0000')) expect(inlineParameters(s)).toBe(inlineParameters(direct(v)));
      }),
    );
  });

  it('tells falsy values apart: each is part of the shape, passed to the build as it is', () => {
    const shapes = new StatementShapes(128, false);
    const owner = {};
    for (const account of [undefined, null, '', 'a', null, undefined, ''] as const) {
      const v: Values = { tenantId: '1', account, limit: 10, offset: 0 };
      expect(shapes.statement(owner, 'page', v, build)).toEqual(direct(v));
    }
    expect(new Set([null, '', undefined, 0, false].map((x) => shapeOf({ x }))).size).toBe(5);
    expect(shapeOf({ x: 'a' })).toBe(shapeOf({ x: 'b' }));
  });

  it('keeps owners and variants apart', () => {
    const shapes = new StatementShapes(128, false);
    const v: Values = { tenantId: '1', limit: 10, offset: 5 };
    const a = {};
    const b = {};
    const one = shapes.statement(a, 'page', v, build);
    expect(shapes.statement(b, 'page', v, (x) => build(x).where('u.status', '=', 1)).sql).toContain('"u"."status"');
    expect(shapes.statement(a, 'count', v, (x) => build(x).clearSelect().select(sql`count(*)`.as('n'))).sql).toMatch(
      /count\(\*\)/,
    );
    expect(
      shapes.statement(a, 'page', v, () => {
        throw new Error('not rebuilt');
      }),
    ).toEqual(one);
  });

  it('refuses a build that reads a value instead of passing it on', () => {
    const shapes = new StatementShapes(128, false);
    const v = { tenantId: '100001', account: 'ab' };
    const reads: Array<(p: typeof v) => ReturnType<typeof build>> = [
      (p) => build({ ...p, account: `%${p.account}%`, limit: 1, offset: 0 }),
      (p) => build({ ...p, account: p.account.trim(), limit: 1, offset: 0 }),
      (p) => build({ tenantId: p.tenantId, account: p.account.length > 1 ? 'x' : 'y', limit: 1, offset: 0 }),
      (p) => build({ tenantId: JSON.stringify(p.tenantId), limit: 1, offset: 0 }),
      // Inlined as a literal: Kysely has to read it.
      (p) =>
        build({ tenantId: p.tenantId, limit: 1, offset: 0 }).where(sql<boolean>`u.account = ${sql.lit(p.account)}`),
    ];
    for (const read of reads) expect(() => shapes.statement({}, 'page', v, read)).toThrow(/statement shape/);
  });

  it('holds a bounded number of shapes per owner', () => {
    const shapes = new StatementShapes(4);
    const owner = {};
    for (let i = 0; i < 20; i++) {
      const v = { tenantId: '1', [`k${i}`]: 1 } as Record<string, unknown>;
      const s = shapes.statement(owner, 'page', v, (p) =>
        db
          .selectFrom('app_user')
          .select('id')
          .where('tenant_id', '=', p.tenantId as string),
      );
      expect(s.parameters).toEqual(['1']);
    }
    const templates = (shapes as unknown as { byOwner: WeakMap<object, Map<string, unknown>> }).byOwner.get(owner);
    expect(templates?.size).toBeLessThanOrEqual(4);
  });
});
