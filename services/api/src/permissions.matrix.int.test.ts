import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { MemoryQueue } from '@sprout/core/queue';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { buildApp } from './app';
import { serializersOf } from './plugins/serialization';
import { requireButton } from './modules/records/engine';
import { bladeAuth, clientBasic, testConfig, tokenFor, userWithRole } from './testing';

/**
 * The permission matrix: for every seeded role and every registered route, the route check
 * answers 2xx or 403 exactly as permissions.matrix.json says. A probe (test only) answers
 * 200 right after the auth hook, so no handler runs and nothing is written; what is tested
 * is the decision. Handler-level permissions are part of it: a route declares the buttons its
 * handler needs (`config.buttons`, e.g. the review button on `alllistForTrial`), the auth hook
 * checks that one declaration, and a handler's `requireButton` may check only a declared one. Routes are enumerated from Fastify: a route missing from the matrix
 * (or listed there but gone) fails. `MATRIX_WRITE=1` rewrites the file from the answers —
 * review its diff like code.
 */
type Access = 'public' | 'client' | 'authenticated' | Record<string, 'allow' | 'deny'>;
interface Matrix {
  roles: string[];
  routes: Record<string, Access>;
}

const FILE = resolve(import.meta.dirname, 'permissions.matrix.json');
const PROBE = 'x-permission-probe';

describe('permission matrix: every seeded role × every route', () => {
  let t: TestDatabase;
  let app: FastifyInstance;
  const config = testConfig();
  const tokens: Record<string, string> = {};
  const matrix = JSON.parse(readFileSync(FILE, 'utf8')) as Matrix;

  beforeAll(async () => {
    t = await createTestDatabase();
    await seed(t.database, { demo: true });
    app = await buildApp(config, {
      database: t.database,
      queue: new MemoryQueue(),
      fastify: { logger: false },
      plugins: [
        fp(async (a) => {
          // After the auth hook (registered last, runs last): the request got through.
          a.addHook('onRequest', async (request, reply) => {
            if (request.headers[PROBE]) return reply.status(200).send({ probe: 'passed' });
          });
        }),
      ],
    });
    await app.ready();
    const ids = await inSystem(t.database, async (trx) =>
      trx.selectFrom('app_user').select(['tenant_id', 'id', 'account']).where('is_deleted', '=', 0).execute(),
    );
    const token = (tenantId: string, account: string) => {
      const u = ids.find((x) => x.tenant_id === tenantId && x.account === account);
      if (!u) throw new Error(`no demo account ${account}`);
      return tokenFor(config, { tenant_id: tenantId, user_id: String(u.id) });
    };
    // The demo kindergarten's accounts hold the seeded roles; the platform admin holds administrator.
    tokens.administrator = token('000000', 'admin');
    tokens.admin = token('100001', 'admin');
    tokens.principal = token('100001', 'principal');
    tokens.reviewer = token('100001', 'reviewer');
    tokens.leader = token('100001', 'leader');
    tokens.teacher = token('100001', 'teacher1');
    tokens.caregiver = token('100001', 'caregiver');
    tokens.auditor = (await userWithRole(t.database, config, '100001', 'auditor')).token;
    // A signed-in user without any role.
    const none = (await userWithRole(t.database, config, '100001', 'teacher')).id;
    await inSystem(t.database, (trx) => trx.deleteFrom('user_role').where('user_id', '=', none).execute());
    tokens.none = tokenFor(config, { tenant_id: '100001', user_id: none });
  });
  const figures = { decisions: 0, wrong: 0, started: performance.now() };
  afterAll(async () => {
    if (app) {
      const all = routes();
      const kinds = (k: string) =>
        all.filter((r) => typeof matrix.routes[r.key] === 'string' && matrix.routes[r.key] === k);
      console.log(
        [
          '',
          '──── permission matrix ────────────────────────────────────────',
          `  routes                      ${all.length} (public ${kinds('public').length}, client-only ${kinds('client').length}, self-service ${kinds('authenticated').length}, scoped ${all.length - kinds('public').length - kinds('client').length - kinds('authenticated').length})`,
          `  roles                       ${matrix.roles.join(' ')}`,
          `  routes declaring buttons    ${all.filter((r) => r.buttons.length).length}`,
          `  role × route decisions      ${figures.decisions} checked, ${figures.wrong} differing from the matrix`,
          `  time                        ${((performance.now() - figures.started) / 1000).toFixed(1)} s`,
        ].join('\n'),
      );
    }
    await app?.close();
    await t?.drop();
  });

  const routes = () =>
    app.routeTable
      .filter((r) => r.method !== 'HEAD' && r.url.startsWith('/api/'))
      .map((r) => ({ ...r, key: `${r.method} ${r.url}` }))
      .sort((a, b) => a.key.localeCompare(b.key));

  const probe = (method: string, url: string, headers: Record<string, string>) =>
    app.inject({
      method: method as 'GET',
      url: url.replace(/:[A-Za-z]+/g, '1').replace(/\*/g, 'x'),
      headers: { ...headers, [PROBE]: '1' },
    });

  /** What the app answers now, in the matrix's terms. */
  async function observe(r: ReturnType<typeof routes>[number]): Promise<Access> {
    if (r.public) return 'public';
    if (r.clientOnly) return 'client';
    if (r.access === 'authenticated') return 'authenticated';
    const out: Record<string, 'allow' | 'deny'> = {};
    for (const role of matrix.roles) {
      const res = await probe(r.method, r.url, bladeAuth(tokens[role] as string));
      if (res.statusCode !== 200 && res.statusCode !== 403)
        throw new Error(`${r.key} as ${role}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      out[role] = res.statusCode === 200 ? 'allow' : 'deny';
    }
    return out;
  }

  it("compiles every route's response writer (compiled lazily at run time, so a broken schema fails here)", () => {
    const compileAll = serializersOf.get(app);
    expect(compileAll).toBeDefined();
    // Every route with a response schema had a writer waiting; none threw.
    expect(compileAll?.()).toBeGreaterThan(100);
  });

  it('lists every route, and only routes that exist', async () => {
    const keys = routes().map((r) => r.key);
    if (process.env.MATRIX_WRITE) {
      const lines: string[] = [];
      for (const r of routes()) lines.push(`    ${JSON.stringify(r.key)}: ${JSON.stringify(await observe(r))}`);
      writeFileSync(
        FILE,
        `{\n  "roles": ${JSON.stringify(matrix.roles)},\n  "routes": {\n${lines.join(',\n')}\n  }\n}\n`,
      );
      return;
    }
    expect(
      keys.filter((k) => !(k in matrix.routes)),
      'routes missing from permissions.matrix.json',
    ).toEqual([]);
    expect(
      Object.keys(matrix.routes).filter((k) => !keys.includes(k)),
      'matrix entries without a route',
    ).toEqual([]);
  });

  it('answers 2xx or 403 for every role as the matrix says', async () => {
    const wrong: string[] = [];
    for (const r of routes()) {
      const expected = matrix.routes[r.key];
      if (expected === undefined || typeof expected === 'string') continue;
      for (const role of matrix.roles) {
        const res = await probe(r.method, r.url, bladeAuth(tokens[role] as string));
        const want = expected[role] === 'allow' ? 200 : 403;
        figures.decisions++;
        if (res.statusCode !== want) wrong.push(`${r.key} as ${role}: ${res.statusCode}, expected ${want}`);
        if (want === 403) expect(res.json()).toMatchObject({ code: 403, success: false, errorCode: 'forbidden' });
      }
    }
    figures.wrong = wrong.length;
    expect(wrong).toEqual([]);
  });

  it('keeps public, client-only and self-service routes as the matrix says, open to exactly those callers', async () => {
    const wrong: string[] = [];
    for (const r of routes()) {
      const expected = matrix.routes[r.key];
      if (typeof expected !== 'string') continue;
      const actual = await observe(r);
      if (actual !== expected) {
        wrong.push(`${r.key}: ${JSON.stringify(actual)}, matrix says ${expected}`);
        continue;
      }
      const anonymous = await probe(r.method, r.url, {});
      const client = await probe(r.method, r.url, clientBasic());
      if (expected === 'public') {
        if (anonymous.statusCode !== 200) wrong.push(`${r.key} anonymous: ${anonymous.statusCode}`);
      } else if (expected === 'client') {
        if (anonymous.statusCode !== 401) wrong.push(`${r.key} anonymous: ${anonymous.statusCode}`);
        if (client.statusCode !== 200) wrong.push(`${r.key} with client credentials: ${client.statusCode}`);
      } else {
        if (client.statusCode !== 401) wrong.push(`${r.key} without a token: ${client.statusCode}`);
        for (const role of matrix.roles) {
          const res = await probe(r.method, r.url, bladeAuth(tokens[role] as string));
          if (res.statusCode !== 200) wrong.push(`${r.key} as ${role}: ${res.statusCode}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('declares only catalogue buttons, and a handler cannot check a button its route does not declare', async () => {
    const codes = new Set(
      (await inSystem(t.database, (trx) => trx.selectFrom('menu').select('code').execute())).map((m) => m.code),
    );
    const declared = routes().filter((r) => r.buttons.length);
    expect(declared.map((r) => r.key)).toContain('POST /api/week/week/alllistForTrial');
    expect(declared.flatMap((r) => r.buttons.filter((b) => !codes.has(b)).map((b) => `${r.key}: ${b}`))).toEqual([]);
    const caller = { ctx: { tenantId: '100001', userId: '1' }, perms: {} as never, tz: 'UTC', buttons: ['week_edit'] };
    expect(() => requireButton(caller, 'week_review')).toThrow(/does not declare/);
  });

  it('is what the handlers do too: a role the matrix allows is never refused by the handler itself', async () => {
    // The real route (no probe), with no input: validation answers 400 before any record
    // is touched, but a handler-level check that the route does not declare answers 403.
    const wrong: string[] = [];
    for (const r of routes()) {
      const expected = matrix.routes[r.key];
      if (expected === undefined || typeof expected === 'string') continue;
      for (const role of matrix.roles) {
        if (expected[role] !== 'allow') continue;
        const res = await app.inject({
          method: r.method as 'GET',
          url: r.url.replace(/:[A-Za-z]+/g, '1').replace(/\*/g, 'x'),
          headers: bladeAuth(tokens[role] as string),
          ...(r.method === 'GET' ? {} : { payload: {} }),
        });
        if (res.statusCode === 403) wrong.push(`${r.key} as ${role}: ${res.body.slice(0, 160)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('gives a user without a role no scoped route at all', () => {
    const granted = Object.entries(matrix.routes).filter(([, a]) => typeof a !== 'string' && a.none !== 'deny');
    expect(granted.map(([k]) => k)).toEqual([]);
  });
});
