import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Database, inTenant, openDatabase } from '../db';
import { migrateToLatest } from '../db/migrate';
import { handleCommand } from '../events/decider';
import { ensureReadModels } from '../events/projections/async';
import { rebuildProjection } from '../events/rebuild';
import { nextId } from '../ids';
import { createTestDatabase, type TestDatabase } from '../testing/pg';
import { defineRecordKind } from './kinds';
import { type Actor, type RecordCommand, recordDecider } from './lifecycle';
import { registerRecordProjections } from './projection';

type Note = { theme: string; goals: string };
defineRecordKind<Note>({
  kind: 'proj_note',
  resource: 'proj_note',
  content: z.object({ theme: z.string(), goals: z.string() }),
  title: (c) => c.theme,
});
registerRecordProjections();
const decider = recordDecider<Note>('proj_note');

const A = { tenantId: '100001' };
const teacher: Actor = { id: '11', name: '李老师' };
const reviewer: Actor = { id: '21', name: '张园长' };
const reader: Actor = { id: '31', name: '王老师' };

describe.each(['PostgreSQL', 'PGlite'])('record read models on %s', (engine) => {
  let pgTest: TestDatabase | undefined;
  let database: Database;
  let clock = Date.UTC(2026, 10, 21, 1, 0, 0);
  const at = () => {
    clock += 60_000;
    return new Date(clock).toISOString();
  };
  const run = (id: string, command: RecordCommand<Note>) =>
    handleCommand(database, A, decider, id, command, {
      metadata: { actorId: command.actor.id, actorName: command.actor.name },
    });

  beforeAll(async () => {
    if (engine === 'PostgreSQL') {
      pgTest = await createTestDatabase();
      database = pgTest.database;
    } else {
      database = await openDatabase({ dataDir: 'memory://' });
      await migrateToLatest(database.db as never);
    }
    await ensureReadModels(database);
  });
  afterAll(async () => {
    if (pgTest) await pgTest.drop();
    else await database?.close();
  });

  const list = () =>
    inTenant(
      database,
      A,
      async (trx) =>
        (
          await sql<Record<string, unknown>>`select id::text, kind, status, title, author_id::text, co_author_ids::text,
          excellent, reviewer_name, review_comment, collect_count, version, content
          from record_list order by id`.execute(trx)
        ).rows,
    );

  it('follows every lifecycle step, readable right after each command', async () => {
    const id = nextId();
    const header = { kind: 'proj_note', deptId: '5', classId: '7', semester: '2026-2027-1' };
    await run(id, {
      type: 'CreateRecord',
      actor: teacher,
      at: at(),
      header,
      content: { theme: '秋天', goals: '认识落叶' },
      coAuthorIds: ['12'],
    });
    expect((await list()).find((r) => r.id === id)).toMatchObject({
      status: 'draft',
      title: '秋天',
      author_id: '11',
      co_author_ids: '{12}',
    });
    await run(id, {
      type: 'UpdateDraft',
      actor: teacher,
      at: at(),
      content: { theme: '秋天的树叶', goals: '认识落叶' },
    });
    await run(id, { type: 'SubmitRecord', actor: teacher, at: at() });
    expect((await list()).find((r) => r.id === id)).toMatchObject({ status: 'trial', title: '秋天的树叶', version: 3 });
    await run(id, { type: 'ReturnRecord', actor: reviewer, at: at(), comment: '请补充目标' });
    expect((await list()).find((r) => r.id === id)).toMatchObject({
      status: 'returned',
      review_comment: '请补充目标',
      reviewer_name: '张园长',
    });
    await run(id, { type: 'SubmitRecord', actor: teacher, at: at() });
    await run(id, { type: 'ApproveRecord', actor: reviewer, at: at() });
    await run(id, { type: 'MarkExcellent', actor: reviewer, at: at() });
    await run(id, { type: 'CollectRecord', actor: reader, at: at() });
    expect((await list()).find((r) => r.id === id)).toMatchObject({
      status: 'success',
      excellent: true,
      collect_count: 1,
      version: 8,
    });
    const favs = await inTenant(
      database,
      A,
      async (trx) =>
        (await sql<{ user_id: string }>`select user_id::text from record_favorite where record_id = ${id}`.execute(trx))
          .rows,
    );
    expect(favs).toEqual([{ user_id: '31' }]);
    await run(id, { type: 'CancelCollection', actor: reader, at: at() });
    expect((await list()).find((r) => r.id === id)).toMatchObject({ collect_count: 0 });
  });

  it('rebuilds to exactly the live rows', async () => {
    for (let i = 0; i < 5; i++) {
      const id = nextId();
      await run(id, {
        type: 'CreateRecord',
        actor: teacher,
        at: at(),
        header: { kind: 'proj_note', deptId: null, classId: null, semester: null },
        content: { theme: `主题${i}`, goals: '' },
      });
      if (i % 2) await run(id, { type: 'SubmitRecord', actor: teacher, at: at() });
      if (i === 3) await run(id, { type: 'DeleteRecord', actor: teacher, at: at() }).catch(() => undefined);
      if (i === 4) await run(id, { type: 'DeleteRecord', actor: teacher, at: at() });
    }
    const before = await list();
    expect(before.length).toBeGreaterThanOrEqual(6);
    await rebuildProjection(database, 'record_list');
    expect(await list()).toEqual(before);
  });
});
