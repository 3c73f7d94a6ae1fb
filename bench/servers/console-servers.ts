// Two servers over one PostgreSQL database, in one process (one is loaded at a time):
//  - builder: Sprout's app, whose `/api/blade-user/page` is made by defineResource (the user
//    family's own list source, data scope applied), with auth, envelope, tenant transaction, RLS;
//  - bare: a plain Fastify route running the very statement the builder runs (the same data
//    scope's condition, the same bound values) through pg, writing the same JSON by hand.
import Fastify from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { bladeAuth, testApp, testConfig, userWithRole } from '@sprout/api/testing';
import { presentUser, USER_COLUMNS, userList, userListValues } from '@sprout/api/modules/system/user-list';
import { hashPassword } from '@sprout/core/auth/password';
import { inSystem } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import { scopeWhere } from '@sprout/core/permissions/sql';
import { seed } from '@sprout/core/seed';
import { createTestDatabase } from '@sprout/core/testing/pg';

const T = '100001';
const USERS = 240;
const t = await createTestDatabase(16);
await seed(t.database, { demo: false });

// A kindergarten: the campus with four grade depts (the administrator's reach), and a second
// campus beside it (out of their data scope). Users spread over all six, two roles each.
const campus = nextId();
const other = nextId();
const depts = [
  { id: campus, parent_id: '0', ancestors: [] as string[], name: '萌芽幼儿园' },
  { id: other, parent_id: '0', ancestors: [] as string[], name: '萌芽分园' },
  ...['托班组', '小班组', '中班组', '大班组'].map((name) => ({
    id: nextId(),
    parent_id: campus,
    ancestors: [campus],
    name,
  })),
];
// The tenant's administrator, in the campus; their role's user scope narrowed to "dept and below".
const config = testConfig();
const admin = await userWithRole(t.database, config, T, 'admin', {
  deptId: campus,
  createTime: new Date(Date.UTC(2020, 0, 1)),
});
const hash = await hashPassword('x');
await inSystem(t.database, async (trx) => {
  await trx
    .insertInto('dept')
    .values(
      depts.map((d, i) => ({
        tenant_id: T,
        id: d.id,
        parent_id: d.parent_id,
        ancestors: d.ancestors,
        dept_category: 1,
        dept_name: d.name,
        full_name: d.name,
        sort: i,
      })),
    )
    .execute();
  const roles = await trx.selectFrom('role').select(['id', 'role_alias']).where('tenant_id', '=', T).execute();
  const adminRole = roles.find((r) => r.role_alias === 'admin')?.id;
  const scope = (code: string) => trx.selectFrom('scope_data').select('id').where('code', '=', code);
  await trx
    .updateTable('role_scope')
    .set({ scope_id: scope('user_dept_below') })
    .where('tenant_id', '=', T)
    .where('role_id', '=', String(adminRole))
    .where('scope_id', '=', scope('user_all'))
    .execute();
  const users = Array.from({ length: USERS }, (_, i) => ({
    tenant_id: T,
    id: nextId(),
    account: `teacher${i}`,
    password_hash: hash,
    real_name: `教师${i}`,
    email: `teacher${i}@example.cn`,
    phone: `139${String(i).padStart(8, '0')}`,
    dept_id: (depts[i % depts.length] as { id: string }).id,
    create_time: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
  }));
  await trx.insertInto('app_user').values(users).execute();
  const grants = users.flatMap((u, i) =>
    [roles[i % roles.length], roles[(i + 1) % roles.length]].map((r) => ({
      tenant_id: T,
      user_id: u.id,
      role_id: String(r?.id),
    })),
  );
  await trx.insertInto('user_role').values(grants).execute();
  await sql`analyze`.execute(trx);
});

const { app } = await testApp(t.database, { config });
await app.listen({ port: 0, host: '127.0.0.1' });

// The exact statement the builder's route runs for page 3 of size 10: the administrator's scope as it compiles it.
const q = { current: 3, size: 10 } as const;
const tz = config.TIME_ZONE;
const { ability } = await app.permissions.get(T, admin.id);
const statement = userList.pageStatement(
  t.database.db,
  userListValues(T, {}, tz),
  q,
  scopeWhere(ability, 'read', 'user', USER_COLUMNS),
);

const pool = new pg.Pool({ connectionString: t.url, max: 16 });
const bare = Fastify({ logger: false });
// The same statement and values: no auth, no transaction, no RLS role; the same answer by hand.
// `/bare/prepared` names the statement, so pg prepares it once per connection as the builder's page does.
const answer = async (prepared: boolean) => {
  const values = [...statement.parameters];
  const r = await pool.query(
    prepared ? { name: 'user_page', text: statement.sql, values } : { text: statement.sql, values },
  );
  const total = Number(r.rows[0]?.__total ?? 0);
  const records = r.rows.map((row) => presentUser(row, tz));
  return {
    code: 200,
    success: true,
    data: { records, total, size: q.size, current: q.current, pages: Math.ceil(total / q.size) },
    msg: '操作成功',
  };
};
bare.get('/bare/users', () => answer(false));
bare.get('/bare/prepared', () => answer(true));
await bare.listen({ port: 0, host: '127.0.0.1' });

const port = (s: typeof app) => (s.server.address() as { port: number }).port;
console.log(
  JSON.stringify({
    builder: `http://127.0.0.1:${port(app)}/api/blade-user/page?current=${q.current}&size=${q.size}`,
    bare: `http://127.0.0.1:${port(bare as unknown as typeof app)}/bare/users`,
    prepared: `http://127.0.0.1:${port(bare as unknown as typeof app)}/bare/prepared`,
    headers: bladeAuth(admin.token),
    sql: statement.sql,
    users: USERS,
  }),
);

const stop = async () => {
  await app.close();
  await bare.close();
  await pool.end();
  await t.drop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
