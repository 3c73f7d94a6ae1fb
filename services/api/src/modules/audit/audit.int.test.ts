import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, inSystem, inTenant, openDatabase } from '@sprout/core/db';
import { migrateToLatest } from '@sprout/core/db/migrate';
import {
  eraseSubject,
  handleCommand,
  registerDecider,
  requireDecider,
  VersionConflictError,
} from '@sprout/core/events';
import { nextId } from '@sprout/core/ids';
import { catalogueIndex, writeRoleGrants } from '@sprout/core/permissions/seed';
import { MemoryQueue } from '@sprout/core/queue';
import { seed } from '@sprout/core/seed';
import { createNote, defineNoteEvents, noteDecider } from '@sprout/core/testing/events';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { buildApp } from '../../app';
import { bladeAuth, testConfig, tokenFor, userWithRole, fieldNames } from '../../testing';

defineNoteEvents();
registerDecider(noteDecider);

/** The audit and replay API on both engines: who may see it, what it shows, and tenant isolation. */
describe.each([
  ['PostgreSQL', 'pg'],
  ['PGlite', 'pglite'],
] as const)('audit API on %s', (_engine, engine) => {
  let t: TestDatabase | undefined;
  let database: Database;
  let app: FastifyInstance;
  const config = testConfig();
  const A = { tenantId: '100001', userId: '11' };
  const B = { tenantId: '100002', userId: '21' };
  // Users holding the seeded roles (the route check reads their grants from the database).
  let auditor: string;
  let admin: string;
  let teacher: string;
  let auditorB: string;

  const get = (url: string, token = auditor, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers: { ...bladeAuth(token), ...headers } });

  beforeAll(async () => {
    if (engine === 'pg') {
      t = await createTestDatabase();
      database = t.database;
    } else {
      database = await openDatabase({ dataDir: 'memory://' });
      await migrateToLatest(database.db as never);
    }
    await seed(database, { demo: false }); // the saber client and the catalogue
    auditor = (await userWithRole(database, config, A.tenantId, 'auditor')).token;
    admin = (await userWithRole(database, config, A.tenantId, 'admin')).token;
    teacher = (await userWithRole(database, config, A.tenantId, 'teacher')).token;
    auditorB = (await userWithRole(database, config, B.tenantId, 'auditor')).token;
    app = await buildApp(config, {
      database,
      queue: new MemoryQueue(),
      fastify: { logger: false },
      plugins: [
        async (a) => {
          a.post('/api/test/conflict', { config: { access: 'authenticated' } }, async () => {
            throw new VersionConflictError('n1', 2, 3);
          });
        },
      ],
    });
    await app.ready();
    const meta = (actorId: string) => ({ metadata: { actorId, actorName: `用户${actorId}` } });
    await handleCommand(database, A, noteDecider, 'n1', createNote('n1', { studentId: 'kid1' }), meta('11'));
    await handleCommand(
      database,
      A,
      noteDecider,
      'n1',
      { type: 'EditNote', title: '改后标题', at: '2026-11-21 10:00:00' },
      meta('11'),
    );
    await handleCommand(database, A, noteDecider, 'n1', { type: 'SubmitNote', at: '2026-11-21 11:00:00' }, meta('11'));
    await handleCommand(database, A, noteDecider, 'n2', createNote('n2'), meta('12'));
    await handleCommand(database, B, noteDecider, 'b1', createNote('b1'), meta('21'));
  });
  afterAll(async () => {
    await app?.close();
    if (t) await t.drop();
    else await database?.close();
  });

  it('is for auditors and administrators only: teacher 403, anonymous 401', async () => {
    for (const url of [
      '/api/audit/streams',
      '/api/audit/streams/n1/events',
      '/api/audit/streams/n1/state',
      '/api/audit/streams/n1/diff?from=1&to=2',
    ]) {
      expect((await get(url, teacher)).statusCode, url).toBe(403);
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
    expect((await get('/api/audit/streams', admin)).statusCode).toBe(200);
  });

  it('lists streams touched, filtered by type, actor and time, paged', async () => {
    const all = (await get('/api/audit/streams')).json();
    expect(all).toMatchObject({ code: 200, success: true });
    expect(all.data).toMatchObject({ total: 2, size: 10, current: 1, pages: 1 });
    expect(all.data.records.map((r: { streamId: string }) => r.streamId).sort()).toEqual(['n1', 'n2']);
    const n1 = all.data.records.find((r: { streamId: string }) => r.streamId === 'n1');
    expect(n1).toMatchObject({ streamType: 'note', version: 3, events: 3 });
    expect(n1.lastTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const byActor = (await get('/api/audit/streams?actorId=12')).json();
    expect(byActor.data.records.map((r: { streamId: string }) => r.streamId)).toEqual(['n2']);
    expect((await get('/api/audit/streams?type=workflow')).json().data.total).toBe(0);
    expect(
      (await get('/api/audit/streams?from=2000-01-01%2000:00:00&to=2000-12-31%2000:00:00')).json().data.total,
    ).toBe(0);
    expect((await get('/api/audit/streams?from=2000-01-01%2000:00:00')).json().data.total).toBe(2);
    const bad = await get('/api/audit/streams?from=yesterday&size=7');
    expect(bad.statusCode).toBe(400);
    expect(fieldNames(bad)).toEqual(['from', 'size']);
  });

  it('shows a stream’s history in order: version, type, actor, time, data', async () => {
    const r = await get('/api/audit/streams/n1/events');
    expect(r.statusCode).toBe(200);
    const body = r.json().data;
    expect(body).toMatchObject({ streamId: 'n1', streamType: 'note', version: 3 });
    expect(body.events.map((e: { version: number; type: string }) => [e.version, e.type])).toEqual([
      [1, 'NoteCreated'],
      [2, 'NoteEdited'],
      [3, 'NoteSubmitted'],
    ]);
    expect(body.events[0]).toMatchObject({
      actorId: '11',
      actorName: '用户11',
      data: { studentName: '王小明', title: '观察 n1' },
    });
    expect(body.events[0].time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(typeof body.events[0].position).toBe('string');
    expect((await get('/api/audit/streams/nope/events')).statusCode).toBe(404);
  });

  it('replays the state as of a version or an instant, and diffs two versions', async () => {
    const v1 = (await get('/api/audit/streams/n1/state?version=1')).json().data;
    expect(v1).toMatchObject({ version: 1, currentVersion: 3, state: { status: 'draft', title: '观察 n1', edits: 0 } });
    const now = (await get('/api/audit/streams/n1/state')).json().data;
    expect(now).toMatchObject({ version: 3, state: { status: 'trial', title: '改后标题', edits: 1 } });
    // A moment before the stream's first event: it did not exist yet, a 400 saying so.
    const before = await get('/api/audit/streams/n1/state?at=2000-01-01%2000:00:00');
    expect(before.statusCode).toBe(400);
    expect(before.json()).toMatchObject({ success: false, errorCode: 'bad_request' });
    const later = (await get('/api/audit/streams/n1/state?at=2099-01-01%2000:00:00')).json().data;
    expect(later.version).toBe(3);
    const diff = (await get('/api/audit/streams/n1/diff?from=1&to=3')).json().data;
    expect(diff.changes).toEqual([
      { path: 'edits', op: 'changed', from: 0, to: 1 },
      { path: 'status', op: 'changed', from: 'draft', to: 'trial' },
      { path: 'title', op: 'changed', from: '观察 n1', to: '改后标题' },
      { path: 'updatedAt', op: 'changed', from: '2026-11-21 09:00:00', to: '2026-11-21 11:00:00' },
    ]);
    expect((await get('/api/audit/streams/n1/diff?from=3&to=1')).statusCode).toBe(400);
    expect((await get('/api/audit/streams/n1/diff?from=1&to=9')).statusCode).toBe(400);
    expect((await get('/api/audit/streams/n1/state?version=1&at=2026-01-01%2000:00:00')).statusCode).toBe(400);
  });

  /**
   * A user of tenant A holding a role that is not one of the seeded audit roles, granted the
   * 审计追溯 screen (its API scope) and the `audit` data scope `scopeCode`, in dept `deptId`.
   */
  async function customAuditor(scopeCode: string | null, deptId: string) {
    const userId = nextId();
    await inSystem(database, async (trx) => {
      const index = await catalogueIndex(trx);
      const roleId = nextId();
      await trx
        .insertInto('role')
        .values({ tenant_id: A.tenantId, id: roleId, role_name: '年级审计', role_alias: `grade_audit_${roleId}` })
        .execute();
      await writeRoleGrants(trx, A.tenantId, roleId, {
        menuIds: [index.menuIds.get('audit') as string],
        apiScopeIds: index.apiScopeIds.get('audit') ?? [],
        dataScopeIds: scopeCode ? [index.dataScopeIds.get(scopeCode) as string] : [],
      });
      await trx
        .insertInto('app_user')
        .values({ tenant_id: A.tenantId, id: userId, account: `ga-${userId}`, password_hash: 'x', dept_id: deptId })
        .execute();
      await trx.insertInto('user_role').values({ tenant_id: A.tenantId, user_id: userId, role_id: roleId }).execute();
    });
    return tokenFor(config, { tenant_id: A.tenantId, user_id: userId, roles: [] });
  }

  it('is guarded by API scopes, not role names, and shows only streams in the caller’s data scope', async () => {
    // Two teaching records (their streams are named by the record id) in depts 501 and 502.
    const week = requireDecider('week');
    const record = async (deptId: string) => {
      const id = nextId();
      await handleCommand(
        database,
        A,
        week,
        id,
        {
          type: 'CreateRecord',
          actor: { id: '11', name: '王芳' },
          at: '2026-11-21 09:00:00',
          header: { kind: 'week', deptId, classId: null, semester: '2026-2027-1' },
          content: { theme: '秋天', weekNo: 3 },
        },
        { metadata: { actorId: '11', actorName: '王芳' } },
      );
      return id;
    };
    const inDept = await record('501');
    const outside = await record('502');
    const ids = async (token: string) =>
      (await get('/api/audit/streams?size=100', token))
        .json()
        .data.records.map((r: { streamId: string }) => r.streamId);

    // A role that is not named auditor: the screen's API scope lets it in, its dept scope narrows it.
    const grade = await customAuditor('audit_dept', '501');
    const seen = await ids(grade);
    expect(seen).toContain(inDept);
    expect(seen).not.toContain(outside);
    // Streams without a record (n1, n2) need the whole tenant's scope.
    expect(seen).not.toContain('n1');
    expect((await get('/api/audit/streams?size=100', grade)).json().data.total).toBe(seen.length);
    for (const suffix of ['events', 'state', 'diff?from=1&to=1']) {
      expect((await get(`/api/audit/streams/${inDept}/${suffix}`, grade)).statusCode, suffix).toBe(200);
      const out = await get(`/api/audit/streams/${outside}/${suffix}`, grade);
      expect(out.statusCode, suffix).toBe(404);
      expect(out.json()).toMatchObject({ success: false, errorCode: 'not_found' });
      expect((await get(`/api/audit/streams/n1/${suffix}`, grade)).statusCode, suffix).toBe(404);
    }
    // The seeded auditor holds the whole tenant's audit scope: every stream.
    expect(await ids(auditor)).toEqual(expect.arrayContaining([inDept, outside, 'n1', 'n2']));
    // The screen without any audit data scope: allowed in, shown nothing.
    const noScope = await customAuditor(null, '501');
    expect((await get('/api/audit/streams', noScope)).json().data).toMatchObject({ total: 0, records: [] });
    expect((await get(`/api/audit/streams/${inDept}/events`, noScope)).statusCode).toBe(404);
  });

  it('never shows another tenant’s streams', async () => {
    expect((await get('/api/audit/streams/b1/events')).statusCode).toBe(404);
    expect((await get('/api/audit/streams/b1/state')).statusCode).toBe(404);
    const mine = (await get('/api/audit/streams', auditorB)).json().data;
    expect(mine.records.map((r: { streamId: string }) => r.streamId)).toEqual(['b1']);
    expect((await get('/api/audit/streams/n1/events', auditorB)).statusCode).toBe(404);
  });

  it('shows erased personal data as 已删除 / erased, the rest of the history intact', async () => {
    await inTenant(database, A, (trx) => eraseSubject(trx, A.tenantId, 'student:kid1', '5'));
    const zh = (await get('/api/audit/streams/n1/events')).json().data.events[0].data;
    expect(zh).toMatchObject({ studentName: '已删除', guardianPhone: '已删除', title: '观察 n1', studentId: 'kid1' });
    const en = (await get('/api/audit/streams/n1/state?version=1', auditor, { 'accept-language': 'en' })).json().data;
    expect(en.state.student).toEqual({ id: 'kid1', name: 'erased', guardianPhone: 'erased' });
  });

  it('answers a version conflict with 409 and a clear message in both languages', async () => {
    const zh = await app.inject({ method: 'POST', url: '/api/test/conflict', headers: bladeAuth(auditor) });
    expect(zh.statusCode).toBe(409);
    expect(zh.json()).toEqual({
      code: 409,
      success: false,
      data: null,
      msg: '该记录已被他人修改，请刷新后重试',
      errorCode: 'version_conflict',
    });
    const en = await app.inject({
      method: 'POST',
      url: '/api/test/conflict',
      headers: { ...bladeAuth(auditor), 'accept-language': 'en' },
    });
    expect(en.json().msg).toBe('This record was changed by someone else; refresh and try again');
  });
});
