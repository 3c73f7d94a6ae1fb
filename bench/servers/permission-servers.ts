// The Sprout app on PostgreSQL (+ Redis when reachable) for the permission benchmark:
//  - scoped: GET /api/student/student/listStudents as a user whose data scope is "dept and
//    below" from the campus (every child of the tenant, through a `dept_id in (…)` clause):
//    route check by API scope, cached ability, the scope where-clause, field rules;
//  - bare: the same statement (same filters, page, presenter and envelope) on a
//    self-service route with no permission layer at all.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '@sprout/api/app';
import { presentStudent } from '@sprout/api/modules/system/student-routes';
import { studentQuery } from '@sprout/api/modules/system/student-repo';
import { bladeAuth, tokenFor } from '@sprout/api/testing';
import { tenantOf } from '@sprout/api/plugins/context';
import { inSystem } from '@sprout/core/db';
import { ok } from '@sprout/core/http/envelope';
import { findPage, PageQuerySchema, pageQueryOf } from '@sprout/core/http/paging';
import { nextId } from '@sprout/core/ids';
import { MemoryQueue } from '@sprout/core/queue';
import { seed } from '@sprout/core/seed';
import { createTestDatabase } from '@sprout/core/testing/pg';
import { benchConfig } from './bench-config';

const T = '100001';
const t = await createTestDatabase(16);
await seed(t.database, { demo: true });

// 5,000 children over the demo classes; one user with the seeded "dept and below" scope from the campus.
const userId = nextId();
await inSystem(t.database, async (trx) => {
  const classes = await trx.selectFrom('clazz').select(['id', 'dept_id']).where('tenant_id', '=', T).execute();
  const rows = Array.from({ length: 4900 }, (_, i) => {
    const c = classes[i % classes.length] as (typeof classes)[number];
    return {
      tenant_id: T,
      id: nextId(),
      name: `幼儿${i}`,
      gender: (i % 2) + 1,
      birth_date: '2022-10-01',
      class_id: c.id,
      dept_id: c.dept_id,
      student_no: `B${i}`,
      guardian_name: `家长${i}`,
      guardian_phone: `139${String(i).padStart(8, '0')}`,
    };
  });
  for (let i = 0; i < rows.length; i += 1000)
    await trx
      .insertInto('student')
      .values(rows.slice(i, i + 1000))
      .execute();
  const campus = await trx
    .selectFrom('dept')
    .select('id')
    .where('tenant_id', '=', T)
    .where('parent_id', '=', '0')
    .executeTakeFirstOrThrow();
  const leader = await trx
    .selectFrom('role')
    .select('id')
    .where('tenant_id', '=', T)
    .where('role_alias', '=', 'leader')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('app_user')
    .values({ tenant_id: T, id: userId, account: 'bench', password_hash: 'x', dept_id: campus.id })
    .execute();
  await trx.insertInto('user_role').values({ tenant_id: T, user_id: userId, role_id: leader.id }).execute();
});
// As autovacuum would have it after a while: statistics and the visibility map.
await sql`vacuum analyze`.execute(t.database.db);

const { config, redisUrl } = await benchConfig('bench');

async function bareRoute(app: FastifyInstance) {
  const tz = app.config.TIME_ZONE;
  app.get(
    '/api/bench/students',
    { config: { access: 'authenticated' }, schema: { querystring: PageQuerySchema } },
    async (request) => {
      const ctx = tenantOf(request);
      const q = request.query as { current: number; size: number };
      const page = await findPage(app.database, ctx, studentQuery(app.database.db, ctx.tenantId, {}), q, (s) =>
        presentStudent(s, tz),
      );
      return ok(page, request.lang);
    },
  );
}

const app = await buildApp(config, {
  database: t.database,
  queue: new MemoryQueue(),
  fastify: { logger: false },
  plugins: [bareRoute],
});
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
const token = tokenFor(config, { tenant_id: T, user_id: userId });
const q = { current: 3, size: 10 } as const;
console.log(
  JSON.stringify({
    kv: redisUrl ? 'Redis' : 'memory',
    scoped: `${base}/api/student/student/listStudents?current=${q.current}&size=${q.size}`,
    bare: `${base}/api/bench/students?current=${q.current}&size=${q.size}`,
    headers: bladeAuth(token),
    sql: pageQueryOf(studentQuery(t.database.db, T, {}), q).sql,
  }),
);

const stop = async () => {
  await app.close();
  await t.drop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
